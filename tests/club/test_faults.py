"""The club's faults, each a class (issue 30): nothing lost, and no way in.

A bad file in the outbox is set aside and the rest delivered; a publisher
thread that dies takes the process down, and one that hangs stops the
systemd watchdog; every broker address is checked, every file bounded
before it is read, every game published under an id no other game shares;
and words from the wire reach a person cleaned. Brokers are real mosquittos
(``tests/support/broker.py``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest

from firmware.readers.club.config import (
    ClubError,
    config_from,
    find_config,
    load_config,
    parse_broker,
)
from firmware.readers.club.publisher import Publisher
from tests.support import ROOT
from tests.support.broker import Heard
from tests.support.club import (
    BAD_ENTRIES,
    ended,
    entry,
    games_listed,
    patched_publisher,
    run_demo,
    started_publisher,
)
from tests.support.processes import OBELISK, free_port, until


@pytest.mark.processes
@pytest.mark.parametrize("kind", BAD_ENTRIES)
def test_a_bad_outbox_file_is_set_aside_with_its_reason_and_the_rest_is_delivered(
        tmp_path, broker, caplog, kind):
    box = tmp_path / "mqtt" / "outbox"
    box.mkdir(parents=True)
    BAD_ENTRIES[kind](box / "000000000001.json")
    (box / "000000000002.json").write_bytes(entry("obelisk/t1/events", '{"n": 2}'))
    heard = Heard(broker)
    with caplog.at_level(logging.WARNING, "obelisk.mqtt"):
        publisher = started_publisher(tmp_path, broker)
        try:
            until(lambda: heard.on("obelisk/t1/events") == ['{"n": 2}'], 30,
                     "the good message delivered")
            publisher.take({"event": "turn", "player": "A", "doing": "move"})
            until(lambda: len(heard.on("obelisk/t1/events")) == 2, 30, "one more event")
            assert all(thread.is_alive() for thread in publisher._threads)
        finally:
            publisher.stop()
            heard.close()
    rejected = tmp_path / "mqtt" / "rejected"
    assert [p.name for p in rejected.iterdir()] == ["000000000001.json"]
    assert not (box / "000000000001.json").exists() and not (box / "000000000001.json"
                                                            ).is_symlink()
    said = [r.getMessage() for r in caplog.records if "000000000001.json" in r.getMessage()]
    assert len(said) == 1 and "set aside" in said[0] and str(rejected) in said[0], said


@pytest.mark.processes
@pytest.mark.parametrize("topic", ["obelisk/t1/results/a+b", "obelisk/t1/\x00",
                                   "obelisk/" + "y" * 66_000])
def test_a_message_mqtt_cannot_carry_is_set_aside_and_the_next_goes_out(tmp_path, broker,
                                                                        topic):
    heard = Heard(broker)
    publisher = started_publisher(tmp_path, broker)
    try:
        until(lambda: publisher.connected, 30, "the publisher connecting")
        publisher.outbox.put(topic, b"{}", retain=True, durable=True)
        publisher.outbox.put("obelisk/t1/events", b'{"n": 1}')
        publisher._wake.set()
        until(lambda: heard.on("obelisk/t1/events") == ['{"n": 1}'], 30, "the next message")
        assert all(thread.is_alive() for thread in publisher._threads)
    finally:
        publisher.stop()
        heard.close()
    [kept] = (tmp_path / "mqtt" / "rejected").iterdir()
    assert json.loads(kept.read_text())["topic"] == topic
    assert len(publisher.outbox) == 0


# ---------------------------------------------------------------------- a dying thread


@pytest.mark.processes
def test_a_publisher_thread_that_dies_takes_the_process_down_in_one_line(tmp_path, broker):
    patch = ("def boom(self):\n    raise RuntimeError('injected')\n"
             "p.Publisher._results_loop = boom\n")
    run = subprocess.run(patched_publisher(tmp_path, broker.url, patch), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode not in (0, 2)  # systemd restarts it (2: a person must act)
    assert "Traceback" not in run.stderr
    [line] = [x for x in run.stderr.splitlines() if "mqtt-results" in x]
    assert "RuntimeError: injected" in line and "systemd" in line, run.stderr


def _notify_socket(tmp_path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(20)
    return sock


@pytest.mark.processes
def test_the_watchdog_is_patted_only_while_every_thread_works(tmp_path, broker):
    """The send thread hangs once ``hang`` exists: the pats stop, and the log says why."""
    hang = tmp_path / "hang"
    patch = ("import os, threading\np.STALE_S = 1.0\nafter = p.Outbox.after\n"
             "def stuck(self, seq, count):\n"
             f"    if os.path.exists({str(hang)!r}):\n"
             "        threading.Event().wait()\n"
             "    return after(self, seq, count)\n"
             "p.Outbox.after = stuck\n")
    sock = _notify_socket(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    log = open(tmp_path / "log", "w")  # noqa: SIM115 (closed below)
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "400000"}
    proc = subprocess.Popen(patched_publisher(state, broker.url, patch), env=env, stdout=log,
                            stderr=log)
    log.close()
    try:
        assert [sock.recv(100).decode() for _ in range(3)] == [
            "READY=1", "WATCHDOG=1", "WATCHDOG=1"]
        hang.touch()
        until(lambda: "mqtt-send" in (tmp_path / "log").read_text(), 20,
                 "the log naming the stuck thread")
        sock.settimeout(0.1)
        while True:  # what was sent before it was seen
            try:
                sock.recv(100)
            except TimeoutError:
                break
        sock.settimeout(1.0)  # five watchdog periods
        with pytest.raises(TimeoutError):
            sock.recv(100)
    finally:
        ended(proc)
        sock.close()
    line = next(x for x in (tmp_path / "log").read_text().splitlines() if "mqtt-send" in x)
    assert "watchdog" in line, line


def test_the_publishers_unit_is_a_watched_notify_service():
    unit = (ROOT / "systemd" / "obelisk-mqtt.service").read_text()
    for line in ("Type=notify", "NotifyAccess=main", "WatchdogSec=", "Restart=on-failure",
                 "RestartPreventExitStatus=2"):
        assert line in unit, line


# ---------------------------------------------------------------------- addresses


@pytest.mark.parametrize(("url", "words"), [
    ("mqtt://[::1", "not closed"),
    ("mqtt://[::1]x:1883", "after the ]"),
    ("mqtt://[zz]:1883", "not an IPv6 address"),
    ("mqtt://::1:1883", "in brackets"),
    ("mqtt://h:0", "port must be a number from 1 to 65535"),
    ("mqtt://h:", "port must be a number from 1 to 65535"),
    ("mqtt://h:٣", "port must be a number from 1 to 65535"),
    ("mqtt://a b", "not a host name"),
    ("mqtt://h\x00st", "not a host name"),
    ("mqtt://-h", "not a host name"),
    ("mqtt://" + "a" * 64 + ".lan", "not a host name"),
    ("mqtt://h?x=1", "only the host and port"),
])
def test_a_bad_broker_address_is_refused_in_words(url, words):
    with pytest.raises(ClubError, match=re.escape(words)):
        parse_broker(url, "--broker")


@pytest.mark.parametrize(("url", "host", "port", "shown"), [
    ("mqtt://[::1]:1884", "::1", 1884, "mqtt://[::1]:1884"),
    ("mqtts://[fd00::20]", "fd00::20", 8883, "mqtts://[fd00::20]:8883"),
    ("mqtt://Broker.Club.lan:65535/", "broker.club.lan", 65535, "mqtt://broker.club.lan:65535"),
    ("mqtt://192.168.1.20", "192.168.1.20", 1883, "mqtt://192.168.1.20:1883"),
])
def test_a_good_broker_address_reads_whole(url, host, port, shown):
    broker = parse_broker(url)
    assert (broker.host, broker.port, str(broker)) == (host, port, shown)


@pytest.mark.processes
@pytest.mark.parametrize("args", [
    ["--broker", "mqtt://[::1"], ["--broker", "mqtt://[::1]x:1883"],
    ["--broker", "mqtt://h:0"], ["--broker", "mqtt://h", "--address", "::1]"],
    ["--broker", "mqtt://h", "--address", "a;b\r"], ["--broker", "mqtt://h", "--port", "x"],
])
def test_obelisk_club_answers_a_bad_address_in_one_line(args):
    run = subprocess.run([OBELISK, "club", *args, "--port", "0", "--address", "127.0.0.1"]
                         if "--address" not in args and "--port" not in args else
                         [OBELISK, "club", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    [line] = run.stderr.splitlines()
    assert line.startswith("obelisk: "), line


# ---------------------------------------------------------------------- files read


def test_a_configuration_too_big_or_no_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "mqtt.toml"
    big.write_text('broker = "mqtt://h"\ntable = "t"\n' + "# padding\n" * 200_000)
    with pytest.raises(ClubError, match="larger than such a file can be"):
        load_config(big)
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    with pytest.raises(ClubError, match="named pipe"):
        load_config(pipe)
    own = tmp_path / "own"
    (own / "mqtt.toml").mkdir(parents=True)  # the table's own, no file: said, not "none"
    with pytest.raises(ClubError, match="is a directory"):
        load_config(find_config(own, None))


@pytest.mark.processes
@pytest.mark.parametrize("key", ["password_file", "ca_file"])
def test_a_secret_that_is_a_pipe_is_refused_not_waited_for(tmp_path, key):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    (tmp_path / "mqtt.toml").write_text(f'broker = "mqtts://h"\ntable = "t"\nuser = "u"\n'
                                        f'{key} = "{pipe}"\n')
    run = subprocess.run([OBELISK, "mqtt", "--state-dir", str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "named pipe" in run.stderr, run.stderr


@pytest.mark.processes
def test_a_club_password_file_that_is_a_pipe_is_refused(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    run = subprocess.run([OBELISK, "club", "--broker", "mqtt://127.0.0.1:1", "--user", "u",
                          "--password-file", str(pipe), "--port", "0"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "named pipe" in run.stderr, run.stderr


# ---------------------------------------------------------------------- game ids


GLOBAL_ID = re.compile(r"t\d-[0-9a-f]{32}")


@pytest.mark.processes
def test_every_game_is_published_under_an_id_no_other_game_shares(tmp_path, broker):
    """The same game on two tables, and twice on one (a journal copied to an archive):
    each is published, each under its own id, and a restart publishes none again."""
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    run_demo(first)
    second.mkdir()
    shutil.copy(first / "journal.jsonl", second / "journal.jsonl")
    shutil.copy(first / "journal.jsonl", second / "journal-2020-01-01.jsonl")
    [local] = games_listed(first)
    assert games_listed(second) == [local, local]  # the table's own ids: a hash of the game
    heard = Heard(broker)
    publishers = [Publisher(config_from({"broker": broker.url, "table": name}), state)
                  for name, state in (("t1", first), ("t2", second))]
    try:
        for publisher in publishers:
            publisher.start()
        until(lambda: len(heard.matching("obelisk/t1/results/")) == 1
                 and len(heard.matching("obelisk/t2/results/")) == 2, 30, "three results")
    finally:
        for publisher in publishers:
            publisher.stop()
    topics = [t for t, _ in heard.matching("obelisk/")]
    ids = [t.rsplit("/", 1)[1] for t in topics if "/results/" in t]
    assert len(set(ids)) == 3 and all(GLOBAL_ID.fullmatch(i) for i in ids), ids
    for topic, payload in heard.matching("obelisk/t2/results/"):
        data = json.loads(payload)
        assert data["id"] == topic.rsplit("/", 1)[1] and data["table_game_id"] == local
    again = Publisher(config_from({"broker": broker.url, "table": "t2"}), second)
    assert again.sync_results() == 0
    heard.close()


def test_the_club_page_reads_old_and_new_game_ids(tmp_path):
    from firmware.readers.club.viewer import Club

    club = Club()
    club.take("obelisk/t1/results/abcd1234", json.dumps({"game": "stones"}).encode())
    new = "t1-" + "0123456789abcdef" * 2
    club.take(f"obelisk/t1/results/{new}", json.dumps({"game": "towers"}).encode())
    club.take("obelisk/t1/results/t1-xyz", json.dumps({"game": "maze"}).encode())
    assert sorted(r["id"] for r in club.listing()) == ["abcd1234", new]


# ---------------------------------------------------------------------- words from the wire


@pytest.mark.processes
def test_a_result_with_control_characters_reaches_the_page_cleaned(tmp_path, broker):
    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                             "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    heard = Heard(broker)
    try:
        assert club.stdout.readline().startswith("obelisk club: open")
        result = {"table": "t1", "id": "abcd1234", "game": "sto\r\nSet-Cookie: x=1\rnes",
                  "when": "2026\x1b[31m", "outcome": {"words": "A wins\r\n\u202eevil"},
                  "record": {}, "text": "1. a\n"}
        heard.client.publish("obelisk/t1/results/abcd1234", json.dumps(result), qos=1,
                             retain=True).wait_for_publish(30)
        heard.client.publish("obelisk/t1/status", "online\r\nforged line", qos=1,
                             retain=True).wait_for_publish(30)
        url = f"http://127.0.0.1:{port}"

        def listed():
            return json.loads(urllib.request.urlopen(url + "/results", timeout=10).read())[
                "results"]

        [shown] = until(listed, 30, "the result on the page")
        for key in ("game", "when", "result"):
            assert not re.search("[\x00-\x1f\x7f\u202e]", shown[key]), shown
        with urllib.request.urlopen(url + shown["text"], timeout=10) as got:
            assert got.status == 200 and got.read() == b"1. a\n"
            disposition = got.headers["Content-Disposition"]
        assert re.fullmatch(r'attachment; filename="[A-Za-z0-9._-]+"', disposition), disposition
    finally:
        heard.close()
        ended(club)
    assert "Traceback" not in club.stderr.read()


def test_the_club_page_cleans_a_tables_status_and_events():
    from firmware.readers.club.viewer import Club

    club = Club()
    page = club.join()
    club.take("obelisk/t1/status", b"online\r\nx")
    club.take("obelisk/t1/events", json.dumps({"event": "turn", "words": "a\rb\x1b[2J",
                                               "session": "s", "n": 1}).encode())
    assert club.tables["t1"]["status"] == "unknown"
    sent = "".join(page.queue)
    assert '"words": "a b [2J"' in sent and "\\r" not in sent and "\\u001b" not in sent, sent


def test_log_lines_from_the_club_are_one_line_each():
    from firmware.readers.club.safe import CleanFormatter

    record = logging.LogRecord("obelisk.club", logging.WARNING, __file__, 1,
                               "refused (%s)", ("bad\r\nforged: line\x1b[2J",), None)
    line = CleanFormatter("obelisk club: %(message)s").format(record)
    assert line == "obelisk club: refused (bad  forged: line [2J)"


def test_a_game_set_aside_before_its_end_is_no_result_to_publish(tmp_path):
    from engine.stones.game import StonesGame
    from engine.stones.record import action_to_dict
    from firmware.store.history import finished_games
    from firmware.store.journal import Journal

    journal = Journal(tmp_path)
    move = StonesGame().new_initial_state().legal_actions()[0]
    for end in ({"t": "over", "result": {"words": "stopped by hand", "winner": None}}, None):
        journal.append({"t": "start", "game": "stones", "options": {}, "seed": 0})
        journal.append({"t": "action", "n": 1, "action": action_to_dict(move)})
        if end is not None:
            journal.append(end)
    journal.set_aside("end")  # as the page's End the game
    assert [g.over for g in finished_games(tmp_path)[0]] == [True, False]  # both listed
    publisher = Publisher(config_from({"broker": "mqtt://127.0.0.1:1", "table": "t1"}),
                          tmp_path)
    assert publisher.sync_results() == 1  # only the one played out has a result
