"""A club's tables over MQTT: ``obelisk mqtt`` and ``obelisk club`` against a real mosquitto.

Each test starts its own broker (``tests/support/broker.py``) on a free port
with a configuration in a temporary directory; mosquitto missing is a
failure that names setup.sh, never a skip. The tables are fast stones demos
(12 moves at ``--speed 100``) unless a test needs a longer game.
"""

from __future__ import annotations

import json
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest

from firmware.readers.club.config import ClubError, config_from, find_config, load_config
from tests.support.broker import Heard, Mosquitto
from tests.support.club import ended, games_listed, run_demo, start_publisher
from tests.support.processes import OBELISK, free_port, until

# ---------------------------------------------------------------------- configuration


@pytest.mark.parametrize(("data", "words"), [
    ({"broker": "http://x", "table": "t"}, "starts with mqtt:// or mqtts://"),
    ({"broker": "mqtt://:1883", "table": "t"}, "host is missing"),
    ({"broker": "mqtt://h:99999", "table": "t"}, "port must be a number"),
    ({"broker": "mqtt://h", "table": "Table 3"}, "table = 'Table 3'"),
    ({"broker": "mqtt://h", "table": "t", "colour": "red"}, "'colour' is not a setting"),
    ({"broker": "mqtt://h", "table": "t", "password_file": "/x"}, "add user ="),
    ({"broker": "mqtt://h", "table": "t", "user": "u", "password_file": "/nope"},
     "cannot be read"),
    ({"broker": "mqtt://h", "table": "t", "ca_file": "/x"}, "ca_file is for mqtts://"),
    ({"broker": "mqtt://h", "table": "t", "home_assistant": "yes"}, "write true or false"),
    ({"table": "t"}, "give the club's broker as a URL"),
])
def test_a_bad_configuration_is_refused_by_key_with_the_fix(data, words):
    with pytest.raises(ClubError, match=words.replace("(", r"\(").replace("+", r"\+")):
        config_from(data, "mqtt.toml")


