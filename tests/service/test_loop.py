"""The service's loop: it sleeps until something is due, and a stop always gets through."""

from __future__ import annotations

import sys
import threading
import time
import types

import pytest

from engine.towers.game import TowersGame
from firmware.service.loop import ASK_EARLY_S, TableService
from firmware.service.overlays import UNSEEN_S
from firmware.store.journal import Journal
from firmware.towers.table import TowersTable
from firmware.towers.view import view_of
from hardware.devices import open_table
from hardware.profile import load_profile
from hardware.scanner import obelisk_proto as proto


def _until(test, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.01)


def test_a_stop_put_from_inside_the_loops_own_queue_code_gets_through():
    """SIGTERM's handler runs in the loop's thread, between any two lines it runs, also
    inside the queue's own methods while they hold its lock; the handler puts the stop on
    that queue. With a lock there, the service hung until systemd killed it."""
    fake = types.SimpleNamespace
    devices = fake(link=fake(), buttons=fake(beep=None), leds=fake(parts=lambda: []))
    service = TableService(devices, fake(beep=None), view_of)
    stdlib = (sys.modules["queue"].__file__, threading.__file__)

    def signal_at_every_line(frame, event, arg):
        if event == "line" and frame.f_code.co_filename in stdlib:
            service.stopping.set()  # what the SIGTERM handler does
        return signal_at_every_line

    def loop_like() -> None:
        sys.settrace(signal_at_every_line)
        try:
            for _ in range(20):
                service.events.put(("button", None))
                service.events.get(timeout=1.0)
        finally:
            sys.settrace(None)

    worker = threading.Thread(target=loop_like, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "a stop waited on a lock the loop held"


def test_an_idle_table_sleeps_until_input_and_wakes_to_show_a_lost_board(tmp_path, block_set):
    """Nothing due, the board seen: no timeout at all (it woke every second before). The
    board lost: the link says so, and the loop wakes in time to show it on the rings."""
    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"))
    now = [0.0]  # the table's clock, moved by hand
    service = TableService(devices, table, view_of, clock=lambda: now[0])
    woken = []
    devices.link.on_unsynced = lambda: woken.append(service.events.put(("unsynced", None)))
    try:
        service.start_table()
        _until(lambda: devices.link.synced)
        service._step("snapshot", devices.link.snapshot())
        syncs = []
        send = devices.link.send
        devices.link.send = lambda kind, body=b"": (syncs.append(kind) if kind == proto.SYNC
                                                    else None, send(kind, body))[1]
        settle = table.settler.settle_s
        # it wakes to ask the board for the whole table just before the window closes...
        assert service._sleep(now[0], None) == pytest.approx(settle - ASK_EARLY_S)
        now[0] = settle - ASK_EARLY_S
        service._step(None, None)
        assert table.decided is None and service._asked is not None
        # ...and then at the close, where the answer is waiting
        assert service._sleep(now[0], None) == pytest.approx(ASK_EARLY_S)
        now[0] = 1.0
        service._step(None, None)
        assert table.decided is not None and table.state == "setup"
        assert len(syncs) == 1  # the window closed on the early ask's answer, not a new ask
        assert service._sleep(now[0], None) is None
        # while the journal refuses (a full disk), a new reading waits for the retry: the
        # loop sleeps until then, not at once over and over
        service._retry_at = now[0] + 3.0
        before = devices.link.snapshot()
        devices.sim.place(0, {(0, 0, 0)})
        _until(lambda: devices.link.snapshot() != before)
        service._step("snapshot", devices.link.snapshot())
        assert table.settler.deadline() is not None
        now[0] += 1.0  # the new reading's window and its early ask are long past
        assert service._sleep(now[0], None) == pytest.approx(2.0)
        service._retry_at = None
        devices.sim.unplug()
        _until(lambda: woken)
        service._step("unsynced", None)
        wait = service._sleep(now[0], None)
        assert wait is not None and 0 < wait <= UNSEEN_S
    finally:
        devices.close()


def test_the_board_is_read_again_with_the_tables_lock_free(tmp_path, block_set):
    """The re-read that closes a settle window may wait up to half a second for the board:
    meanwhile the page's commands and a demo's hands can take the table's lock. The reading
    that held still counts once the answer is in, and one that moved starts over."""
    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"))
    now = [0.0]
    service = TableService(devices, table, view_of, clock=lambda: now[0])
    free: list[bool] = []
    fresh = devices.link.fresh_snapshot

    def take_and_give_back(taken: list[bool]) -> None:
        taken.append(table.lock.acquire(timeout=0.2))
        if taken[-1]:
            table.lock.release()

    def reread(*args, **kwargs):
        taken: list[bool] = []
        other = threading.Thread(target=take_and_give_back, args=(taken,))
        other.start()
        other.join()
        free.append(taken[0])
        return fresh(*args, **kwargs)

    devices.link.fresh_snapshot = reread
    try:
        service.start_table()
        _until(lambda: devices.link.synced)
        service._step("snapshot", devices.link.snapshot())
        now[0] = 1.0  # the window closed
        service._step(None, None)
        assert free == [True] and table.decided is not None
        clear = devices.link.snapshot()
        devices.sim.place(0, {(0, 0, 0)})
        _until(lambda: devices.link.snapshot() != clear)
        service._step("snapshot", devices.link.snapshot())  # a block goes on...
        devices.sim.lift(0, {(0, 0, 0)})
        _until(lambda: devices.link.snapshot() == clear)  # ...and comes off, unseen yet
        decided = table.decided
        now[0] = 2.0
        service._step(None, None)
        assert free == [True, True]  # the re-read saw it gone: nothing new counted
        assert table.decided == decided and table.settler.pending == view_of(clear)
    finally:
        devices.close()


def test_a_fast_clock_asks_the_board_again_only_in_the_windows_last_tenth(tmp_path, block_set):
    """At a demo's speed 20, 10 ms of real time are 200 ms of the table's: asked that early,
    the answer would come from before the window even began, and a transient whose put-back
    frame was lost would pass (the fault bench found maze moves that never happened)."""
    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"))
    now = [0.0]
    service = TableService(devices, table, view_of, clock=lambda: now[0], rate=20.0)
    try:
        service.start_table()
        _until(lambda: devices.link.synced)
        service._step("snapshot", devices.link.snapshot())
        window = table.settler.window
        deadline = table.settler.deadline()
        assert service._ask_at() == pytest.approx(deadline - 0.1 * window)
        assert 0.1 * window < ASK_EARLY_S * 20.0  # the case this is about
    finally:
        devices.close()


def test_the_boards_own_figures_reach_readers_as_numbers_and_stand_for_late_ones(tmp_path,
                                                                                  block_set):
    """The link tells the service the board's figures (only when they move); the service
    tells them as an event of numbers, and a reader joining later starts with them."""
    from firmware.core import events
    from firmware.readers.terminal.screen import headline
    from hardware.link import BoardStatus

    devices = open_table(load_profile("sim"))
    told: list[dict] = []
    table = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"), emit=told.append)
    published: list[dict] = []
    stream = types.SimpleNamespace(publish=published.append, hold=lambda: None,
                                   release=lambda: None, follow=lambda table: None)
    service = TableService(devices, table, view_of, clock=lambda: 0.0, stream=stream)
    try:
        service.start_table()
        deadline = time.monotonic() + 5
        kind, status = None, None
        while kind != "status":
            assert time.monotonic() < deadline, "the link never told the board's figures"
            kind, status = service.events.get(timeout=5)
        service._step(kind, status)
        said = [e for e in published if e["event"] == "scanner"]
        assert said == [{"event": "scanner", "scan_us": status.scan_us,
                         "load_us": status.load_us}]
        events.check(said[0])
        assert said[0] in table.opening(0.0)
        assert not [e for e in told if e["event"] == "scanner"], "no game news for a demo"
        service._step("status", status)
        assert len([e for e in published if e["event"] == "scanner"]) == 1, \
            "the same is not retold"
        shown = events.make("scanner", scan_us=8412, load_us=None)
        assert headline(shown) == "the scanner board measured a scan every 8.4 ms, no load " \
            "cells read"
        assert BoardStatus(8412, 25000, 0).near(BoardStatus(8500, 25000, 0))
    finally:
        devices.close()


def test_the_terminal_asks_one_candidate_as_one_and_several_as_a_choice():
    from firmware.readers.terminal.screen import headline

    one = {"event": "offer", "kind": "choose", "players": ["A"], "pick": 0,
           "candidates": ["capstone b2 to c3 (pillar)"]}
    assert headline(one) == "player A: hold your button if it was capstone b2 to c3 (pillar)"
    two = {**one, "candidates": ["b2 to c3", "b2 to a3"]}
    assert headline(two) == ("player A, more than one move fits; which was it? (1) b2 to c3; "
                             "or (2) b2 to a3")
