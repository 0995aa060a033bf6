"""The LED frame first, then the readers: a move's events wait until its LEDs show it.

The journal line is on disk before the LEDs confirm (the table writes it as
it decides); the event stream's readers (pages, ``obelisk watch``) are told
after the LED frame, so that encoding and waking them never delays it.
"""

from __future__ import annotations

import gc

import pytest

from engine.towers.game import TowersGame
from firmware.service.loop import TableService
from firmware.service.stream import serve_table
from firmware.store.journal import Journal
from firmware.towers.table import TowersTable
from firmware.towers.view import view_of
from hardware.buttons import ButtonEvent
from hardware.devices import open_table
from hardware.profile import load_profile


class Reader:
    """Stands for a connected reader: notes each line it is given, in the shared order."""

    def __init__(self, order: list) -> None:
        self.order = order

    def put(self, line: bytes) -> bool:
        self.order.append(("event", line))
        return True


@pytest.fixture
def table_service(tmp_path, block_set):
    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path))
    stream = serve_table(table, tmp_path)
    service = TableService(devices, table, view_of)
    service.stream = stream
    service.start_table()
    yield service, stream, devices
    stream._readers.clear()  # the stand-in readers have no socket to close
    stream.close()
    devices.close()


def test_the_readers_hear_of_a_press_after_its_led_frame(table_service):
    service, stream, devices = table_service
    order: list = []
    stream._readers.append(Reader(order))
    show = devices.leds.show

    def noted_show() -> None:
        show()
        order.append(("show", None))

    devices.leds.show = noted_show
    service._step("button", ButtonEvent("menu", "press"))  # in setup: the next options
    kinds = [kind for kind, _ in order]
    assert "show" in kinds and "event" in kinds, order
    assert kinds.index("show") < kinds.index("event"), kinds
    assert stream._held is None  # nothing left held after the wake-up
    order.clear()
    service._step("button", ButtonEvent("menu", "press"))
    assert next(kind for kind, _ in order) == "show"


def test_events_told_outside_a_wake_up_go_at_once(table_service):
    service, stream, _ = table_service
    order: list = []
    stream._readers.append(Reader(order))
    service.table.tell("notice", message="hello")
    assert [kind for kind, _ in order] == ["event"]


def test_young_garbage_is_collected_after_the_led_frame_not_during_the_move(table_service):
    service, _, devices = table_service
    order: list = []
    show = devices.leds.show

    def noted_show() -> None:
        show()
        order.append("show")

    def noted_collection(phase: str, info: dict) -> None:
        if phase == "start":
            order.append(f"collect {info['generation']}")

    devices.leds.show = noted_show
    before = gc.get_threshold()
    gc.set_threshold(100_000, before[1], before[2])  # nothing collects by itself here
    gc.callbacks.append(noted_collection)
    try:
        young = [[] for _ in range(60_000)]  # over half the young generation's threshold
        service._step("button", ButtonEvent("menu", "press"))
        del young
    finally:
        gc.callbacks.remove(noted_collection)
        gc.set_threshold(*before)
    assert order[0] == "show" and order[1].startswith("collect"), order
    assert gc.get_count()[0] < 1000


def test_a_reader_that_came_before_the_table_started_hears_what_to_set_out(tmp_path,
                                                                            block_set):
    """The service opens its stream before it starts the table (so `obelisk play`'s page
    may follow it at once): a reader that came in between was told a state with nothing
    to do, and, the first reading asking for what start() already said, never heard it.
    Once started, the table tells its readers its whole state again."""
    from firmware.service.stream import read_events

    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path))
    stream = serve_table(table, tmp_path)
    try:
        reader = read_events(tmp_path, timeout=10)
        first = next(reader)
        assert first["event"] == "table" and first["state"] == "setup"
        TableService(devices, table, view_of, stream=stream).start_table()
        told = next(reader)
        assert told["event"] == "table" and told["problem"] == table.SETUP, told
    finally:
        stream.close()
        devices.close()
