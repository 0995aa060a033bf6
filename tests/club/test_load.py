"""A club under load: what the publisher and the club page do when many tables tell fast.

Against a real mosquitto (``tests/support/broker.py``), as the other club tests.
"""

from __future__ import annotations

import contextlib
import json
import time

import pytest

from firmware.readers.club.config import config_from
from firmware.readers.club.publisher import STATE_EVERY_S, Publisher
from tests.support.broker import Heard, Mosquitto
from tests.support.processes import until

pytestmark = pytest.mark.processes


def _connected(broker: Mosquitto, state_dir, table: str = "t1") -> Publisher:
    publisher = Publisher(config_from({"broker": broker.url, "table": table}), state_dir)
    publisher.start()
    until(lambda: publisher.connected, 30, "the publisher connecting")
    return publisher


def test_a_burst_of_events_sends_few_states_and_the_last_one(tmp_path, broker):
    heard = Heard(broker, "obelisk/t1/state,obelisk/t1/events")
    publisher = _connected(broker, tmp_path)
    try:
        until(lambda: heard.on("obelisk/t1/state"), 30, "the first state")
        before = len(heard.on("obelisk/t1/state"))
        began = time.monotonic()
        for _ in range(40):  # a table telling fast: a turn, then the move accepted
            publisher.take({"event": "turn", "player": "A", "doing": "move"})
            publisher.take({"event": "accepted", "player": "A"})
        took = time.monotonic() - began
        until(lambda: len(heard.events("t1")) == 80, 60, "every event")

        def last_actions() -> int:
            states = heard.on("obelisk/t1/state")
            return json.loads(states[-1])["actions"] if states else -1

        until(lambda: last_actions() == 40, 30, "the state after the last event")
        sent = len(heard.on("obelisk/t1/state")) - before
        # one every STATE_EVERY_S at most while they came, and the last change after them
        assert sent <= took / STATE_EVERY_S + 2, (sent, took)
        assert sent < 80  # one a state each, as before
    finally:
        publisher.stop()
        heard.close()


def test_the_page_asks_again_for_results_the_broker_dropped_while_it_lagged(
        tmp_path, monkeypatch):
    """A broker queues only so many messages for a subscriber that falls behind (mosquitto:
    max_queued_messages, 1000 by default) and drops the rest: a result among them would
    never reach the club's page. Here the broker keeps 1 in flight and 2 queued."""
    import asyncio
    import threading

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

    from firmware.readers.club import viewer
    from firmware.readers.club.config import parse_broker

    monkeypatch.setattr(viewer, "RESYNC_S", (0.2, 5.0))
    small = Mosquitto(tmp_path / "small", extra=("max_inflight_messages 1",
                                                 "max_queued_messages 2")).start()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    club = viewer.Club()
    page = viewer.subscribe(club, parse_broker(small.url), loop)
    table = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv311)
    try:
        held, release = threading.Event(), threading.Event()
        hand_on = page.on_message

        def lagging(client, userdata, msg) -> None:  # the page's machine, busy elsewhere
            if msg.topic.endswith("/events") and not held.is_set():
                held.set()
                release.wait(60)
            hand_on(client, userdata, msg)

        page.on_message = lagging
        until(lambda: page.is_connected(), 30, "the page connecting")
        table.connect("127.0.0.1", small.port)
        table.loop_start()

        def event(n: int) -> None:
            body = {"event": "turn", "session": "s1", "n": n, "at": time.time()}
            table.publish("obelisk/t1/events", json.dumps(body), qos=1).wait_for_publish(30)

        table.publish("obelisk/t1/status", "online", qos=1, retain=True).wait_for_publish(30)
        until(lambda: "t1" in club.tables, 30, "the page subscribed")
        event(1)
        until(held.is_set, 30, "the page holding its first message")
        for n in range(2, 20):
            event(n)
        result = {"table": "t1", "id": "abcd1234", "game": "stones", "outcome": {}}
        table.publish("obelisk/t1/results/abcd1234", json.dumps(result), qos=1,
                      retain=True).wait_for_publish(30)
        release.set()  # the page catches up: what the broker dropped meanwhile is gone
        for n in range(30, 60):  # the next event shows the gap, once the queue has room
            event(n)
            with contextlib.suppress(AssertionError):
                until(lambda: club.gaps > 0, 1, "the page seeing the gap")
                break
        assert club.gaps > 0
        until(lambda: ("t1", "abcd1234") in club.results, 30, "the result asked again")
    finally:
        release.set()
        table.loop_stop()
        page.loop_stop()
        loop.call_soon_threadsafe(loop.stop)
        small.stop()
