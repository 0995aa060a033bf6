"""The whole sensing path: simulated table -> real scanner code -> pty -> parser.

Nothing here is mocked above the pins: the scanner code that ships builds
itself with ``code.py``'s ``build()``, writes frames into a real
pseudo-terminal, and the Pi side reads them with pyserial.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.players import Player
from engine.tower import resting_placements
from engine.towers import Choose, Place, Take
from engine.towers_sensing import find_placement
from hardware.link import ScannerLink
from hardware.scanner import obelisk_proto as proto
from hardware.sim import GRAMS_TO_COUNTS, LOAD_OFFSET, SimTable

LAYOUT = {"towers": 2, "rods": 9, "levels": 9, "rows": 8, "cols": 8, "loads": 3, "leds": 64}


@pytest.fixture
def table():
    sim = SimTable(LAYOUT).start()
    yield sim
    sim.stop()


@pytest.fixture
def link(table):
    with ScannerLink(table.port_path, retry_s=0.05) as live:
        assert live.wait_for(lambda s: True, 3.0) is not None, live.health
        yield live


def _truth(table, snapshot) -> bool:
    return (snapshot.tower_cells(0) == table.cubes[0]
            and snapshot.tower_cells(1) == table.cubes[1]
            and snapshot.squares() == table.pieces)


def test_a_block_placed_on_the_table_reaches_the_engine(game, table, link):
    state = game.new_initial_state(first=Player.A)
    state = state.apply_action(Choose("B09")).apply_action(Choose("R1")).apply_action(Take("R1"))
    cells = resting_placements(state.tower(Player.A), state.block("B09"))[3]
    table.place(0, cells)
    seen = link.wait_for(lambda s: bool(s.tower_cells(0)), 3.0)
    assert seen is not None
    assert seen.tower_cells(0) == cells and seen.tower_cells(1) == frozenset()
    # What the sensors saw is exactly the engine's placement.
    assert find_placement(state, Player.A, seen.tower_cells(0)) == Place(Player.A, "B09", cells)


def test_board_squares_and_load_cells(table, link):
    table.put((7, 0))
    table.put((2, 5))
    table.weigh(1, 12.5)
    seen = link.wait_for(lambda s: len(s.squares()) == 2 and s.loads[1] != LOAD_OFFSET, 3.0)
    assert seen is not None
    assert seen.squares() == {(7, 0), (2, 5)}
    assert seen.loads == (LOAD_OFFSET, LOAD_OFFSET + int(12.5 * GRAMS_TO_COUNTS), LOAD_OFFSET)


def test_a_hovering_hand_shows_up_and_goes(table, link):
    """The scanner reports what it sees; telling a hand from a block is the firmware's job."""
    table.hover(1, {(1, 1, 5)})
    assert link.wait_for(lambda s: s.tower_cells(1) == {(1, 1, 5)}, 3.0)
    table.hand_away()
    assert link.wait_for(lambda s: not s.tower_cells(1), 3.0)


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
    seen = link.wait_for(lambda s: _truth(table, s), 5.0)
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
    seen = link.wait_for(lambda s: _truth(table, s) and s.tower_cells(0), 5.0)
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
        assert "no-such-board" in lonely.health.last_error
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
        seen = live.wait_for(lambda s: len(s.squares()) == 3, 3.0)
        assert seen is not None and seen.layout.stack == 3
        assert seen.square_heights() == {((0, 0), 1), ((1, 1), 2), ((5, 3), 3)}
        sim.put((5, 3), 1)                          # the top two stones come off
        seen = live.wait_for(lambda s: ((5, 3), 1) in s.square_heights(), 3.0)
        assert seen is not None and seen.squares() == {(0, 0), (1, 1), (5, 3)}
