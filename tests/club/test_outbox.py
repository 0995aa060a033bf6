"""The publisher's outbox: in order across restarts, bounded, never dropping a result, no loss."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
from pathlib import Path

import pytest

from firmware.readers.club.config import ClubError, config_from
from firmware.readers.club.outbox import Outbox
from firmware.readers.club.publisher import Publisher
from tests.support.broker import Heard
from tests.support.club import ended, games_listed, run_demo, start_publisher
from tests.support.processes import until


def test_the_outbox_keeps_order_across_a_restart_and_forgets_only_what_is_done(tmp_path):
    box = Outbox(tmp_path)
    sent = [box.put(f"t/{i}", b"{}", durable=i == 1) for i in range(4)]
    box.done(sent[0])
    again = Outbox(tmp_path)
    assert [m.topic for m in again.after(0, 10)] == ["t/1", "t/2", "t/3"]
    assert [m.topic for m in again.after(sent[2].seq, 10)] == ["t/3"]
    assert again.put("t/4", b"{}").seq > sent[3].seq


def test_a_full_disk_keeps_the_message_in_memory_and_says_so(tmp_path, monkeypatch, caplog):
    import firmware.readers.club.outbox as outbox

    def full(path, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    box = Outbox(tmp_path)
    monkeypatch.setattr(outbox, "_write_quick", full)
    with caplog.at_level(logging.WARNING, "obelisk.mqtt"):
        kept = box.put("t/a", b"{}")
        box.put("t/b", b"{}")
    assert kept.path is None and [m.topic for m in box.after(0, 5)] == ["t/a", "t/b"]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "is full: free some space" in said[0], said


def test_the_outbox_drops_the_oldest_events_never_a_result_and_says_so_once(tmp_path, caplog):
    box = Outbox(tmp_path, limit_mb=0.001)  # 1000 bytes
    event = b"e" * 90  # with its topic, 98 bytes
    result = b"r" * 590
    with caplog.at_level(logging.WARNING, "obelisk.mqtt"):
        box.put("t/results/1", result, retain=True, durable=True)
        for i in range(8):
            box.put(f"t/event{i}", event)
        box.put("t/results/2", result, retain=True, durable=True)  # 1,500 bytes: events go
        box.put("t/event8", event)
    waiting = [m.topic for m in box.after(0, 100)]
    assert waiting == ["t/results/1", "t/results/2"], waiting  # over the limit, still kept
    assert box.take_dropped() == 9 and box.take_dropped() == 0
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "oldest events now go" in said[0] and "0.001 MB" in said[0]
    assert sorted(p.name for p in tmp_path.glob("*.json")) == [
        f"{m.seq:012d}.json" for m in box.after(0, 100)]


def test_the_outbox_keeps_the_newest_events_within_its_limit(tmp_path):
    box = Outbox(tmp_path, limit_mb=0.001)
    box.put("t/results/1", b"r" * 189, retain=True, durable=True)  # 200 bytes
    for i in range(20):
        box.put(f"t/e{i:02d}", b"e" * 95)  # 100 bytes each
    assert [m.topic for m in box.after(0, 100)] == ["t/results/1"] + [
        f"t/e{i:02d}" for i in range(12, 20)]  # 1,000 bytes in all
    assert box.take_dropped() == 12
    again = Outbox(tmp_path, limit_mb=0.0005)  # read back with a lower limit: results stay
    assert [m.topic for m in again.after(0, 100)] == ["t/results/1", "t/e17", "t/e18",
                                                      "t/e19"]
    assert again.take_dropped() == 5


@pytest.mark.processes
def test_a_long_outage_drops_only_old_events_and_the_log_says_how_many(tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker, client_id="club-screen", persistent=True)
    publisher = start_publisher(state, broker, "far", "outbox_limit_mb = 0.003")
    log = state / "publisher.log"
    try:
        until(lambda: heard.on("obelisk/far/status"), 30, "online")
        # the publisher's first event ("no table is running") is heard before the outage,
        # so the events numbered from 1 begin with one that came through
        until(lambda: heard.events("far"), 30, "the first event")
        broker.stop()
        until(lambda: "lost the broker" in log.read_text(), 30, "the publisher noticing")
        run_demo(state)  # 12 moves: far more than 3,000 bytes of events
        [game_id] = games_listed(state)
        until(lambda: "oldest events now go" in log.read_text(), 30, "dropping begun")
        broker.start()
        until(lambda: heard.result("far", game_id), 60, "the result")
        until(lambda: [e for e in heard.events("far") if e["event"] == "game_over"], 30,
                 "the last event")
        until(lambda: not list((state / "mqtt" / "outbox").glob("*.json")), 30,
                 "the outbox emptied")
    finally:
        assert ended(publisher) == 0
        heard.close()
    text = log.read_text()
    said = re.findall(r"the oldest (\d+) events? (?:was|were) dropped", text)
    assert len(said) == 1, text
    numbers = [e["n"] for e in heard.events("far")]
    missing = set(range(1, numbers[-1] + 1)) - set(numbers)
    assert len(missing) == int(said[0]) > 0
    # the oldest of those that waited went: one run of numbers, the newest ones came through
    assert missing == set(range(min(missing), max(missing) + 1)) and max(missing) < numbers[-1]
    assert numbers[0] == 1 and "game_over" in [e["event"] for e in heard.events("far")]
    assert "Traceback" not in text


def test_the_outbox_does_not_drop_what_the_client_already_holds(tmp_path):
    box = Outbox(tmp_path, limit_mb=0.0003)  # 300 bytes: three events
    first = [box.put(f"t/e{i}", b"e" * 96) for i in range(2)]  # 100 bytes each
    box.handed(first[-1].seq)  # these two went to the client before the broker left
    for i in range(2, 6):
        box.put(f"t/e{i}", b"e" * 96)
    assert [m.topic for m in box.after(0, 10)] == ["t/e0", "t/e1", "t/e5"]
    assert box.take_dropped() == 3


@pytest.mark.parametrize("limit", [0, -5, "20", True, float("nan"), 1e9])
def test_a_bad_outbox_limit_is_refused_by_key(limit):
    with pytest.raises(ClubError, match=r"outbox_limit_mb = .*: give the megabytes"):
        config_from({"broker": "mqtt://h", "table": "t", "outbox_limit_mb": limit}, "mqtt.toml")


def test_the_outbox_limit_reads_from_mqtt_toml():
    assert config_from({"broker": "mqtt://h", "table": "t"}).outbox_limit_mb == 20
    assert config_from({"broker": "mqtt://h", "table": "t",
                        "outbox_limit_mb": 0.5}).outbox_limit_mb == 0.5


def _offline_publisher(state: Path) -> Publisher:
    """A publisher that is never started: what it queues stays in its outbox."""
    return Publisher(config_from({"broker": "mqtt://127.0.0.1:1", "table": "t1"}), state)


def test_an_event_the_state_cannot_fold_is_still_published_and_said(tmp_path, caplog):
    publisher = _offline_publisher(tmp_path)
    with caplog.at_level(logging.WARNING, "obelisk.mqtt"):
        publisher.take({"event": "timer", "player": "A"})  # a table of another version
        publisher.take({"event": "game_over"})
    assert [json.loads(m.payload)["event"] for m in publisher.outbox.after(0, 10)] == [
        "timer", "game_over"]
    assert publisher._results_due.is_set()  # its result is still looked for
    said = [r.getMessage() for r in caplog.records]
    assert "the table's 'timer' event is not as this publisher knows it" in said[0], said


@pytest.mark.processes
def test_a_result_waiting_from_before_a_restart_is_not_queued_twice(tmp_path):
    state = tmp_path / "table"
    state.mkdir()
    run_demo(state)
    assert _offline_publisher(state).sync_results() == 1  # the broker is away: it waits
    again = _offline_publisher(state)
    assert again.sync_results() == 0
    assert [m.topic.split("/")[2] for m in again.outbox.after(0, 100)].count("results") == 1


def test_an_outbox_that_cannot_delete_what_was_sent_says_so_and_goes_on(tmp_path, caplog,
                                                                       monkeypatch):
    box = Outbox(tmp_path)
    sent = [box.put(f"t/{i}", b"{}") for i in range(2)]

    def read_only(self, missing_ok=False):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(Path, "unlink", read_only)
    with caplog.at_level(logging.WARNING, "obelisk.mqtt"):
        for message in sent:
            box.done(message)  # the send thread must not die of it
    assert len(box) == 0
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "read-only file system" in said[0] and "sent again" in said[0]


def test_a_write_cut_short_leaves_no_message_and_is_cleared(tmp_path):
    box = Outbox(tmp_path)
    box.put("t/whole", b"{}")
    (tmp_path / ".000000000002.json.tmp").write_bytes(b'{"topic": "t/ha')  # killed mid-write
    again = Outbox(tmp_path)
    assert [m.topic for m in again.after(0, 10)] == ["t/whole"]
    assert not list(tmp_path.glob(".*.tmp"))
