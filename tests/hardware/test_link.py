"""The whole sensing path: simulated table -> real scanner code -> pty -> parser.

Nothing here is mocked above the pins: the scanner code that ships builds
itself with ``code.py``'s ``build()``, writes frames into a real
pseudo-terminal, and the Pi side reads them with pyserial.
"""

from __future__ import annotations

import logging
import os
import random
import re
import select
import threading
import time

import pytest
import serial

from engine.players import Player
from engine.towers.actions import Choose, Place, Take
from engine.towers.placement import find_placement
from engine.towers.tower import resting_placements
from hardware.link import RESYNC_EVERY_S, BoardStatus, ScannerLink
from hardware.scanner import obelisk_proto as proto
from hardware.sensors import Layout
from hardware.sim.table import GRAMS_TO_COUNTS, LOAD_OFFSET, SimTable

LAYOUT = {"towers": 2, "rods": 9, "levels": 9, "rows": 8, "cols": 8, "loads": 3, "leds": 64}


@pytest.fixture
def table():
    sim = SimTable(LAYOUT).start()
    yield sim
    sim.stop()


@pytest.fixture
def link(table):
    with ScannerLink(table.port_path, retry_s=0.05) as live:
        assert live.wait_for(lambda s: True, 30.0) is not None, live.health
        yield live


def _truth(table, snapshot) -> bool:
    return (snapshot.tower_cells(0) == table.cubes[0]
            and snapshot.tower_cells(1) == table.cubes[1]
            and snapshot.squares() == table.pieces)


def test_a_block_placed_on_the_table_reaches_the_engine(game, table, link):
    state = game.new_initial_state(first=Player.A)
    state = state.apply_action(Choose("B09")).apply_action(Choose("R01")).apply_action(Take("R01"))
    cells = resting_placements(state.tower(Player.A), state.block("B09"))[3]
    table.place(0, cells)
    seen = link.wait_for(lambda s: bool(s.tower_cells(0)), 30.0)
    assert seen is not None
    assert seen.tower_cells(0) == cells and seen.tower_cells(1) == frozenset()
    # What the sensors saw is exactly the engine's placement.
    assert find_placement(state, Player.A, seen.tower_cells(0)) == Place(Player.A, "B09", cells)


def test_board_squares_and_load_cells(table, link):
    table.put((7, 0))
    table.put((2, 5))
    table.weigh(1, 12.5)
    seen = link.wait_for(lambda s: len(s.squares()) == 2 and s.loads[1] != LOAD_OFFSET, 30.0)
    assert seen is not None
    assert seen.squares() == {(7, 0), (2, 5)}
    assert seen.loads == (LOAD_OFFSET, LOAD_OFFSET + int(12.5 * GRAMS_TO_COUNTS), LOAD_OFFSET)


def test_a_hovering_hand_shows_up_and_goes(table, link):
    """The scanner reports what it sees; telling a hand from a block is the firmware's job."""
    table.hover(1, {(1, 1, 5)})
    assert link.wait_for(lambda s: s.tower_cells(1) == {(1, 1, 5)}, 30.0)
    table.hand_away()
    assert link.wait_for(lambda s: not s.tower_cells(1), 30.0)


def test_unplug_and_replug_mid_stream_resyncs(table, link):
    errors = []
    stop = threading.Event()

    def busy_player():
        rng = random.Random(5)
        try:
            while not stop.is_set():
                table.place(rng.randrange(2), {(rng.randrange(3), rng.randrange(3),
                                                rng.randrange(9))})
                time.sleep(0.003)
        except Exception as exc:  # pragma: no cover - the failure being tested for
            errors.append(exc)

    mover = threading.Thread(target=busy_player)
    mover.start()
    try:
        time.sleep(0.2)
        table.unplug()                      # mid-stream: frames were flowing
        time.sleep(0.3)
        assert not link.synced and link.snapshot() is None
        table.put((4, 4))                   # the table changes while the cable is out
        table.plug()
        time.sleep(0.2)
    finally:
        stop.set()
        mover.join()
    assert not errors
    seen = link.wait_for(lambda s: _truth(table, s), 30.0)
    assert seen is not None, link.health
    assert link.health.reconnects == 1 and link._thread.is_alive()


