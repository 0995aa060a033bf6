"""The event stream: the whole state first, then every event; slow readers never hold it up."""

from __future__ import annotations

import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.stones.game import StonesGame
from engine.stones.sensing import BoardView, sight, sight_after
from firmware.core import events
from firmware.service.stream import BACKLOG, SOCKET, StreamError, read_events, serve_table
from firmware.stones.table import StonesTable
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent
from tests.support.processes import until

OBELISK = str(Path(sys.executable).parent / "obelisk")


class Played:
    """A stones table on a controlled clock, its events also on the stream."""

    def __init__(self, where: Path) -> None:
        self.told: list[dict] = []
        self.table = StonesTable(StonesGame(), Journal(where), emit=self.told.append)
        self.stream = serve_table(self.table, where)
        self.now = 0.0
        self.table.start(self.now)
        self.see(sight(self.table.position))
        self.table.on_button(ButtonEvent("A", "press"), self.now)

    def see(self, view: BoardView) -> None:
        with self.table.lock:
            self.table.on_view(view, self.now)
            self.now += 0.31
            self.table.tick(self.now)

    def move(self) -> None:
        pos = self.table.position
        move = next(m for m in pos.legal_actions()
                    if m.to not in {sq for sq, _ in pos.stacks})
        self.see(sight_after(pos, move))


@pytest.fixture
def played(tmp_path):
    game = Played(tmp_path)
    yield game
    game.stream.close()


def test_a_reader_gets_the_whole_state_first_then_every_event(played, tmp_path):
    played.move()
    reader = read_events(tmp_path, timeout=10)
    first = next(reader)
    events.check(first)
    assert first["event"] == "table" and first["game"] == "stones"
    assert first["state"] == "play" and first["actions"] == 1
    assert first["observation"] == played.table.position.observation()
    told = len(played.told)
    played.move()
    played.move()
    after = played.told[told:]
    assert [next(reader) for _ in after] == after   # in order, nothing missed, no repeat


def test_a_reader_joining_during_a_refusal_gets_it_after_the_whole_state(played, tmp_path):
    """Without it, a page whose server started mid-repair would show no problem."""
    seen = sight(played.table.position)
    taken = {sq for sq, _ in seen.heights}
    free = [sq for sq in ((r, c) for r in range(8) for c in range(8)) if sq not in taken]
    played.see(BoardView(seen.heights | {(free[0], 1), (free[-1], 1)}))  # two stones at once
    assert played.table.state == "repair"
    told = [e for e in played.told if e["event"] == "refused"][-1]
    reader = read_events(tmp_path, timeout=10)
    assert next(reader)["event"] == "table"
    assert next(reader) == told


def test_the_socket_is_for_the_owner_and_group_only(played, tmp_path):
    mode = stat.S_IMODE((tmp_path / SOCKET).stat().st_mode)
    assert mode & 0o007 == 0 and mode & 0o660 == 0o660


def test_a_reader_that_stops_reading_is_dropped_and_the_table_plays_on(played, tmp_path):
    readers = played.stream.readers()
    stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(str(tmp_path / SOCKET))         # connects, and never reads a byte
    until(lambda: played.stream.readers() > readers, 30, "the stream to take the reader on")
    big = events.make("notice", message="x" * 2000)
    done = threading.Event()

    def flood() -> None:
        for _ in range(BACKLOG * 8):
            played.stream.publish(big)
        done.set()

    threading.Thread(target=flood, daemon=True).start()
    assert done.wait(20), "publishing waited for a reader"
    assert played.stream.dropped == 1
    again = read_events(tmp_path, timeout=10)      # coming back: the whole state again
    assert next(again)["event"] == "table"
    stuck.close()


def test_high_rise_shows_stacks_in_the_whole_state_only_once_it_is_over(tmp_path):
    from engine.highrise.game import HighriseGame
    from engine.highrise.sensing import Calibration
    from firmware.highrise.table import HighriseTable

    cal = Calibration(zero=(1000,) * 9, sizes=(700, 1300, 1900), tolerance=190)
    table = HighriseTable(HighriseGame(), Journal(tmp_path), cal, seed=3)
    table.start(0.0)
    seen = {**table.position.observation(), "stacks": [{"square": "a1"}]}
    fields = dict(game="highrise", options={}, players={}, state="play", turn="A",
                  doing="", problem="", actions=3, observation=seen)
    assert "stacks" not in table.event("table", **fields)["observation"]
    table.state = "over"
    assert table.event("table", **fields)["observation"]["stacks"] == [{"square": "a1"}]
    assert "stacks" not in table.public_state()["observation"]   # the game is not over


