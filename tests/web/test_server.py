"""`obelisk web`: the page and its live events, served from a running table's stream."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.web import Web

pytestmark = pytest.mark.processes

OBELISK = str(Path(sys.executable).parent / "obelisk")


def _events(url: str, count: int) -> list[dict]:
    """The first ``count`` Server-Sent Events of /events, as the page's EventSource reads."""
    got = []
    with urllib.request.urlopen(url + "/events", timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        for raw in stream:
            line = raw.decode()
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
                if len(got) == count:
                    break
    return got


def test_the_page_shows_a_running_demo_live(tmp_path):
    demo = subprocess.Popen([OBELISK, "demo", "stones", "--speed", "5", "--json",
                             "--state-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    web = None
    try:
        for line in demo.stdout:
            if '"accepted"' in line:
                break
        served = Web(tmp_path).start()
        web, url = served.process, served.url
        page = urllib.request.urlopen(url + "/", timeout=30).read().decode()
        assert "<title>Obelisk Table</title>" in page and "/static/app.js" in page
        script = urllib.request.urlopen(url + "/static/app.js", timeout=30).read().decode()
        assert 'from "./service.js"' in script  # the page's one link to this server:
        service = urllib.request.urlopen(url + "/static/service.js", timeout=30).read().decode()
        assert 'new EventSource("/events")' in service
        first, *later = _events(url, 4)
        assert first["event"] == "table" and first["game"] == "stones"
        assert "a   b   c   d" in first["board"]            # the board, as text
        assert all(e["words"] for e in later if e["event"] != "live")  # every event in words
    finally:
        demo.kill()
        demo.wait(10)
        if web is not None:
            web.kill()
            web.wait(10)


def test_with_no_table_the_page_says_so_and_waits(tmp_path):
    served = Web(tmp_path).start()
    web, url = served.process, served.url
    try:
        absent, live = _events(url, 2)
    finally:
        web.kill()
        web.wait(10)
    assert absent["event"] == "absent" and "no table is running on" in absent["words"]
    assert live["event"] == "live"  # the page knows it has caught up


def test_a_port_in_use_is_said_with_the_fix(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([OBELISK, "web", "--address", "127.0.0.1", "--port", str(port),
                              "--state-dir", str(tmp_path)], capture_output=True, text=True,
                             timeout=30)
    assert run.returncode == 2 and "choose another with --port" in run.stderr
    assert "Traceback" not in run.stderr


def test_only_the_page_is_served_with_safe_headers(tmp_path):
    import urllib.error

    served = Web(tmp_path).start()
    web, url = served.process, served.url
    try:
        page = urllib.request.urlopen(url + "/", timeout=30)
        policy = page.headers["Content-Security-Policy"]
        for sneaky in ("/static/../server.py", "/static/%2e%2e/server.py",
                       "/static/..%2f..%2f..%2fpyproject.toml", "/../../etc/passwd"):
            try:
                answer = urllib.request.urlopen(url + sneaky, timeout=30)
                status, body = answer.status, answer.read()
            except urllib.error.HTTPError as exc:
                status, body = exc.code, b""
            assert 400 <= status < 500 and b"import" not in body, (sneaky, status)
    finally:
        web.kill()
        web.wait(10)
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


# ---------------------------------------------------------------- the history's endpoints


def _get(url: str, method: str = "GET") -> tuple[int, dict, bytes]:
    """Status, headers and body of one request, an HTTP error included."""
    import urllib.error

    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method,
                                                           data=b"" if method == "POST" else None),
                                    timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _export(state: Path, game_id: str, form: str) -> str:
    return subprocess.run([OBELISK, "export", game_id, "--format", form, "--state-dir",
                           str(state)], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A state directory holding one finished stones game, and its page's server."""
    state = tmp_path_factory.mktemp("finished")
    subprocess.run([OBELISK, "demo", "stones", "--speed", "100", "--json", "--ply-limit", "12",
                    "--state-dir", str(state)], capture_output=True, check=True, timeout=120)
    listed = subprocess.run([OBELISK, "games", "--state-dir", str(state)], capture_output=True,
                            text=True, check=True).stdout
    served = Web(state).start()
    web, url = served.process, served.url
    yield state, listed.split()[0], url
    web.kill()
    web.wait(10)


def test_the_history_lists_the_finished_games(finished):
    _, game_id, url = finished
    status, headers, body = _get(url + "/games")
    assert status == 200 and headers["Content-Type"] == "application/json"
    (game,) = json.loads(body)["games"]
    assert game["id"] == game_id and game["game"] == "stones"
    assert game["result"].startswith("a draw")
    assert (game["json"], game["text"], game["replay"]) == (
        f"/games/{game_id}.json", f"/games/{game_id}.txt", f"/games/{game_id}/replay")
    assert "default-src 'self'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("form", ["json", "text"])
def test_a_download_is_what_obelisk_export_writes(finished, form):
    state, game_id, url = finished
    suffix = "json" if form == "json" else "txt"
    status, headers, body = _get(f"{url}/games/{game_id}.{suffix}")
    assert status == 200
    assert body.decode() == _export(state, game_id, form)
    assert headers["Content-Disposition"] == \
        f'attachment; filename="obelisk-stones-{game_id}.{suffix}"'
    assert headers["Content-Type"].startswith("application/json" if form == "json"
                                              else "text/plain")
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_replay_gives_each_position_with_its_words(finished):
    state, game_id, url = finished
    status, _, body = _get(f"{url}/games/{game_id}/replay")
    assert status == 200
    replay = json.loads(body)
    sheet = [line.split(" ", 1)[1] for line in _export(state, game_id, "text").splitlines()
             if line[:1].isdigit()]
    first, *steps = replay["steps"]
    assert first["player"] is None and first["observation"]["plies"] == 0
    # the sheet's notation ("A d1-c2"), each said as the moves list says it ("A moved the
    # capstone d1-c2 (step)")
    assert len(steps) == len(sheet)
    for step, line in zip(steps, sheet, strict=True):
        player, notation = line.split(" ", 1)
        assert step["player"] == player and step["text"].startswith("moved the ")
        assert step["text"].split()[3] == notation, (step, line)
    assert [s["observation"]["plies"] for s in steps] == list(range(1, len(sheet) + 1))
    assert replay["outcome"]["words"].startswith("a draw")
    assert replay["players"] == {"A": "player A", "B": "player B"}


@pytest.mark.parametrize("path, status", [
    ("/games/XYZ.json", 400),                       # not hex
    ("/games/0123456789.json", 400),                # too long
    ("/games/DEADBEEF.txt", 404),                   # capitals read as small letters: unknown
    ("/games/..%2F..%2Fjournal.json", 400),         # a path, not an id
    ("/games/%00.json", 400),
    ("/games/.json", 400),
    ("/games/abc/replay", 400),
    ("/games/deadbeef.json", 404),                  # well formed, no such game
    ("/games/deadbeef/replay", 404),
    ("/games/deadbeef.pdf", 404),                   # no such form
    ("/games/../journal.jsonl", 404),
    ("/journal.jsonl", 404),
    ("/static/../../journal.jsonl", 403),           # out of the page's folder
])
def test_a_bad_request_gets_a_clear_4xx_and_never_a_file(finished, path, status):
    _, _, url = finished
    got, headers, body = _get(url + path)
    assert got == status, (path, body)
    assert b"Traceback" not in body and b'"t":' not in body and body.strip()
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    if path.startswith("/games/") and got == 400:
        assert "8 hex digits" in json.loads(body)["error"]


def test_the_page_only_reads(finished):
    _, game_id, url = finished
    for path in ("/games", f"/games/{game_id}.json", "/events", "/"):
        status, _, body = _get(url + path, method="POST")
        assert status == 405 and b"Traceback" not in body, path


def test_an_unfinished_high_rise_game_is_never_listed_nor_served(tmp_path):
    from firmware.store.history import _id
    from firmware.store.journal import Journal

    demo = subprocess.Popen([OBELISK, "demo", "highrise", "--speed", "100", "--json",
                             "--state-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        placed = 0
        for line in demo.stdout:
            placed += '"accepted"' in line
            if placed == 6:
                break
    finally:
        demo.kill()
        demo.wait(10)
    entries = Journal(tmp_path).read(tmp_path / "journal.jsonl").entries
    assert entries[0]["t"] == "start" and "sealed" in entries[0]
    served = Web(tmp_path).start()
    web, url = served.process, served.url
    try:
        status, _, body = _get(url + "/games")
        assert status == 200 and json.loads(body)["games"] == []
        for end in range(1, len(entries) + 1):  # whatever id the game so far would have
            game_id = _id(tuple(entries[:end]))
            for path in (f"/games/{game_id}.json", f"/games/{game_id}.txt",
                         f"/games/{game_id}/replay"):
                assert _get(url + path)[0] == 404, path
    finally:
        web.kill()
        web.wait(10)


# ---------------------------------------------------------------- what a late page is sent


def _sent(page) -> list[dict]:
    return [json.loads(text.split("data: ", 1)[1]) for text in page.queue]


def test_a_late_page_gets_the_game_so_far_and_a_running_hourglass_as_it_is_now(monkeypatch):
    from firmware.readers.web import follow

    now = [100.0]
    monkeypatch.setattr(follow, "monotonic", lambda: now[0])
    follower = follow.Follower("/nowhere")
    observation = {"game": "stones", "rows": 6, "cols": 4, "stacks": {}}
    follower._take({"event": "table", "game": "stones", "options": {}, "players": {},
                    "state": "play", "turn": "A", "doing": "", "problem": "", "actions": 0,
                    "observation": observation})
    follower._take({"event": "accepted", "player": "A", "action": "a1-a2", "text": "a move",
                    "observation": observation})
    follower._take({"event": "timer", "player": "A", "state": "started", "seconds": 60.0,
                    "left": 60.0})
    follower._take({"event": "timer", "player": "B", "state": "stopped", "seconds": 60.0,
                    "left": 42.0})
    now[0] += 12.5
    sent = _sent(follower.join())
    assert [e["event"] for e in sent] == ["table", "accepted", "timer", "timer", "live"]
    timers = {e["player"]: e["left"] for e in sent if e["event"] == "timer"}
    assert timers == {"A": 47.5, "B": 42.0}     # A's sand ran 12.5 s since; B's stands
    assert all("words" in e for e in sent[:-1])  # sent as the first page got them


def test_a_new_game_drops_the_last_one_from_what_late_pages_get():
    from firmware.readers.web.follow import Follower

    follower = Follower("/nowhere")
    follower._take({"event": "table", "game": "maze", "state": "over", "observation": {}})
    follower._take({"event": "game_over", "game": "maze", "outcome": {}, "observation": {}})
    follower._take({"event": "start", "game": "maze", "first": "A", "observation": {}})
    assert [e["event"] for e in _sent(follower.join())] == ["table", "start", "live"]


def test_a_late_page_gets_the_boards_latest_figures_through_a_new_game():
    from firmware.readers.web.follow import Follower

    follower = Follower("/nowhere")
    follower._take({"event": "table", "game": "maze", "state": "setup", "observation": {}})
    follower._take({"event": "scanner", "scan_us": 9000, "load_us": 25000})
    follower._take({"event": "scanner", "scan_us": 8412, "load_us": None})
    follower._take({"event": "start", "game": "maze", "first": "A", "observation": {}})
    sent = _sent(follower.join())
    assert [e["event"] for e in sent] == ["table", "scanner", "start", "live"]
    assert sent[1]["scan_us"] == 8412 and sent[1]["load_us"] is None
    assert sent[1]["words"] == "the scanner board measured a scan every 8.4 ms, no load " \
        "cells read"


def test_a_page_too_far_behind_is_closed_and_the_others_go_on():
    from firmware.readers.web.follow import PAGE_BACKLOG, Follower

    follower = Follower("/nowhere")
    slow, quick = follower.join(), follower.join()
    for n in range(PAGE_BACKLOG + 1):
        follower._take({"event": "notice", "message": f"{n}"})
        quick.queue.clear()  # this one reads everything
    assert slow.closed and slow not in follower.pages
    assert not quick.closed and quick in follower.pages


def test_an_id_in_capitals_is_the_same_game_as_obelisk_export_takes_it(finished):
    state, game_id, url = finished
    status, _, body = _get(f"{url}/games/{game_id.upper()}.txt")
    assert status == 200 and body.decode() == _export(state, game_id.upper(), "text")


def test_the_browsers_icon_request_is_answered_quietly(finished):
    _, _, url = finished
    status, headers, body = _get(f"{url}/favicon.ico")
    assert status == 204 and body == b"" and "Content-Security-Policy" in headers


def test_an_address_not_of_this_machine_is_said_with_its_own_fix(tmp_path):
    run = subprocess.run([OBELISK, "web", "--address", "192.0.2.1", "--port", "0",
                          "--state-dir", str(tmp_path)], capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 2 and "give --address one of this machine's" in run.stderr
    assert "--port" not in run.stderr and "Traceback" not in run.stderr


def test_a_page_started_before_its_directory_exists_says_to_start_the_table_there(tmp_path):
    served = Web(tmp_path / "not-yet").start()
    web, url = served.process, served.url
    try:
        absent = _events(url, 1)[0]
    finally:
        web.kill()
        web.wait(10)
    assert absent["event"] == "absent"
    assert "no table is running on" in absent["words"] and "this page waits" in absent["words"]
    assert "`" not in absent["words"]


def test_a_stream_closed_before_a_word_is_no_table_that_stopped(tmp_path):
    """A table starting (or stopping) may take a page's connection and close it before it
    says anything: the page then tries again, and never says the table has stopped (it
    said "the table has stopped" between "no table is running" and the table, once)."""
    import asyncio
    import threading

    from firmware.readers.web import follow
    from firmware.service.stream import SOCKET

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / SOCKET))
    listener.listen(2)

    def serve() -> None:
        first, _ = listener.accept()
        first.close()  # taken in, then dropped without a word
        second, _ = listener.accept()
        second.sendall(json.dumps({"event": "table", "game": "stones", "options": {},
                                   "players": {}, "state": "setup"}).encode() + b"\n")
        second.recv(1)  # held open until the page lets go

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    follower = follow.Follower(tmp_path)
    said: list[str] = []
    follower._say_absent = said.append

    async def until_the_table() -> None:
        task = asyncio.ensure_future(follower._follow())
        for _ in range(400):
            if follower.seen_table:
                break
            await asyncio.sleep(0.025)
        task.cancel()

    asyncio.run(until_the_table())
    listener.close()
    assert follower.seen_table
    assert follow.STOPPED not in said, said