def test_garbage_on_the_wire_is_dropped_and_the_state_resynced(table, link):
    rng = random.Random(7)
    frames = []
    for _ in range(10_000):
        kind = rng.randrange(3)
        if kind == 0:
            frames.append(bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 30)))
                          + b"\x00")
        elif kind == 1:  # well formed but lying: claims switches the board lacks
            body = proto.pack_changes([(rng.randrange(300, 32000), True)])
            frames.append(proto.encode_frame(proto.CHANGES, rng.randrange(256), body))
        else:
            frames.append(proto.encode_frame(rng.randrange(256), rng.randrange(256),
                                             bytes(rng.randrange(256) for _ in range(6))))
    blob = b"".join(frames)
    for i in range(0, len(blob), 4096):
        table.inject(blob[i:i + 4096])
        time.sleep(0.002)
    table.place(0, {(2, 2, 0)})
    seen = link.wait_for(lambda s: _truth(table, s) and s.tower_cells(0), 30.0)
    assert seen is not None, link.health
    assert link.health.bad_total > 1000
    assert link.health.gaps > 0 and link.health.resyncs > 1
    assert link._thread.is_alive()


def test_leds_on_the_scanner_board_and_ping(table, link):
    rgb = bytes(range(3 * 4))
    assert link.send(proto.LED_FRAME, proto.pack_leds(10, rgb))
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        pixels = table.scanner_pixels
        if pixels is not None and pixels.frames and pixels.frames[-1][10] == (0, 1, 2):
            break
        time.sleep(0.01)
    assert table.scanner_pixels.frames[-1][10:14] == ((0, 1, 2), (3, 4, 5), (6, 7, 8),
                                                      (9, 10, 11))
    assert link.send(proto.PING, proto.pack_token(4242))
    deadline = time.monotonic() + 3
    while link.health.last_pong != 4242 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert link.health.last_pong == 4242


def test_a_port_that_never_appears_is_retried_quietly(tmp_path):
    with ScannerLink(str(tmp_path / "no-such-board"), retry_s=0.02) as lonely:
        time.sleep(0.2)
        assert not lonely.health.connected and lonely.snapshot() is None
        assert lonely.health.last_error.startswith("no such port: the board is not plugged")
        assert lonely._thread.is_alive()


def test_a_fresh_snapshot_is_read_after_asking_and_is_no_resync(table, link):
    resyncs = link.health.resyncs
    table.place(1, {(2, 0, 3)})
    time.sleep(0.1)  # longer than the board's three-scan debounce
    answered = link._snapshots
    fresh = link.fresh_snapshot(timeout=2.0)
    assert fresh is not None and fresh.tower_cells(1) == {(2, 0, 3)}
    assert link._snapshots > answered  # a new snapshot, not the one we had
    assert link.health.resyncs == resyncs and link.synced
    table.unplug()
    assert link.fresh_snapshot(timeout=0.3) is None


def test_stack_height_sensors_report_how_tall_each_stack_is():
    layout = dict(LAYOUT, towers=0, loads=0, rows=6, cols=4, leds=24, stack=3)
    with SimTable(layout) as sim, ScannerLink(sim.port_path, retry_s=0.05) as live:
        sim.put((0, 0))
        sim.put((1, 1), 2)
        sim.put((5, 3), 3)
        seen = live.wait_for(lambda s: len(s.squares()) == 3, 30.0)
        assert seen is not None and seen.layout.stack == 3
        assert seen.square_heights() == {((0, 0), 1), ((1, 1), 2), ((5, 3), 3)}
        sim.put((5, 3), 1)                          # the top two stones come off
        seen = live.wait_for(lambda s: ((5, 3), 1) in s.square_heights(), 30.0)
        assert seen is not None and seen.squares() == {(0, 0), (1, 1), (5, 3)}


