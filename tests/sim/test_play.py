"""`obelisk play` loses nothing and lets no one in: its processes' words go to bounded logs
(a page flooded with bad requests still answers), every way of stopping it stops all three
of its processes, and a second play on the same directory is refused without touching the
first.

Each play runs as a person starts it (the ``obelisk`` command, a process of its own) on a
directory of the test's own; its processes are found by their pids (``/proc``), never by
name.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest

from firmware.service.control import SOCKET as CONTROL_SOCKET
from firmware.service.control import send
from hardware.sim.line_socket import ask
from tests.support.play import GONE_S, START_S, Play
from tests.support.processes import OBELISK, alive, children, interrupt, on_directory, until

pytestmark = pytest.mark.processes








@pytest.fixture
def playing(tmp_path):
    """``obelisk play towers`` on ``tmp_path/table``, not yet started."""
    play = Play("towers", tmp_path / "table", logs=tmp_path)
    yield play
    play.close()


def test_a_flood_of_bad_requests_leaves_the_page_and_the_service_answering(playing):
    """Some 80 bad requests once filled the page's unread pipe and froze it for good."""
    from firmware.sim.play import LOG_CAP, LOGS

    playing.started()
    junk = "/" + "x" * 4000  # each refusal logs its path: 4 kB a line
    flood = 2 * LOG_CAP // len(junk) + 50
    for n in range(flood):
        assert playing.page(f"{junk}{n}") == 404, f"the page froze after {n} bad requests"
    assert playing.page("/") == 200
    assert send(playing.dir, {"command": "status"})["ok"]  # the service answers too
    assert ask(playing.dir / "hands.sock", {"act": "look"})["ok"]  # and the board
    page_log = playing.dir / LOGS["page"]
    until(lambda: page_log.stat().st_size <= LOG_CAP, 10, "the page's log kept to its cap")
    assert playing.process.poll() is None


def test_a_log_past_its_cap_is_kept_as_the_one_before_and_its_writer_goes_on(tmp_path):
    """The page says one line per kind of problem now, so the flood above no longer fills a
    log: the cap is checked on a writer of its own."""
    from firmware.sim.play import trim_log

    log = tmp_path / "page.log"
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o640)  # as the children write
    try:
        for n in range(300):
            os.write(fd, f"line {n} {'x' * 100}\n".encode())
        trim_log(log, cap=10_000)
        os.write(fd, b"after the cut\n")
    finally:
        os.close(fd)
    older = log.with_name("page.log.1")
    assert older.read_text().splitlines()[-1].startswith("line 299 ")  # nothing lost
    assert log.read_text() == "after the cut\n"  # the writer's next line, at the start
    trim_log(log, cap=10_000)  # under its cap: left alone
    assert log.read_text() == "after the cut\n"


STOPS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "kill", signal.SIGHUP: "a closed terminal",
         signal.SIGKILL: "its own death"}


@pytest.mark.parametrize("signum", list(STOPS), ids=lambda s: signal.Signals(s).name)
def test_every_way_of_stopping_play_stops_its_three_processes(playing, signum):
    playing.started()
    three = children(playing.process.pid)  # all started once it printed the address
    assert len(three) == 3, three
    os.kill(playing.process.pid, signum)
    code = playing.process.wait(GONE_S)
    until(lambda: not any(alive(pid) for pid in three), GONE_S,
          f"every process of obelisk play to stop after {STOPS[signum]}")
    assert not on_directory(playing.dir)
    if signum != signal.SIGKILL:
        said = playing.err.read_text()
        assert code == 128 + signum and "Traceback" not in said, said
        left = {p.name for p in playing.dir.iterdir()}
        assert not left & {"hands.sock", "buttons.sock", CONTROL_SOCKET, "scanner"}, left
    assert "Traceback" not in (playing.dir / "service.log").read_text()


@pytest.mark.parametrize("started", [1, 2])
def test_a_play_stopped_while_it_starts_leaves_nothing_running(playing, started):
    """SIGTERM once the page (1) or the page and the board (2) run, the service not yet."""
    playing.start()
    until(lambda: len(children(playing.process.pid)) >= started, START_S,
          f"{started} of its processes to start")
    os.kill(playing.process.pid, signal.SIGTERM)
    code = playing.process.wait(GONE_S)
    until(lambda: not on_directory(playing.dir), GONE_S, "every process of obelisk play to stop")
    said = playing.err.read_text()
    assert code == 128 + signal.SIGTERM and "Traceback" not in said, said
    assert playing.out.read_text() == ""  # no address of a page that is gone


def test_a_second_play_on_a_directory_in_use_is_refused_and_touches_nothing(playing, tmp_path):
    playing.started()
    kept = ("hands.sock", "buttons.sock", CONTROL_SOCKET, "scanner", "sim-board.toml")
    before = {name: os.lstat(playing.dir / name).st_ino for name in kept}
    second = subprocess.run([OBELISK, "play", "towers", "--port", "0", "--state-dir",
                             str(playing.dir)], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=START_S)
    after = {name: os.lstat(playing.dir / name).st_ino for name in kept if
             (playing.dir / name).exists()}
    assert after == before  # the same files, none removed or made again
    assert playing.process.poll() is None
    assert playing.page("/") == 200
    assert ask(playing.dir / "hands.sock", {"act": "look"})["ok"]
    assert send(playing.dir, {"command": "status"})["ok"]
    said = second.stderr.strip().splitlines()
    assert second.returncode == 2 and len(said) == 1, second.stderr
    assert "is in use by" in said[0] and "obelisk play towers" in said[0], said
    assert second.stdout == ""  # no address of a page that is not there


def test_a_restart_opens_the_page_where_the_last_run_did_or_says_it_moved(tmp_path):
    """`--port 0` picks any free port once; Ctrl-C and the same command again serve the page
    on that same port, so a tab left open goes on. When another program has taken it
    meanwhile, the page opens on a new one, and the first line says to reopen the tab
    there."""
    runs: list[Play] = []

    def play(name: str) -> tuple[Play, str]:
        runs.append(Play("towers", tmp_path / "table", logs=tmp_path, name=name))
        runs[-1].started()
        first = runs[-1].out.read_text().splitlines()[0]
        assert first.startswith(f"obelisk play: open {runs[-1].url} in a browser"), first
        return runs[-1], first

    try:
        first, said = play("first")
        assert "reopen" not in said
        interrupt(first.process)
        again, said = play("again")
        assert again.url == first.url and "reopen" not in said, said
        interrupt(again.process)
        with socket.socket() as taken:  # another program has the port now
            taken.bind(("127.0.0.1", urllib.parse.urlsplit(first.url).port))
            taken.listen()
            moved, said = play("moved")
            assert moved.url != first.url and moved.page("/") == 200
            assert f"a tab left open at {first.url} no longer finds the page; reopen it at " \
                "this one" in said, said
    finally:
        for run in runs:
            run.close()
