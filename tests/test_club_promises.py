"""The club publishing's promises its first tests left open (issue 19, second part).

mqtts with the club's own certificate authority, Home Assistant discovery,
the outbox's limit through a long outage, the club page behind a password,
and the paths where a traceback or a result could slip out. Every broker is
a real mosquitto (``tests/club_support.py``); certificates are made in the
test with the ``openssl`` command.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest

from firmware.readers.club.config import ClubError, config_from
from firmware.readers.club.outbox import Outbox
from firmware.readers.club.publisher import Publisher
from tests.club_support import Heard, Mosquitto, free_port, make_ca, make_certs, wait_for
from tests.test_club import OBELISK, _demo, _games, _publisher, _stop


@pytest.fixture
def broker(tmp_path):
    started = Mosquitto(tmp_path / "broker").start()
    yield started
    started.stop()


@pytest.fixture
def tls_broker(tmp_path):
    started = Mosquitto(tmp_path / "broker", tls=make_certs(tmp_path / "certs")).start()
    yield started
    started.stop()


# ---------------------------------------------------------------------- mqtts


def test_a_table_publishes_over_mqtts_trusting_the_clubs_own_ca(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(tls_broker)
    publisher = _publisher(state, tls_broker, "secure", ca_file=str(tls_broker.tls.ca))
    try:
        wait_for(lambda: "online" in heard.on("obelisk/secure/status"), 30, "online over TLS")
        _demo(state)
        [game_id] = _games(state)
        wait_for(lambda: heard.result("secure", game_id), 30, "the result")
    finally:
        assert _stop(publisher) == 0
        heard.close()
    assert heard.on("obelisk/secure/status")[-1] == "offline"
    assert "Traceback" not in (state / "publisher.log").read_text()


def test_a_wrong_ca_is_named_with_the_fix_and_the_table_plays_on(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    stranger, _ = make_ca(tmp_path / "other-ca", "Another CA")
    publisher = _publisher(state, tls_broker, "doubt", ca_file=str(stranger))
    log = state / "publisher.log"
    try:
        wait_for(lambda: "vouched for" in log.read_text(), 30, "the CA trouble in the log")
        demo = _demo(state)  # the table does not wait for its publisher
        assert demo.lines[-1]["event"] == "game_over"
        assert publisher.poll() is None  # still there, trying again
    finally:
        _stop(publisher)
    text = log.read_text()
    line = next(line for line in text.splitlines() if "vouched for" in line)
    assert f"not vouched for by '{stranger}'" in line
    assert f"set ca_file in {state / 'mqtt.toml'}" in line
    assert "the table plays on" in line
    assert text.count("vouched for") == 1  # said once, not at every retry
    assert "Traceback" not in text


def test_a_ca_file_that_is_no_certificate_is_refused_at_start(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    wrong = tmp_path / "notes.txt"
    wrong.write_text("the club's wifi password is on the fridge\n")
    (state / "mqtt.toml").write_text(f'broker = "{tls_broker.url}"\ntable = "t1"\n'
                                     f'ca_file = "{wrong}"\n')
    run = subprocess.run([OBELISK, "mqtt", "--state-dir", str(state)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert f"ca_file = '{wrong}' holds no certificate" in run.stderr
    assert "Traceback" not in run.stderr


def _start(state: Path, broker: Mosquitto, table: str, *lines: str) -> subprocess.Popen:
    """``obelisk mqtt`` on ``state`` with extra mqtt.toml lines written as they are."""
    conf = [f'broker = "{broker.url}"', f'table = "{table}"', *lines]
    (state / "mqtt.toml").write_text("\n".join(conf) + "\n")
    with open(state / "publisher.log", "w") as log:
        return subprocess.Popen([OBELISK, "mqtt", "--state-dir", str(state)], stderr=log,
                                stdout=log)


# ---------------------------------------------------------------------- Home Assistant


@pytest.mark.parametrize("home_assistant", [True, False])
def test_home_assistant_discovery_is_retained_and_only_when_asked(tmp_path, broker,
                                                                   home_assistant):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker, "homeassistant/#,obelisk/#")
    publisher = _start(state, broker, "ha", f"home_assistant = {str(home_assistant).lower()}")
    try:
        # the state is published after discovery on the same connection, so it is heard after
        wait_for(lambda: heard.on("obelisk/ha/state"), 30, "the table's state")
    finally:
        assert _stop(publisher) == 0
        heard.close()
    discovery = heard.matching("homeassistant/")
    if not home_assistant:
        assert discovery == []
        return
    assert sorted(t for t, _ in discovery) == [
        "homeassistant/binary_sensor/obelisk_ha/status/config",
        "homeassistant/sensor/obelisk_ha/game/config"]
    late = Heard(broker, "homeassistant/#", client_id="home-assistant")  # retained for it
    try:
        wait_for(lambda: len(late.messages) == 2, 20, "the retained discovery configs")
        assert all(retained for _, _, retained in late.messages)
        configs = {t.split("/")[1]: json.loads(p) for t, p, _ in late.messages}
    finally:
        late.close()
    status, game = configs["binary_sensor"], configs["sensor"]
    assert (status["state_topic"], status["payload_on"], status["payload_off"]) == (
        "obelisk/ha/status", "online", "offline")
    assert game["state_topic"] == game["json_attributes_topic"] == "obelisk/ha/state"
    assert game["availability_topic"] == "obelisk/ha/status"
    assert status["unique_id"] != game["unique_id"]
    assert status["device"] == game["device"] and status["device"]["identifiers"] == [
        "obelisk_ha"]


# ---------------------------------------------------------------------- the club page's user


def test_the_club_page_reads_a_broker_that_asks_for_a_password(tmp_path):
    broker = Mosquitto(tmp_path / "broker", users={"north": "table-pw", "club": "page-pw"})
    broker.start()
    state = tmp_path / "table"
    state.mkdir()
    (tmp_path / "table-secret").write_text("table-pw\n")
    (tmp_path / "club-secret").write_text("page-pw\n")
    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address", "127.0.0.1",
                             "--port", str(port), "--user", "club", "--password-file",
                             str(tmp_path / "club-secret")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    publisher = _start(state, broker, "north", 'user = "north"',
                       f'password_file = "{tmp_path / "table-secret"}"')
    try:
        assert club.stdout.readline().startswith("obelisk club: open http://127.0.0.1:")
        _demo(state)
        [game_id] = _games(state)

        def listed():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/results", timeout=10) as got:
                return json.loads(got.read())["results"]

        [result] = wait_for(listed, 30, "the result on the club's page")
        assert (result["table"], result["table_game_id"]) == ("north", game_id)
    finally:
        _stop(publisher)
        _stop(club)
        broker.stop()
    assert "refused" not in club.stderr.read()


@pytest.mark.parametrize(("secret", "words"), [
    (None, "cannot be read (No such file or directory): give the file holding the password"),
    ("dir", "is not read (it is a directory, not a regular file)"),
    (b"\xff\xfe\x00", "is not text"),
    (b"\n", "is empty: give the file holding the password"),
])
def test_a_bad_club_password_file_is_said_in_words(tmp_path, secret, words):
    where = tmp_path / "secret"
    if secret == "dir":
        where.mkdir()
    elif secret is not None:
        where.write_bytes(secret)
    run = subprocess.run([OBELISK, "club", "--broker", "mqtt://127.0.0.1:1", "--user", "club",
                          "--password-file", str(where), "--port", "0"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert f"obelisk: --password-file {where} " in run.stderr and words in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_table_password_file_that_is_not_text_is_refused_by_key(tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ClubError, match=r"password_file = .* is not text"):
        config_from({"broker": "mqtt://h", "table": "t", "user": "u",
                     "password_file": str(secret)}, "mqtt.toml")


# ---------------------------------------------------------------------- the outbox's limit


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


def test_a_long_outage_drops_only_old_events_and_the_log_says_how_many(tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker, client_id="club-screen", persistent=True)
    publisher = _start(state, broker, "far", "outbox_limit_mb = 0.003")
    log = state / "publisher.log"
    try:
        wait_for(lambda: heard.on("obelisk/far/status"), 30, "online")
        # the publisher's first event ("no table is running") is heard before the outage,
        # so the events numbered from 1 begin with one that came through
        wait_for(lambda: heard.events("far"), 30, "the first event")
        broker.stop()
        wait_for(lambda: "lost the broker" in log.read_text(), 30, "the publisher noticing")
        _demo(state)  # 12 moves: far more than 3,000 bytes of events
        [game_id] = _games(state)
        wait_for(lambda: "oldest events now go" in log.read_text(), 30, "dropping begun")
        broker.start()
        wait_for(lambda: heard.result("far", game_id), 60, "the result")
        wait_for(lambda: [e for e in heard.events("far") if e["event"] == "game_over"], 30,
                 "the last event")
        wait_for(lambda: not list((state / "mqtt" / "outbox").glob("*.json")), 30,
                 "the outbox emptied")
    finally:
        assert _stop(publisher) == 0
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


# ---------------------------------------------------------------------- no traceback, no loss


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


def test_a_result_waiting_from_before_a_restart_is_not_queued_twice(tmp_path):
    state = tmp_path / "table"
    state.mkdir()
    _demo(state)
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


def test_the_club_page_reads_an_mqtts_broker_with_the_clubs_ca(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    port = free_port()
    ca = str(tls_broker.tls.ca)
    club = subprocess.Popen([OBELISK, "club", "--broker", tls_broker.url, "--address",
                             "127.0.0.1", "--port", str(port), "--ca-file", ca],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    publisher = _publisher(state, tls_broker, "south", ca_file=ca)
    try:
        assert club.stdout.readline().startswith("obelisk club: open http://127.0.0.1:")
        _demo(state)
        [game_id] = _games(state)

        def listed():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/results", timeout=10) as got:
                return json.loads(got.read())["results"]

        [result] = wait_for(listed, 30, "the result on the club's page")
        assert (result["table"], result["table_game_id"]) == ("south", game_id)
    finally:
        _stop(publisher)
        _stop(club)
    assert "Traceback" not in club.stderr.read()


def test_the_club_page_names_a_wrong_ca(tmp_path, tls_broker):
    stranger, _ = make_ca(tmp_path / "other-ca", "Another CA")
    club = subprocess.Popen([OBELISK, "club", "--broker", tls_broker.url, "--address",
                             "127.0.0.1", "--port", "0", "--ca-file", str(stranger)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = club.stderr.readline()
    finally:
        _stop(club)
    assert f"not vouched for by '{stranger}'" in line and "set --ca-file to" in line, line


def test_a_club_ca_file_for_a_plain_broker_is_refused():
    run = subprocess.run([OBELISK, "club", "--broker", "mqtt://127.0.0.1:1", "--ca-file",
                          "/etc/hostname", "--port", "0"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2 and "--ca-file is for mqtts:// brokers" in run.stderr