# ---------------------------------------------------------------- what the log says
# Under `obelisk run` the log is all a person sees of the link.


class _Heard(logging.Handler):
    """The link's log records, waited on as conditions (never by sleeping)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self._changed:
            self.records.append(record)
            self._changed.notify_all()

    def lines(self, words: str, level: int = logging.WARNING) -> list[str]:
        return [r.getMessage() for r in self.records
                if r.levelno >= level and words in r.getMessage()]

    def wait(self, words: str, count: int = 1, timeout: float = 5.0,
             level: int = logging.WARNING) -> list[str]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.lines(words, level)) >= count, timeout)
            return self.lines(words, level)


@pytest.fixture
def heard():
    logger = logging.getLogger("hardware.link")
    handler = _Heard()
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old_level)


class _Opener:
    """serial_for_url (or ``port()``), counting the attempts."""

    def __init__(self, port=None) -> None:
        self.port = port
        self.calls = 0
        self._called = threading.Condition()

    def __call__(self, *args, **kwargs):
        with self._called:
            self.calls += 1
            self._called.notify_all()
        if self.port is not None:
            return self.port()
        return serial.serial_for_url(*args, **kwargs)

    def wait(self, calls: int, timeout: float = 5.0) -> bool:
        with self._called:
            return self._called.wait_for(lambda: self.calls >= calls, timeout)


def test_the_link_is_alive_while_its_reader_runs(table):
    link = ScannerLink(table.port_path, retry_s=0.05)
    assert not link.alive
    with link:
        assert link.alive
    assert not link.alive


@pytest.mark.parametrize("baud", [99999999999999999, -5])
def test_a_bad_baud_is_told_and_never_kills_the_reader(table, heard, baud):
    opener = _Opener()
    with ScannerLink(table.port_path, baud, retry_s=0.005, serial_factory=opener) as link:
        assert opener.wait(20)
        assert link.alive and not link.synced
        assert f"the port refuses {baud} baud" in link.health.last_error
    said = heard.lines(table.port_path)
    assert len(said) == 1, said  # twenty failures, one line
    assert f"cannot open {table.port_path} at {baud} baud (the port refuses {baud} baud)" \
        in said[0]
    assert "check [scanner] port and baud in the profile" in said[0]
    assert "Error" not in said[0] and "Error" not in link.health.last_error


def test_a_missing_port_is_told_once_then_reminded_not_every_retry(tmp_path, heard):
    port = str(tmp_path / "ttyACM0")
    opener = _Opener()
    with ScannerLink(port, retry_s=0.005, serial_factory=opener) as link:
        assert opener.wait(30)
        said = heard.lines(port)
        assert len(said) == 1, said
        assert f"cannot open {port} (no such port: the board is not plugged in" in said[0]
        assert "Errno" not in said[0] and "could not open port" not in said[0]
        assert "USB cable" in said[0] and "`obelisk diag`" in said[0]
        link._notices.every_s = 0.05  # a lasting trouble is told again, every period
        reminders = heard.wait("(still, after", 2)
        assert len(reminders) >= 2 and link.alive


def test_lost_and_back_are_told(table, heard):
    with ScannerLink(table.port_path, retry_s=0.02) as link:
        assert link.wait_for(lambda s: True, 30.0) is not None
        table.unplug()
        lost = heard.wait(f"scanner link on {table.port_path} lost")
        assert lost and "USB cable" in lost[0]
        table.plug()
        assert heard.wait(f"scanner board back on {table.port_path}; resyncing")
        assert link.wait_for(lambda s: True, 30.0) is not None


def test_an_unexpected_error_in_the_reader_is_told_and_the_link_goes_on(table, heard):
    failures = []

    def listener(snapshot):
        if not failures:
            failures.append(snapshot)
            raise RuntimeError("a listener with a bug")

    with ScannerLink(table.port_path, retry_s=0.02, on_snapshot=listener) as link:
        said = heard.wait("unexpected RuntimeError: a listener with a bug")
        assert said and "reopening the port" in said[0]
        table.place(0, {(1, 1, 0)})
        assert link.wait_for(lambda s: s.tower_cells(0) == {(1, 1, 0)}, 30.0) is not None
        assert link.alive and link.health.reconnects >= 1


def test_a_reader_that_dies_says_so_and_is_not_alive(table, heard):
    def listener(snapshot):
        raise SystemExit("nothing catches this")  # beyond Exception: the reader must end

    link = ScannerLink(table.port_path, retry_s=0.02, on_snapshot=listener).start()
    try:
        table.place(1, {(0, 0, 0)})
        said = heard.wait("reader on", level=logging.ERROR)
        assert said and "stopped (SystemExit: nothing catches this)" in said[0]
        link._thread.join(5.0)
        assert not link.alive and not link.synced
        assert "SystemExit" in link.health.last_error
    finally:
        link.stop()


def test_bad_frames_piling_up_are_told_with_their_kinds(table, link, heard):
    good = proto.encode_frame(proto.LOAD, 0, proto.pack_loads([1, 2, 3]))
    broken = good[:-3] + bytes([good[-3] ^ 0x55]) + good[-2:]  # one byte off: the CRC fails
    table.inject(b"\x00" + broken * 8)
    said = heard.wait("bad frames in the last")
    assert said, heard.records
    # The board's own frames share the wire, so a count may be split or one more.
    told = re.search(r"(\d+) bad frames in the last \d+ s \(.*?(\d+) crc \(wrong checksum\)",
                     said[0])
    assert told and int(told[1]) >= 5 and int(told[2]) >= 1, said[0]
    assert said[0].startswith(f"scanner link on {table.port_path}: ")
    assert "USB cable" in said[0] and "`obelisk diag`" in said[0]


def test_frames_of_another_protocol_version_are_told_with_the_fix(table, link, heard):
    payload = bytes((2, proto.LOAD, 9)) + proto.pack_loads([1, 2, 3])
    crc = proto.crc16(payload)
    frame = proto.cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"
    table.inject(frame * 10)
    said = heard.wait("speaks protocol version 2")
    assert said, heard.records
    assert "this Pi speaks version 1" in said[0]
    assert "update the scanner board's code" in said[0] and "CIRCUITPY" in said[0]
    assert link.health.board_version == 2


def test_a_hello_that_disagrees_with_the_profile_is_told_with_both_layouts(table, heard):
    want = Layout("as mine.toml describes", towers=2, rows=6, cols=4, loads=0, stack=3)
    with ScannerLink(table.port_path, retry_s=0.02, expected=want,
                     expected_from="profile mine.toml") as link:
        assert link.wait_for(lambda s: True, 30.0) is not None
        said = heard.wait("but profile mine.toml describes")
        assert len(said) == 1
        assert ("has 2 towers, board 8x8, 3 load cells, 1 switch per square, but profile "
                "mine.toml describes 2 towers, board 6x4, 0 load cells, 3 switches per "
                "square") in said[0]
        assert "LAYOUT at the top of the board's code.py" in said[0]
        assert link.health.layout_mismatch == said[0]
        assert link.fresh_snapshot(2.0) is not None  # another hello: told once per period
        assert len(heard.lines("describes")) == 1


def test_a_hello_that_agrees_with_the_profile_is_not_told(table, heard):
    want = Layout("as sim describes", **{k: v for k, v in LAYOUT.items() if k != "leds"})
    with ScannerLink(table.port_path, expected=want) as link:
        assert link.wait_for(lambda s: True, 30.0) is not None
        assert link.health.layout_mismatch == "" and not heard.lines("describes")


class _FlakyPort:
    """A port that opens, then fails at the first read: a loose plug."""

    in_waiting = 0

    def read(self, n: int) -> bytes:
        raise serial.SerialException("device reports readiness to read but returned no data")

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


def test_a_flapping_cable_is_told_a_few_times_a_period_then_summed_up(heard):
    opener = _Opener(_FlakyPort)
    with ScannerLink("/dev/ttyLOOSE", retry_s=0.002, serial_factory=opener) as link:
        assert opener.wait(60)
        told = heard.lines("/dev/ttyLOOSE", logging.INFO)
        assert 2 <= len(told) <= 6, told  # sixty flaps, a handful of lines
        assert any("lost (the board stopped answering" in line for line in told)
        assert not any("device reports readiness" in line for line in told)
        assert any("back on /dev/ttyLOOSE" in line for line in told)
        link._notices.every_s = 0.2  # the next period: the state as it is, with a count
        summed = heard.wait("more changes since the last line about it", level=logging.INFO)
        assert summed and link.alive


def test_a_heartbeat_before_the_hello_is_no_damage():
    """At start-up the board's heartbeat may beat its answer to our SYNC: no bad frame."""
    link = ScannerLink("unused")
    switches = 2 * 81
    early = proto.encode_frame(proto.SNAPSHOT, 7, proto.pack_snapshot([3], switches, []))
    link.feed(early)
    assert link.health.bad_total == 0 and not link.synced   # no layout yet: wait for it
    hello = proto.pack_hello("test board", 2, 9, 9, 0, 0, 0, 0)
    link.feed(proto.encode_frame(proto.HELLO, 0, hello)
              + proto.encode_frame(proto.SNAPSHOT, 1, proto.pack_snapshot([3], switches, [])))
    assert link.health.bad_total == 0 and link.synced
    assert link.snapshot().tower_cells(0)


