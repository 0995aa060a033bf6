"""`obelisk play` loses nothing and lets no one in: its processes' words go to bounded logs
(a page flooded with bad requests still answers), every way of stopping it stops all three
of its processes, and a second play on the same directory is refused without touching the
first.

Each play runs as a person starts it (the ``obelisk`` command, a process of its own) on a
directory of the test's own; its processes are found by their pids (``/proc``), never by
name.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from firmware.service.command_socket import SOCKET as CONTROL_SOCKET
from firmware.service.command_socket import send
from firmware.store.journal import Journal
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


# ------------------------------------------------------------------ a child stopped or killed

CHILD_WORDS = {"board": "simulated board", "service": "table service", "page": "page"}
"""Each of the play's processes, as it names them to a person."""
SCHEDULE = 5
"""The seed of the schedule: with it the SIGSTOPs fall once while the play starts, once in
play and continued, once in play and left stopped at Ctrl-C; two SIGKILLs while it starts
and one in play. Each moment within its phase is drawn too."""


def _child(play: Play, name: str) -> int:
    """The pid of one of the play's processes, by what it runs (its command line)."""
    marks = {"board": b"firmware.sim.hands_board", "service": b"\0run\0", "page": b"\0web\0"}
    for pid in children(play.process.pid):
        with contextlib.suppress(OSError):
            if marks[name] in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    raise AssertionError(f"no {name} among the children of obelisk play")


def _state(play: Play) -> str:
    try:
        return send(play.dir, {"command": "status"}, timeout=5.0)["state"]
    except OSError:
        return ""


def _begin_and_move(play: Play) -> list[dict]:
    """The stones set out, the game begun and a first move made; the journal's entries once
    the move is on disk (each confirmed)."""
    from engine.core import square_name
    from engine.stones.game import StonesGame

    ask(play.dir / "hands.sock", {"act": "setup"})
    until(lambda: play.press("A") and _state(play) == "play", 60, "the stones game to begin")
    state = StonesGame().new_initial_state()
    move = state.legal_actions()[0]
    seat = state.current_player().value
    for act in ({"act": "lift", "seat": seat, "square": square_name(move.frm), "count": 1},
                {"act": "put", "seat": seat, "square": square_name(move.to)}):
        assert ask(play.dir / "hands.sock", act)["ok"], act

    def moved() -> list[dict] | None:
        entries = list(Journal(play.dir).read().entries)
        return entries if any(e.get("t") == "action" for e in entries) else None

    return until(moved, 60, "the first move on disk")


@pytest.mark.parametrize("name", list(CHILD_WORDS))
@pytest.mark.parametrize("signum", [signal.SIGSTOP, signal.SIGKILL], ids=["SIGSTOP", "SIGKILL"])
def test_a_child_stopped_or_killed_at_a_random_moment_is_said_and_loses_nothing(tmp_path, name,
                                                                                signum):
    """Each of the board, the service and the page, stopped (SIGSTOP) or killed (SIGKILL)
    while the play starts or while it plays, at a moment drawn from a seeded schedule: the
    play says in words what happened to which, nothing confirmed is lost, no process is
    left behind, and the same command again resumes the game."""
    rng = random.Random(f"{SCHEDULE}:{name}-{signal.Signals(signum).name}")
    starting = rng.random() < 0.4
    play = Play("stones", tmp_path / "table", logs=tmp_path)
    again = Play("stones", tmp_path / "table", logs=tmp_path, name="again")
    kept: list[dict] = []
    try:
        if starting:  # as soon as it runs, before the play has started the rest
            play.start()
            pid = until(lambda: _started(play, name), START_S, f"the {name} to start")
        else:
            play.started()
            kept = _begin_and_move(play)
            pid = _child(play, name)
        time.sleep(rng.uniform(0.0, 0.5))  # the moment itself, drawn (nothing waited for)
        os.kill(pid, signum)
        what = CHILD_WORDS[name]
        said = until(lambda: _told(play), 60, "obelisk play to say what happened")
        # killed, or paused before the play was ready (said just before it ends: the words
        # may be read while it is still on its way out)
        if play.process.poll() is not None or "before it was ready" in said:
            code = play.wait_ended()
            assert code == 2 and "Traceback" not in said, said
            assert (any(f"the {what} {how}: it was killed (SIGKILL)" in said
                        for how in ("stopped", "could not start"))  # (killed as it started)
                    if signum == signal.SIGKILL else
                    f"the {what} was stopped (a SIGSTOP" in said and "before it was ready"
                    in said), said
        else:
            assert f"the {what} was stopped (a SIGSTOP" in said and f"kill -CONT {pid}" in said
            if rng.random() < 0.5:  # continued, then stopped as a person stops it
                os.kill(pid, signal.SIGCONT)
                until(lambda: f"the {what} goes on" in play.err.read_text(), 30,
                      "obelisk play to say its child goes on")
                until(lambda: _state(play), 30, "the table to answer again")
            play.ctrl_c()  # with the child still paused, or going on again
            assert play.wait_ended(60) == 128 + signal.SIGINT
        until(lambda: not on_directory(play.dir), GONE_S, "every process of the play to stop")
        assert "Traceback" not in play.err.read_text()
        entries = list(Journal(play.dir).read().entries)
        assert entries[:len(kept)] == kept  # nothing confirmed lost
        again.started()
        if kept:
            until(lambda: _state(again) == "play", 60, "the game to resume")
            assert "resumes, 1 action in" in again.out.read_text()
        assert list(Journal(again.dir).read().entries)[:len(kept)] == kept
    finally:
        again.close()
        play.close()


def _told(play: Play) -> str:
    """What the play said on stderr, once it ended or said a child was paused ("" before)."""
    said = play.err.read_text()
    return said if play.process.poll() is not None or "SIGSTOP" in said else ""


def _started(play: Play, name: str) -> int | None:
    with contextlib.suppress(AssertionError):
        return _child(play, name)
    return None


def test_a_page_paused_before_it_is_ready_ends_the_start_in_words(playing):
    """Paused at once (before its first word), the page never says where it is: the start
    waited its 30 s and said only that the page did not start."""
    playing.start()
    pid = until(lambda: _started(playing, "page"), START_S, "the page to start")
    os.kill(pid, signal.SIGSTOP)
    assert playing.wait_ended(START_S) == 2
    said = playing.err.read_text()
    assert "the page was stopped (a SIGSTOP from outside the play) before it was ready" in said
    assert "Traceback" not in said and playing.out.read_text() == ""
    until(lambda: not on_directory(playing.dir), GONE_S, "every process of the play to stop")