def test_a_good_configuration_reads_whole(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    (tmp_path / "mqtt.toml").write_text(f'broker = "mqtts://club.lan"\ntable = "table-3"\n'
                                        f'user = "t3"\npassword_file = "{secret}"\n'
                                        "home_assistant = true\n")
    config = load_config(find_config(tmp_path, None))
    assert (str(config.broker), config.table, config.user, config.password) == (
        "mqtts://club.lan:8883", "table-3", "t3", "s3cret")
    assert config.topic("results", "abcd1234") == "obelisk/table-3/results/abcd1234"


@pytest.mark.processes
def test_obelisk_mqtt_without_a_configuration_says_what_to_write(tmp_path):
    run = subprocess.run([OBELISK, "mqtt", "--state-dir", str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2
    assert f"write {tmp_path / 'mqtt.toml'}" in run.stderr
    assert "Traceback" not in run.stderr



# ---------------------------------------------------------------------- end to end


@pytest.mark.processes
def test_a_game_is_published_end_to_end_and_a_late_subscriber_sees_the_retained_state(
        tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker)
    publisher = start_publisher(state, broker)
    try:
        until(lambda: "online" in heard.on("obelisk/t1/status"), 30, "status online")
        demo = run_demo(state)
        [game_id] = games_listed(state)
        until(lambda: heard.result("t1", game_id), 30, "the result")
        told = demo.lines
        until(lambda: [e for e in heard.events("t1") if e["event"] == "game_over"], 30)
        got = [e for e in heard.events("t1") if e["event"] not in ("table", "absent")]
        strip = {"words", "page", "table", "session", "n", "at"}  # what the page adds
        assert [{k: v for k, v in e.items() if k not in strip} for e in got] == told
        result = heard.result("t1", game_id)[1]
        exported = subprocess.run([OBELISK, "export", game_id, "--format", "json",
                                   "--state-dir", str(state)], capture_output=True, text=True,
                                  check=True).stdout
        assert result["record"] == json.loads(exported)
        assert result["outcome"]["words"] == told[-1]["outcome"]["words"]
        assert result["text"].startswith('[Game "stones"]')

        # The state goes out at most every STATE_EVERY_S, after the event that changed it:
        # once the live subscriber has heard the last one, the broker keeps it retained.
        until(lambda: [json.loads(s)["phase"] for s in heard.on("obelisk/t1/state")][-1:]
              == ["over"], 30, "the final state")
        late = Heard(broker, "obelisk/t1/state,obelisk/t1/results/+", client_id="late")
        until(lambda: late.on("obelisk/t1/state"), 20, "the retained state")
        final = json.loads(late.on("obelisk/t1/state")[-1])
        assert (final["game"], final["phase"], final["actions"]) == ("stones", "over", 12)
        assert final["outcome"]["words"] == told[-1]["outcome"]["words"]
        assert [t for t, _, retained in late.messages if retained]  # retained, not live
        until(lambda: late.result("t1", game_id), 20, "the retained result")
        late.close()
    finally:
        assert ended(publisher) == 0
        heard.close()
    assert heard.on("obelisk/t1/status")[-1] == "offline"  # a clean stop says so
    assert not list((state / "mqtt" / "outbox").glob("*.json"))


@pytest.mark.processes
def test_the_last_will_says_offline_when_the_publisher_is_killed(tmp_path, broker):
    heard = Heard(broker)
    publisher = start_publisher(tmp_path, broker, "killed")
    try:
        until(lambda: heard.on("obelisk/killed/status") == ["online"], 30, "online")
        assert ended(publisher, signal.SIGKILL) == -signal.SIGKILL
        until(lambda: heard.on("obelisk/killed/status") == ["online", "offline"], 30,
                 "the last will")
    finally:
        ended(publisher)
        heard.close()


@pytest.mark.processes
def test_the_broker_stopped_mid_game_gets_every_result_in_order_once_it_is_back(
        tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker, client_id="club-screen", persistent=True)
    publisher = start_publisher(state, broker)
    try:
        until(lambda: heard.on("obelisk/t1/status"), 30, "status online")
        long_game = run_demo(state, "stones", "--speed", "20", "--ply-limit", "40", wait=False)
        until(lambda: len([e for e in heard.events("t1") if e["event"] == "accepted"]) >= 4,
                 60, "a few moves published")
        broker.stop()
        long_game.communicate(timeout=120)
        assert long_game.returncode == 0
        run_demo(state, seed=2)  # a second game, played and finished while the broker is away
        games = games_listed(state)
        assert len(games) == 2
        outbox = state / "mqtt" / "outbox"
        assert len(list(outbox.glob("*.json"))) >= 2  # at least the two results wait on disk
        broker.start()
        until(lambda: all(heard.result("t1", g) for g in games), 90,
                 "both results after the broker came back")
        until(lambda: not list(outbox.glob("*.json")), 30, "the outbox emptied")
    finally:
        assert ended(publisher) == 0
        heard.close()
    order = [json.loads(p)["table_game_id"] for _, p in heard.matching("obelisk/t1/results/")]
    firsts = list(dict.fromkeys(order))
    assert firsts == games  # in the order the games ended
    events = heard.events("t1")
    numbers = [e["n"] for e in events]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # no gap: none lost
    assert [e["event"] for e in events].count("game_over") == 2


@pytest.mark.processes
def test_bad_credentials_are_said_clearly_and_the_table_plays_on(tmp_path):
    broker = Mosquitto(tmp_path / "broker", users={"table": "right"}).start()
    state = tmp_path / "table"
    state.mkdir()
    secret = tmp_path / "secret"
    secret.write_text("wrong\n")
    publisher = start_publisher(state, broker, user="table", password_file=str(secret))
    try:
        log = state / "publisher.log"
        until(lambda: "refused user 'table'" in log.read_text(), 30,
                 "the refusal in the log")
        text = log.read_text()
        assert f"check user and password_file in {state / 'mqtt.toml'}" in text
        assert "Traceback" not in text
        demo = run_demo(state)  # the table is untouched: the whole game plays
        assert demo.lines[-1]["event"] == "game_over"
        assert publisher.poll() is None  # and the publisher waits to be let in
        assert text.count("refused") == log.read_text().count("refused")  # said once
    finally:
        ended(publisher)
        broker.stop()


@pytest.mark.processes
def test_nothing_hidden_is_published_before_the_high_rise_reveal(tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(broker)
    publisher = start_publisher(state, broker, "hr")
    try:
        until(lambda: heard.on("obelisk/hr/status"), 30, "online")
        run_demo(state, "highrise", "--speed", "100")
        until(lambda: heard.matching("obelisk/hr/results/"), 60, "the result")
    finally:
        ended(publisher)
        heard.close()
    before = []
    for topic, payload in heard.matching("obelisk/hr/"):
        if topic.endswith("/status"):
            continue
        data = json.loads(payload)
        if topic.endswith("/events") and data["event"] in ("reveal", "game_over"):
            break
        # the retained state goes its own way (at most every 0.25 s), and may tell of the
        # end before the events topic does: from there on the values are public
        if topic.endswith("/state") and data.get("phase") == "over":
            break
        before.append((topic, data))
    assert len(before) > 20

    def keys(value) -> set:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    for topic, data in before:
        assert not ({"value", "pips", "seal", "sealed"} & keys(data)), (topic, data)
        assert "results/" not in topic
    after = [json.loads(p) for t, p in heard.matching("obelisk/hr/events")]
    assert any("value" in e for e in after if e["event"] == "reveal")  # the check can see it


# ---------------------------------------------------------------------- the club's page


@pytest.mark.processes
def test_the_club_page_lists_the_results_and_serves_each_record(tmp_path, broker):
    state = tmp_path / "table"
    state.mkdir()
    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                             "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    publisher = start_publisher(state, broker, "north")
    try:
        assert club.stdout.readline().startswith("obelisk club: open http://127.0.0.1:")
        run_demo(state)
        [game_id] = games_listed(state)
        url = f"http://127.0.0.1:{port}"

        def listed():
            return json.loads(urllib.request.urlopen(url + "/results", timeout=10).read())[
                "results"]

        [result] = until(listed, 30, "the result on the club's page")
        assert (result["table"], result["table_game_id"], result["game"]) == (
            "north", game_id, "stones")
        text = urllib.request.urlopen(url + result["text"], timeout=10).read().decode()
        exported = subprocess.run([OBELISK, "export", game_id, "--state-dir", str(state)],
                                  capture_output=True, text=True, check=True).stdout
        assert text == exported
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(url + "/results/north/00000000.json", timeout=10)
        assert missing.value.code == 404
    finally:
        ended(publisher)
        ended(club)


def test_the_club_page_in_a_browser_shows_each_table_live(tmp_path, broker, browser):
    from playwright.sync_api import expect

    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                             "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    tables = {"east": tmp_path / "east", "west": tmp_path / "west"}
    publishers = []
    for name, state in tables.items():
        state.mkdir()
        publishers.append(start_publisher(state, broker, name))
    try:
        club.stdout.readline()
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#table-east .status", timeout=30_000)
        demos = [run_demo(state, "stones", "--speed", "20", "--ply-limit", "16", wait=False)
                 for state in tables.values()]
        page.locator("#table-west .turn", has_text="to play").wait_for(timeout=60_000)
        for demo in demos:
            demo.communicate(timeout=120)
        expect(page.locator("#results li")).to_have_count(2, timeout=60_000)
        # the retained state goes out at most every 0.25 s: the card follows the result
        for name in tables:
            expect(page.locator(f"#table-{name}")).to_contain_text(
                "a draw (the game ended: move limit)", timeout=30_000)
        cards = page.locator("#tables article").all_inner_texts()
        assert len(cards) == 2 and all("stones" in c for c in cards)
        assert all("a draw (the game ended: move limit)" in c for c in cards), cards
        link = page.locator("#results li a.text").first
        with page.expect_download() as got:
            link.click()
        assert Path(got.value.path()).read_text().startswith('[Game "stones"]')
        page.screenshot(path=str(tmp_path / "club.png"))
        ended(publishers[0], signal.SIGKILL)
        page.wait_for_selector("#tables article.offline", timeout=30_000)
        page.context.close()
    finally:
        for publisher in publishers:
            ended(publisher)
        ended(club)


def test_the_club_page_shows_a_matchs_two_tables_as_one_live_card(tmp_path, broker, browser):
    """Two tables that play one match (their states say so) are one card: the match's name,
    each table with its seat and whether it is there, the game and whose turn at which
    table; a table playing alone keeps its own card."""
    from playwright.sync_api import expect

    from firmware.readers.club.state import empty

    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                             "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    heard = Heard(broker, "obelisk/#")

    def tell(table: str, status: str, **state) -> None:
        heard.client.publish(f"obelisk/{table}/status", status, qos=1, retain=True)
        heard.client.publish(f"obelisk/{table}/state", json.dumps(
            {**empty(table), "running": True, "game": "stones", "phase": "play", **state}),
            qos=1, retain=True)

    try:
        club.stdout.readline()
        tell("east", "online", turn="B", match={"match": "friday", "seat": "A"})
        tell("west", "online", turn="B", match={"match": "friday", "seat": "B"})
        tell("north", "online", turn="A")
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        card = page.locator("#match-friday")
        expect(card).to_contain_text("west: player B, online", timeout=30_000)
        expect(card).to_contain_text("east: player A, online")
        expect(card.locator(".turn")).to_have_text("player B (at west) to play")
        expect(page.locator("#tables article")).to_have_count(2)  # the match, and north
        expect(page.locator("#table-north")).to_contain_text("player A to play")
        tell("west", "offline", turn="B", match={"match": "friday", "seat": "B"})
        expect(card).to_contain_text("west: player B, offline")
        expect(page.locator("#match-friday.offline")).to_have_count(1)
        tell("east", "online", turn="B")  # east plays on its own now: its own card again
        expect(page.locator("#table-east")).to_have_count(1)
        expect(card).not_to_contain_text("east")
        page.context.close()
    finally:
        heard.close()
        ended(club)