def test_a_port_closed_under_a_write_is_a_lost_frame_not_a_crash(tmp_path):
    """The reader closing the port while the service writes an LED frame (a cable pulled
    at that moment) made pyserial raise TypeError, and it stopped the service."""

    class ClosedUnderUs:
        def write(self, data: bytes) -> None:
            raise TypeError("argument must be an int, or have a fileno() method.")

    link = ScannerLink(str(tmp_path / "port"), retry_s=0.05)
    link._serial = ClosedUnderUs()
    assert link.send(0x10, b"") is False
    assert "the port was closed under a write" in link.health.last_error
    assert "fileno" not in link.health.last_error


def test_a_heartbeat_that_repeats_the_state_wakes_nobody():
    """The board's heartbeat every second used to wake the service each time; only a new
    state is told, and losing the board (a sequence gap here) is told once, on its own."""
    told, lost = [], []
    link = ScannerLink("unused", on_snapshot=told.append, on_unsynced=lambda: lost.append(1))
    switches = 2 * 81

    def snapshot(seq: int, closed: list[int]) -> bytes:
        return proto.encode_frame(proto.SNAPSHOT, seq, proto.pack_snapshot(closed, switches, []))

    hello = proto.pack_hello("test board", 2, 9, 9, 0, 0, 0, 0)
    link.feed(proto.encode_frame(proto.HELLO, 0, hello) + snapshot(1, [3]))
    link.feed(snapshot(2, [3]) + snapshot(3, [3]))                  # two heartbeats
    assert len(told) == 1 and not lost
    link.feed(snapshot(4, [3, 4]))                                  # a block arrived
    assert len(told) == 2 and told[-1].tower_cells(0) != told[0].tower_cells(0)
    link.feed(proto.encode_frame(proto.CHANGES, 9, proto.pack_changes([(5, True)])))
    assert lost == [1] and not link.synced and len(told) == 2        # frames went missing
    link.feed(snapshot(10, [3, 4]))                                 # the answer to our SYNC
    assert link.synced and len(told) == 3 and lost == [1]           # back: told again


