"""A club under load: what the publisher and the club page do when many tables tell fast.

Against a real mosquitto (``tests/club_support.py``), as the other club tests.
"""

from __future__ import annotations

import json
import time

import pytest

from firmware.club.config import config_from
from firmware.club.publisher import STATE_EVERY_S, Publisher
from tests.club_support import Heard, Mosquitto, wait_for


@pytest.fixture
def broker(tmp_path):
    started = Mosquitto(tmp_path / "broker").start()
    yield started
    started.stop()


def _connected(broker: Mosquitto, state_dir, table: str = "t1") -> Publisher:
    publisher = Publisher(config_from({"broker": broker.url, "table": table}), state_dir)
    publisher.start()
    wait_for(lambda: publisher.connected, 30, "the publisher connecting")
    return publisher


def test_a_burst_of_events_sends_few_states_and_the_last_one(tmp_path, broker):
    heard = Heard(broker, "obelisk/t1/state,obelisk/t1/events")
    publisher = _connected(broker, tmp_path)
    try:
        wait_for(lambda: heard.on("obelisk/t1/state"), 30, "the first state")
        before = len(heard.on("obelisk/t1/state"))
        began = time.monotonic()
        for _ in range(40):  # a table telling fast: a turn, then the move accepted
            publisher.take({"event": "turn", "player": "A", "doing": "move"})
            publisher.take({"event": "accepted", "player": "A"})
        took = time.monotonic() - began
        wait_for(lambda: len(heard.events("t1")) == 80, 60, "every event")

        def last_actions() -> int:
            states = heard.on("obelisk/t1/state")
            return json.loads(states[-1])["actions"] if states else -1

        wait_for(lambda: last_actions() == 40, 30, "the state after the last event")
        sent = len(heard.on("obelisk/t1/state")) - before
        # one every STATE_EVERY_S at most while they came, and the last change after them
        assert sent <= took / STATE_EVERY_S + 2, (sent, took)
        assert sent < 80  # one a state each, as before
    finally:
        publisher.stop()
        heard.close()