@pytest.mark.processes
def test_no_table_there_is_said_with_the_fix(tmp_path):
    with pytest.raises(StreamError, match="no table is running on"):
        next(read_events(tmp_path))
    run = subprocess.run([OBELISK, "watch", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 2 and "no table is running on" in run.stderr
    assert "obelisk run" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.processes
def test_watch_shows_a_running_demo(tmp_path):
    """A demo is a table like any other: `obelisk watch` on its directory draws it."""
    demo = subprocess.Popen([OBELISK, "demo", "stones", "--speed", "5", "--json",
                             "--state-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        for line in demo.stdout:
            if '"accepted"' in line:
                break
        watch = subprocess.Popen([OBELISK, "watch", "--state-dir", str(tmp_path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = watch.stdout.readline()
        board = [watch.stdout.readline() for _ in range(8)]
        watch.kill()
        watch.wait(10)
    finally:
        demo.kill()
        demo.wait(10)
    assert first.startswith("--- the stones table (")
    assert any(line.startswith("  a   b   c   d") for line in board)


def test_a_directory_that_is_not_there_is_said(tmp_path):
    with pytest.raises(StreamError, match="there is no directory"):
        next(read_events(tmp_path / "typo"))


@pytest.mark.processes
def test_watch_says_once_that_the_table_stopped(tmp_path):
    demo = subprocess.Popen([OBELISK, "demo", "stones", "--speed", "5", "--json",
                             "--state-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    for line in demo.stdout:
        if '"accepted"' in line:
            break
    watch = subprocess.Popen([OBELISK, "watch", "--state-dir", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert watch.stdout.readline().startswith("--- the stones table")
    demo.kill()
    demo.wait(10)
    said = watch.stderr.readline()          # the stop, as soon as the stream ends
    (tmp_path / "events.sock").unlink()     # a killed table leaves its socket behind
    try:
        watch.wait(timeout=3.5)             # a few of its one-second retries go by
    except subprocess.TimeoutExpired:
        watch.terminate()
    rest = watch.communicate(timeout=10)[1]
    assert "has stopped; waiting for it" in said
    assert "has stopped" not in rest and "Traceback" not in rest


def test_a_stream_that_closes_first_sends_each_reader_what_it_was_told(tmp_path):
    """A demo's table stops as its game ends: the readers still get the end."""
    from firmware.service.stream import EventStream

    stream = EventStream(tmp_path, lambda: [{"event": "table"}], threading.RLock()).open()
    reader = read_events(tmp_path, timeout=10)
    assert next(reader)["event"] == "table"
    got: list[dict] = []
    reading = threading.Thread(target=lambda: got.extend(reader))  # as a page server reads
    reading.start()
    told = [{"event": "notice", "message": f"{n} " + "x" * 1000} for n in range(200)]
    for event in told:
        stream.publish(event)
    stream.close()
    reading.join(10)
    assert got == told


def test_a_second_stream_on_a_running_tables_directory_is_refused_in_words(played, tmp_path):
    """Only one table serves a state directory's stream: another one opening there is told
    so, and the first one's readers read on."""
    from firmware.service.stream import EventStream

    second = EventStream(tmp_path, lambda: [{"event": "table"}], threading.RLock())
    with pytest.raises(StreamError, match="another process already serves on"):
        second.open()
    assert next(read_events(tmp_path, timeout=10))["event"] == "table"


def test_a_closed_stream_leaves_no_thread_and_no_socket_file(tmp_path):
    from firmware.service.stream import EventStream

    stream = EventStream(tmp_path, lambda: [{"event": "table"}], threading.RLock()).open()
    readers = [read_events(tmp_path, timeout=10) for _ in range(3)]
    for reader in readers:
        assert next(reader)["event"] == "table"
    assert [t for t in threading.enumerate() if t.name.startswith("stream-")]
    stream.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("stream-")]
    assert not (tmp_path / SOCKET).exists()
    for reader in readers:
        assert list(reader) == []  # each hears the end


def test_a_table_that_stops_as_a_reader_comes_ends_the_stream_without_an_error(tmp_path):
    """A reader that connects as the table stops is dropped unanswered (its connection was
    never accepted, and the kernel resets it): ``obelisk watch`` and the club's link see the
    stream end, as at any stop, not a ConnectionResetError."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / SOCKET))
    listener.listen(1)
    reader = read_events(tmp_path, timeout=10)
    seen: list[dict] = []
    failed: list[BaseException] = []

    def read() -> None:
        try:
            seen.extend(reader)
        except BaseException as exc:
            failed.append(exc)

    first = threading.Thread(target=read, daemon=True)
    first.start()
    import select

    assert select.select([listener], [], [], 10)[0], "the reader never connected"
    listener.close()  # the table stops: its queue of unaccepted readers goes with it
    first.join(timeout=10)
    assert not first.is_alive() and failed == [] and seen == []