def test_the_boards_own_figures_are_kept_and_told_when_they_move():
    """The board's STATUS lands in the link's health as numbers; listeners hear the first
    and then only a change of a tenth or more (the figures wobble a little every second)."""
    told = []
    link = ScannerLink("unused", on_status=told.append)
    assert link.health.board_status is None

    def status(seq: int, scan_us: int, load_us: int, dropped: int = 0) -> bytes:
        return proto.encode_frame(proto.STATUS, seq, proto.pack_status(scan_us, load_us, dropped))

    link.feed(status(0, 8412, 25000))
    assert link.health.board_status == BoardStatus(scan_us=8412, load_us=25000, dropped=0)
    link.feed(status(1, 8500, 25500, 2))
    assert link.health.board_status == BoardStatus(8500, 25500, 2)
    assert told == [BoardStatus(8412, 25000, 0)], "a wobble wakes nobody"
    link.feed(status(2, 9400, 25000) + status(3, 9400, 0))
    assert told[1:] == [BoardStatus(9400, 25000, 0), BoardStatus(9400, None, 0)]
    assert link.health.bad_total == 0 and link.health.gaps == 0


def test_the_simulated_board_reports_its_figures_over_the_wire(table, link):
    """The simulated board paces itself (a turn every 5 ms plus its work): whatever it
    measured arrives within a heartbeat or two."""
    deadline = time.monotonic() + 5
    while link.health.board_status is None and time.monotonic() < deadline:
        time.sleep(0.05)
    status = link.health.board_status
    assert status is not None, link.health
    assert status.scan_us > 0 and status.load_us is not None and status.load_us > 0


# ------------------------------------------------------------------ garbage, floods, forgeries


def _pour(table, blob: bytes) -> None:
    """Bytes onto the wire towards the Pi, all of them, as fast as the line takes them (the
    simulated board's own ``inject`` drops what the pty cannot take at once)."""
    port = table.board._port
    rest = memoryview(blob)
    while rest:
        select.select([], [port.master], [], 1.0)
        try:
            rest = rest[os.write(port.master, rest[:4096]):]
        except BlockingIOError:
            continue


def _synced_link() -> ScannerLink:
    """A link with no port, fed by hand: a board's hello and first snapshot (3 load cells)."""
    link = ScannerLink("unused")
    link.feed(proto.encode_frame(proto.HELLO, 0, proto.pack_hello("board", 2, 9, 9, 8, 8, 3, 0))
              + proto.encode_frame(proto.SNAPSHOT, 1, proto.pack_snapshot([3, 170], 226,
                                                                          [10, 20, 30])))
    assert link.synced
    return link


NONSENSE = {  # frames whose checksum is good and whose body no board of ours sends
    "load readings for one cell of three": (proto.LOAD, proto.pack_loads([5])),
    "load readings for 64 cells of three": (proto.LOAD, proto.pack_loads([10**6] * 64)),
    "a snapshot with no load readings": (proto.SNAPSHOT, proto.pack_snapshot([], 226, [])),
    "a snapshot with five load readings": (proto.SNAPSHOT,
                                           proto.pack_snapshot([], 226, [0, 0, 0, 0, 0])),
    "a snapshot of other switches": (proto.SNAPSHOT, proto.pack_snapshot([], 300, [1, 2, 3])),
    "a hello with rods of seven": (proto.HELLO, proto.pack_hello("x", 2, 7, 9, 8, 8, 3, 0)),
    "a hello with 200 levels": (proto.HELLO, proto.pack_hello("x", 2, 9, 200, 8, 8, 3, 0)),
    "a hello with 200 towers": (proto.HELLO, proto.pack_hello("x", 200, 9, 9, 8, 8, 3, 0)),
    "a hello with a 40x40 board": (proto.HELLO, proto.pack_hello("x", 2, 9, 9, 40, 40, 3, 0)),
    "a hello with a board 8 wide, 0 long": (proto.HELLO,
                                            proto.pack_hello("x", 2, 9, 9, 0, 8, 3, 0)),
    "a hello with 255 load cells": (proto.HELLO, proto.pack_hello("x", 2, 9, 9, 8, 8, 255, 0)),
    "changes of odd length": (proto.CHANGES, b"\x80"),
    "a change of a switch the board lacks": (proto.CHANGES, proto.pack_changes([(5000, True)])),
    "a kind nobody sends": (0x7E, b"\x01\x02"),
    "a short status": (proto.STATUS, b"\x00"),
    "a pong of three bytes": (proto.PONG, b"\x00\x01\x02"),
    "a sync from the board": (proto.SYNC, b""),
}


@pytest.mark.parametrize("what", NONSENSE)
def test_a_frame_with_a_good_checksum_and_a_nonsense_body_changes_nothing(what):
    """What the sensors read stays what the board last said (a phantom load reading could
    have moved a pad's weight), and the frame is counted with the bad ones, whose words
    are "contents made no sense"."""
    link = _synced_link()
    before = link.snapshot()
    kind, body = NONSENSE[what]
    link.feed(proto.encode_frame(kind, 2, body))
    assert link.synced and link.snapshot() == before and link.snapshot().loads == (10, 20, 30)
    assert link.health.bad_frames == {"body": 1} and link.health.gaps == 0
    link.feed(proto.encode_frame(proto.CHANGES, 3, proto.pack_changes([(4, True)])))
    assert link.snapshot().closed == {3, 4, 170}  # and the table plays on


def test_a_flood_out_of_sequence_asks_the_board_again_at_most_a_few_times_a_second(table, link,
                                                                                    heard):
    """Twenty thousand well-formed frames, each out of sequence, far faster than any board
    sends: each asked the board for its whole state (twenty thousand asks it had to answer
    in a second). Now the asks are spaced, the link says what is happening in words, and it
    is back to the truth after it."""
    asks = []
    send = link.send
    link.send = lambda kind, body=b"": (asks.append(time.monotonic()) if kind == proto.SYNC
                                        else None, send(kind, body))[1]
    rng = random.Random(3)
    blob = b"".join(proto.encode_frame(proto.CHANGES, rng.randrange(256),
                                       proto.pack_changes([(rng.randrange(162), True)]))
                    for _ in range(20_000))
    started = time.monotonic()
    _pour(table, blob)
    poured = time.monotonic() - started
    said = heard.wait("out of sequence")
    assert said and "USB cable" in said[0], heard.records
    table.place(0, {(2, 2, 0)})
    assert link.wait_for(lambda s: _truth(table, s) and s.tower_cells(0), 30.0) is not None
    assert link.health.gaps > 1000 and link.alive
    within = [t for t in asks if t <= started + poured]
    assert len(within) <= 2 + poured / RESYNC_EVERY_S, (len(within), poured)


def test_garbage_and_bursts_never_kill_the_link_nor_move_a_piece(table, link):
    """Random bytes, runs of zeros, runs of 0xff (a frame that never ends), a hundred
    kilobytes at once: the link drops them, and what it reads afterwards is the truth."""
    rng = random.Random(11)
    blob = b"".join([bytes(rng.randrange(256) for _ in range(50_000)), b"\x00" * 5_000,
                     b"\xff" * 20_000, b"\x00", bytes(rng.randrange(1, 256)
                                                      for _ in range(30_000))])
    _pour(table, blob)
    table.put((4, 4))
    seen = link.wait_for(lambda s: _truth(table, s) and s.squares() == {(4, 4)}, 30.0)
    assert seen is not None, link.health
    assert link.alive and link.health.bad_total > 10 and link.health.bad_frames.get("overflow")


def test_a_port_another_link_holds_is_refused_in_words_and_the_first_reads_on(table, link,
                                                                              heard):
    """``obelisk diag --profile`` beside a table service on the same port: two readers on
    one serial port each get part of the bytes, and the service saw garbage and gaps. The
    port is held by the first; the second is told why it cannot have it."""
    with ScannerLink(table.port_path, retry_s=0.02) as second:
        said = heard.wait(f"cannot open {table.port_path}")
        assert said and "in use by another program" in said[0], heard.records
        assert "--state-dir" in said[0] and "Errno" not in said[0]
        table.place(0, {(0, 0, 0), (1, 0, 0)})
        assert link.wait_for(lambda s: _truth(table, s) and s.tower_cells(0), 30.0) is not None
        assert not second.health.connected and second.snapshot() is None
    assert link.health.gaps == 0 and link.health.bad_total == 0


class _DeafAtFirst:
    """A board that does not answer the first SYNC at once (written while its USB settled):
    ``lost``, it never does; else its answer comes with the next one's. Each SYNC after is
    answered with the board's hello and a snapshot; meanwhile its heartbeat beats."""

    in_waiting = 0

    def __init__(self, lost: bool = True) -> None:
        self.syncs = 0
        self.lost = lost
        self._out = bytearray()
        self._seq = 0
        self._wrote = threading.Event()

    def _frame(self, kind: int, body: bytes) -> bytes:
        self._seq = (self._seq + 1) & 0xFF
        return proto.encode_frame(kind, self._seq, body)

    def read(self, n: int) -> bytes:
        if not self._out:
            self._wrote.wait(0.05)  # no answer waiting: the next heartbeat comes
            self._wrote.clear()
            if not self._out:
                return self._frame(proto.SNAPSHOT, proto.pack_snapshot([3], 2 * 81, []))
        data, self._out[:] = bytes(self._out), b""
        return data

    def write(self, data: bytes) -> int:
        for kind, _, _ in proto.FrameReader().feed(data):
            if kind != proto.SYNC:
                continue
            self.syncs += 1
            if self.syncs == 1:
                continue  # not heard, or its answer held back
            for _ in range(1 if self.lost or self.syncs > 2 else 2):
                self._out += self._frame(proto.HELLO, proto.pack_hello(
                    "deaf board", 2, 9, 9, 0, 0, 0, 0))
                self._out += self._frame(proto.SNAPSHOT, proto.pack_snapshot([3], 2 * 81, []))
            self._wrote.set()
        return len(data)

    def close(self) -> None:
        pass


def test_a_first_sync_the_board_never_heard_is_asked_again():
    """A booted Pi's table waited for good, 'connected, waiting for a snapshot': its one SYNC
    was lost as the port opened, and the heartbeat cannot sync a link without a hello."""
    board = _DeafAtFirst()
    with ScannerLink("/dev/ttyDEAF", serial_factory=lambda *a, **k: board) as link:
        seen = link.wait_for(lambda s: True, 10.0)
        assert seen is not None, f"never synced; the board heard {board.syncs} SYNC"
        assert seen.tower_cells(0) and board.syncs >= 2


def test_a_slow_answer_and_the_answer_to_asking_again_are_both_answers():
    """Two hellos for two SYNCs: the second is no board restarting (no state dropped)."""
    board = _DeafAtFirst(lost=False)
    lost = []
    with ScannerLink("/dev/ttySLOW", serial_factory=lambda *a, **k: board,
                     on_unsynced=lambda: lost.append(board.syncs)) as link:
        assert link.wait_for(lambda s: True, 10.0) is not None
        ticket = link.ask_fresh()  # answered once all the answers before it are in
        assert link.fresh_snapshot(timeout=10.0, after=ticket) is not None
        assert not lost and link.health.resyncs == 1, (lost, link.health)
