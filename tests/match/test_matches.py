"""Two tables, one game: a match played through a real mosquitto, with faults on the way.

Each table is an ``obelisk demo ... --remote MATCH --seat X`` (its bots play
the seat here; the other table's moves are made as the LEDs show them, as a
person would) beside its ``obelisk remote`` link. Both journals must end
holding the same actions in the same order, none lost or doubled, whatever
happens to the links and the broker meanwhile.

The two whole matches are played ahead, side by side, from the module's first test
(``tests.support.ahead``): each mostly waits on its tables' real time. Each test checks its own.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from firmware.match.link import Link
from firmware.match.messages import status_topic
from firmware.service import command_socket
from tests.support.ahead import played_ahead
from tests.support.broker import Heard, Mosquitto
from tests.support.processes import until
from tests.support.remote import OBELISK, Table, actions_of, is_over, journal_of, sealed_by


@pytest.fixture(scope="module", autouse=True)
def matches(request, tmp_path_factory):
    """The whole matches the module's selected tests check (``friday``, ``tower``), played
    ahead from its first test."""
    plays = {"friday": _friday, "tower": _tower}
    ahead = played_ahead(request, tmp_path_factory, plays, timeout=300)
    yield ahead
    ahead.close()


@pytest.fixture
def friday(matches) -> tuple[list[dict], list[dict], Path]:
    return matches.result("friday")


@pytest.fixture
def tower(matches) -> tuple:
    return matches.result("tower")


def _friday(tmp_path: Path) -> tuple[list[dict], list[dict], Path]:
    """A stones match across a killed link, a restarted broker and strays: both journals at
    its end, and the directory of the tables' logs."""
    broker = Mosquitto(tmp_path / "broker").start()
    game = ["stones", "--size", "4x4", "--ply-limit", "60"]
    a = Table(tmp_path, broker, game, "friday", "A")
    b = Table(tmp_path, broker, game, "friday", "B")
    heard = Heard(broker, "obelisk/matches/#")
    try:
        until(lambda: len(actions_of(b.dir)) >= 3, 120, "three actions at table B")
        _pause_agreed_and_undone(a, b)
        b.kill_link()  # a link killed mid-match: started again, it picks up from the journal
        until(lambda: len(actions_of(a.dir)) >= 8, 120, "eight actions at table A")
        hellos = len(heard.on("obelisk/matches/friday/friday-a/hello"))
        broker.stop()  # the broker gone a while, then back
        broker.start()
        until(lambda: len(heard.on("obelisk/matches/friday/friday-a/hello")) > hellos, 60,
                 "table A's link back on the broker")
        first = json.loads(heard.on("obelisk/matches/friday/friday-a/actions")[0])
        heard.client.publish("obelisk/matches/friday/friday-a/actions", json.dumps(first),
                             qos=1)  # a duplicate of A's first move, long after
        heard.client.publish("obelisk/matches/friday/intruder/hello", json.dumps(
            {"match": "friday", "table": "intruder", "seat": "B", "n": 0}), qos=1, retain=True)
        now = len(actions_of(a.dir))
        for n in range(now + 1, now + 30):  # moves from a table that is not the peer
            heard.client.publish("obelisk/matches/friday/intruder/actions", json.dumps(
                {"match": "friday", "n": n, "action": {"a": "pass"}}), qos=1)
        first = {**first, "sealed": "AAAA" + first["sealed"][4:]}  # changed on the way
        heard.client.publish("obelisk/matches/friday/friday-a/actions", json.dumps(first),
                             qos=1)
        until(lambda: is_over(a.dir) and is_over(b.dir), 240, "the match's end at both tables")
        assert a.demo.wait(60) == 0 and b.demo.wait(60) == 0
    finally:
        a.stop()
        b.stop()
        heard.close()
        broker.stop()
    return journal_of(a.dir), journal_of(b.dir), tmp_path


@pytest.mark.processes
def test_a_match_ends_with_both_journals_equal_across_a_killed_link_a_restarted_broker_and_strays(
        friday):
    ours, theirs, tmp_path = friday
    assert _game(ours) == _game(theirs)
    # each table adopted, once, just what the other decided on its asks (a pause, play on)
    assert _asks(ours, "adopted") == _asks(theirs, "decided") != []
    assert _asks(theirs, "adopted") == _asks(ours, "decided") != []
    assert {outcome for _, outcome in _asks(ours, "adopted") + _asks(theirs, "adopted")} == \
        {"agreed"}
    numbers = [e["n"] for e in ours if e["t"] == "action"]
    assert numbers == list(range(1, len(numbers) + 1))  # none lost, none twice
    start_a, start_b = ours[0], theirs[0]
    assert start_a["seed"] == start_b["seed"] and start_a["options"] == start_b["options"]
    assert start_a["remote"] == {"match": "friday", "seat": "A", "game": 1}
    assert start_b["remote"] == {"match": "friday", "seat": "B", "game": 1}
    assert len(numbers) > 30  # the faults came in the middle of the game
    assert "intruder" in (tmp_path / "link-A.log").read_text()  # and the stray was seen


def _game(journal: list[dict]) -> list[dict]:
    """A journal's game: its entries but the start and the asks' records."""
    return [e for e in journal if e["t"] not in ("start", "negotiation")]


def _asks(journal: list[dict], kind: str) -> list[tuple[dict, str]]:
    """The asks' records of one kind (``decided``, ``adopted``): each ask and its outcome."""
    return [(e["ask"], e["outcome"]) for e in journal if e["t"] == "negotiation"
            and e["m"] == kind]


def _pause_agreed_and_undone(a: Table, b: Table) -> None:
    """Table A asks to pause; nothing pauses until B's player agrees, then both do; B asks to
    play on, A agrees, and both play on (each ask carried by the links, through the broker).
    An ask the other table's moves overtook lapses (its place passed): asked again."""
    from firmware.service.command_socket import send

    def state(t: Table) -> str:
        return send(t.dir, {"command": "status"})["state"]

    _agreed(a, b, "pause")
    until(lambda: state(a) == "paused", 30, "table A paused once B agreed")
    assert state(b) == "paused"
    _agreed(b, a, "resume")  # (nobody moves while paused: asked once)
    until(lambda: state(b) != "paused", 30, "table B playing on once A agreed")
    assert state(a) != "paused"


def _agreed(asker: Table, answerer: Table, command: str) -> None:
    """``asker`` asks (``command``) until ``answerer``'s player can agree before the game
    moves past the ask, and does."""
    from firmware.service.command_socket import send

    def decided() -> int:
        return sum(1 for e in journal_of(asker.dir) if e["t"] == "negotiation"
                   and e["m"] == "adopted")

    for _ in range(20):
        before = decided()
        assert "asked the other table to" in send(asker.dir, {"command": command})["message"]
        until(lambda before=before: send(answerer.dir, {"command": "status"})["can"]["answer"]
              or decided() > before, 30, "the ask on offer at the other table, or lapsed")
        if send(answerer.dir, {"command": "answer", "agree": True})["ok"]:
            return
        until(lambda before=before: decided() > before, 30, "the lapsed ask's decision back")
    raise AssertionError(f"20 asks to {command} overtaken by moves")


def test_the_other_tables_moves_reach_the_table_in_their_order_once_each(tmp_path, monkeypatch):
    """Messages that come twice or out of order: the table is handed action n only when it
    holds n - 1, each number once."""
    journal = tmp_path / "journal.jsonl"
    journal.write_text(json.dumps({"t": "start", "game": "stones", "options": {}, "seed": 1,
                                   "remote": {"match": "m", "seat": "A"}}) + "\n")
    handed: list[int] = []

    def send(directory, command, timeout=0):
        if command["command"] == "peer":
            handed.append(command["n"])
            with journal.open("a") as f:  # the person made it: the journal holds it
                f.write(json.dumps({"t": "action", "n": command["n"],
                                    "action": command["action"]}) + "\n")
        return {"ok": True, "message": "lit"}

    monkeypatch.setattr(command_socket, "send", send)
    from firmware.readers.club.config import config_from

    link = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "ta"}), tmp_path)
    link.read_journal()
    link.broker.other.name = "tb"

    class Message:  # sealed with the game's key, its place inside the seal
        def __init__(self, n: int) -> None:
            self.topic = "obelisk/matches/m/tb/actions"
            self.payload = json.dumps({"match": "m", "n": n, "sealed": sealed_by(
                link.playing.game, "tb", "actions",
                {"n": n, "agreed": 0, "action": {"k": n}})}).encode()

    for n in (3, 1, 1, 4, 2, 3):
        link.broker._on_message(None, None, Message(n))
    for step in range(10):
        link.step(float(step))
    assert handed == [1, 2, 3, 4]
    assert [e["n"] for e in map(json.loads, journal.read_text().splitlines()[1:])] == [1, 2, 3, 4]


@pytest.mark.processes
@pytest.mark.parametrize("flags, words", [
    (["--seat", "A"], "--seat is for a match"),
    (["--remote", "m"], "--remote needs --seat A or --seat B"),
    (["--remote", "m", "--seat", "A", "--solo", "B"], "choose one"),
    (["--remote", "Friday Night", "--seat", "A"], "a match's name is"),
    (["--remote", "m", "--seat", "A", "--game", "highrise"], "needs --secret WORD"),
])
def test_a_match_asked_wrongly_is_refused_in_words(tmp_path, flags, words):
    done = subprocess.run([*OBELISK, "run", "--state-dir", str(tmp_path), *flags],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert words in done.stderr and "Traceback" not in done.stderr


def test_the_other_table_out_of_touch_is_said_as_such_and_its_return_too(tmp_path, monkeypatch):
    """The other link's last will (offline) shows the match waiting, not a timeout; its
    return says play on; the same twice says nothing more."""
    told: list[tuple[str, str]] = []
    monkeypatch.setattr(command_socket, "send", lambda d, c, timeout=0: told.append(
        (c["state"], c["message"])) or {"ok": True})
    from firmware.readers.club.config import config_from

    link = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "ta"}), tmp_path)
    link.broker.other.name = "tb"

    class Status:
        def __init__(self, table: str, payload: bytes) -> None:
            self.topic, self.payload = status_topic(table), payload

    for table, payload in (("tb", b"offline"), ("tb", b"offline"), ("tc", b"online"),
                           ("tb", b"online")):
        link.broker._on_message(None, None, Status(table, payload))
    assert [state for state, _ in told] == ["apart", "back"]
    assert "the match waits" in told[0][1] and \
        "its player's hourglass is stopped here" in told[0][1]


def _linked(tmp_path, monkeypatch, game: str, **extra) -> tuple[Link,
                                                                  list[dict]]:
    """A link of table "ta" (seat A of match "m", its journal started) whose peer is "tb",
    and the commands it sends its table (none reaches a real one)."""
    from firmware.readers.club.config import config_from

    sent: list[dict] = []
    monkeypatch.setattr(command_socket, "send", lambda d, c, timeout=0: sent.append(c)
                        or {"ok": True})
    (tmp_path / "journal.jsonl").write_text(json.dumps(
        {"t": "start", "game": game, "options": {}, "seed": 1,
         "remote": {"match": "m", "seat": "A"}}) + "\n")
    link = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "ta"}), tmp_path,
                **extra)
    link.read_journal()
    link.broker.other.name = "tb"
    return link, sent


def test_the_other_tables_hourglass_is_shown_here_and_ours_is_not_sent_back(tmp_path,
                                                                          monkeypatch):
    link, sent = _linked(tmp_path, monkeypatch, "towers")

    class Timer:
        def __init__(self, table: str, player: str) -> None:
            self.topic = f"obelisk/matches/m/{table}/timer"
            self.payload = json.dumps({"match": "m", "sealed": sealed_by(
                link.playing.game, table, "timer", {"player": player, "state": "started",
                                            "seconds": 60, "left": 60})}).encode()

    for table, player in (("tb", "B"), ("tb", "A"), ("tc", "B")):
        link.broker._on_message(None, None, Timer(table, player))
    assert sent == [{"command": "clock", "player": "B", "state": "started", "seconds": 60,
                     "left": 60}]


def test_the_asks_messages_cross_sealed_and_retained_and_only_the_peers_reach_the_table(
        tmp_path, monkeypatch):
    link, sent = _linked(tmp_path, monkeypatch, "stones")
    link.broker.connected = True
    published: list[tuple[str, bytes | str, bool]] = []
    monkeypatch.setattr(link.broker.client, "publish", lambda topic, payload, qos=0, retain=False:
                        published.append((topic, payload, retain)))
    sealer = link.playing.game.sealer()
    ask = {"game": 1, "seat": "A", "number": 1, "kind": "pause", "takebacks": 0, "actions": 3,
           "to": -1}
    ours = [{"m": "asked", "ask": ask}, {"m": "acknowledged", "game": 1, "seat": "A",
                                         "number": 0}]
    link.broker.heard({"event": "match", "state": "asked", "ask": ask, "message": ""})
    link.broker.heard({"event": "negotiation", "messages": ours})
    assert [(t.rsplit("/", 1)[1], retain) for t, _, retain in published] == [("asks", True)]
    opened = sealer.unseal(json.loads(published[0][1])["sealed"])
    assert opened["messages"] == ours and (opened["part"], opened["table"]) == ("asks", "ta")
    assert b"pause" not in published[0][1]  # sealed: the broker's other users read nothing

    class Message:
        def __init__(self, table: str, part: str, said: dict | None) -> None:
            self.topic = f"obelisk/matches/m/{table}/{part}"
            self.payload = b"" if said is None else json.dumps(
                {"match": "m", "sealed": sealed_by(link.playing.game, table, part, said)}).encode()

    decided = {"m": "decided", "ask": ask, "outcome": "declined", "why": ""}
    theirs = {"messages": [decided]}
    for message in (Message("tb", "asks", theirs), Message("tc", "asks", theirs),
                    Message("tb", "asks", None), Message("tb", "asks", theirs)):
        link.broker._on_message(None, None, message)
    assert sent == [{"command": "negotiation", "ask": decided}] * 2  # again: counted once there


def test_a_clock_command_shows_only_the_far_players_hourglass():
    from firmware.service.commands import CommandRefused, parse

    command = parse(json.dumps({"command": "clock", "player": "B", "state": "started",
                                "seconds": 60, "left": 59.5}))
    assert command.clock == ("started", 60.0, 59.5) and command.player == "B"
    for bad in ({"command": "clock", "player": "B", "state": "late", "seconds": 1, "left": 1},
                {"command": "clock", "state": "started", "seconds": 1, "left": 1},
                {"command": "pause", "seconds": 1}):
        with pytest.raises(CommandRefused):
            parse(json.dumps(bad))


def test_the_club_lists_a_matchs_game_once_though_both_tables_publish_it():
    from firmware.readers.club.viewer import Club

    club = Club()
    for table, seat, gid in (("ta", "A", "ta-" + "1" * 32), ("tb", "B", "tb-" + "2" * 32),
                             ("tc", None, "tc-" + "3" * 32)):
        data = {"table": table, "id": gid, "game": "stones", "when": "2026-11-26 02:00",
                "outcome": {"words": "player A wins"}}
        if seat:
            data["match"] = {"match": "derby", "seat": seat, "key": "derby:77"}
        club.take(f"obelisk/{table}/results/{gid}", json.dumps(data).encode())
    listed = club.listing()
    assert [r["table"] for r in listed] == ["tc", "ta"]
    assert listed[1]["match"].startswith("match derby (ta, seat A")
    assert "match" not in listed[0]


def test_a_table_may_not_be_named_after_the_matches_topics():
    from firmware.readers.club.config import ClubError, config_from

    with pytest.raises(ClubError, match="taken by the remote matches"):
        config_from({"broker": "mqtt://127.0.0.1", "table": "matches"})


def test_each_tables_result_names_the_match_game_both_share():
    from firmware.readers.club.publisher import match_of

    a = match_of({"remote": {"match": "derby", "seat": "A"}, "seed": 77})
    b = match_of({"remote": {"match": "derby", "seat": "B"}, "seed": 77})
    assert a["key"] == b["key"] == "derby:77" and (a["seat"], b["seat"]) == ("A", "B")
    assert match_of({"seed": 77}) is None
    again = match_of({"remote": {"match": "derby", "seat": "A", "game": 2}, "seed": 77})
    assert again["key"] == "derby:77:2"  # the match's next game starts from the same seed


def _tower(tmp_path: Path) -> tuple:
    """A High Rise match with a secret word: both tables' games read from their journals,
    and all the broker carried, in order (topic, payload)."""
    from firmware.match.game import read_game
    from firmware.store.journal import Journal

    broker = Mosquitto(tmp_path / "broker").start()
    heard = Heard(broker, "obelisk/#")  # a subscriber to every topic, from the start
    game = ["highrise", "--secret", "tulip"]
    a = Table(tmp_path, broker, game, "tower", "A")
    b = Table(tmp_path, broker, game, "tower", "B")
    try:
        until(lambda: is_over(a.dir) and is_over(b.dir), 300, "the match's end")
        assert a.demo.wait(60) == 0 and b.demo.wait(60) == 0
        ours, theirs = read_game(Journal(a.dir)), read_game(Journal(b.dir))
        until(lambda: any('"seed"' in p and f'"n": {len(ours.actions)}' in p
                             for p in heard.on("obelisk/matches/tower/tower-a/hello")), 30,
                 "the reveal")
    finally:
        a.stop()
        b.stop()
        heard.close()
        broker.stop()
    with heard._lock:
        said = [(topic, payload) for topic, payload, _ in heard.messages]
    return ours, theirs, said


@pytest.mark.processes
def test_a_high_rise_match_tells_the_broker_nothing_hidden_before_the_end(tower):
    """Point 5: both tables draw the hidden values from the match and a secret word no one
    on the broker hears; what crosses is sealed with a key from that seed; the hello commits
    to the seed and reveals it only once the game is over."""
    from firmware.match.game import commitment

    ours, theirs, said = tower
    assert ours.actions == theirs.actions and ours.seed == theirs.seed and len(ours.actions) > 20
    revealed = next(i for i, (t, p) in enumerate(said) if t.endswith("/hello") and
                    json.loads(p).get("seed") is not None)
    early = " ".join(p for _, p in said[:revealed])
    assert str(ours.seed) not in early and "tulip" not in early
    assert commitment(ours.seed) in early  # committed to before the game
    for topic, payload in said[:revealed]:
        if topic.endswith("/actions"):
            sent = json.loads(payload)
            assert set(sent) == {"match", "n", "agreed", "sealed"}  # no square, no size


def test_a_takeback_both_agreed_starts_a_new_line_and_the_old_ones_actions_are_not_handed(
        tmp_path, monkeypatch):
    journal = tmp_path / "journal.jsonl"
    lines = [{"t": "start", "game": "stones", "options": {}, "seed": 1,
              "remote": {"match": "m", "seat": "A"}},
             {"t": "action", "n": 1, "action": {"k": 1}}, {"t": "action", "n": 2,
                                                            "action": {"k": 2}},
             {"t": "takeback", "to": 1, "agreed": True}]
    journal.write_text("".join(json.dumps(e) + "\n" for e in lines))
    handed: list[tuple[int, int]] = []
    monkeypatch.setattr(command_socket, "send", lambda d, c, timeout=0: handed.append(
        (c["n"], c["agreed"])) or {"ok": True, "message": "lit"} if c["command"] == "peer"
        else {"ok": True})
    from firmware.readers.club.config import config_from

    link = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "ta"}), tmp_path)
    link.read_journal()
    assert link.playing.game.actions == [{"k": 1}] and link.playing.game.agreed == 1
    link.broker.other.name = "tb"

    class Message:
        def __init__(self, n: int, agreed: int) -> None:
            self.topic = "obelisk/matches/m/tb/actions"
            self.payload = json.dumps({"match": "m", "n": n, "agreed": agreed,
                                       "sealed": sealed_by(link.playing.game, "tb", "actions", {
                                           "n": n, "agreed": agreed, "action": {"k": n}})}
                                      ).encode()

    link.broker._on_message(None, None, Message(2, 0))  # the line taken back: never lit
    link.step(0.0)
    assert handed == []
    link.broker._on_message(None, None, Message(2, 1))
    link.step(1.0)
    assert handed == [(2, 1)]
    assert (0, 2) not in link.broker.other.inbox  # dropped once this table took back


def test_a_table_out_of_touch_past_claim_after_may_be_claimed_and_its_claim_reaches_it(
        tmp_path, monkeypatch):
    monkeypatch.setattr(time, "monotonic", lambda: 1000.0)
    from firmware.readers.club.config import config_from

    link, told = _linked(tmp_path, monkeypatch, "stones", claim_after_min=10)

    class Message:
        def __init__(self, part: str, payload: bytes) -> None:
            self.topic = (status_topic("tb") if part == "status"
                          else f"obelisk/matches/m/tb/{part}")
            self.payload = payload

    link.broker._on_message(None, None, Message("status", b"offline"))
    link.broker.other.offer_claim(1000.0 + 9 * 60)
    assert [c["state"] for c in told if c["command"] == "link"] == ["apart"]
    link.broker.other.offer_claim(1000.0 + 10 * 60)
    link.broker.other.offer_claim(1000.0 + 11 * 60)  # said once
    claimable = [c for c in told if c["command"] == "link" and c["state"] == "claimable"]
    assert len(claimable) == 1 and "out of touch for 10 minutes" in claimable[0]["message"]
    link.broker._on_message(None, None, Message("status", b"online"))  # back: offer taken back
    assert told[-1]["state"] == "back"
    sealed = sealed_by(link.playing.game, "tb", "claim", {"by": "B", "n": 3, "agreed": 0})
    link.broker._on_message(None, None, Message("claim", json.dumps({"match": "m",
                                                              "sealed": sealed}).encode()))
    assert told[-1] == {"command": "peer_claim", "player": "B", "n": 3, "agreed": 0}
    never = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "tc"}), tmp_path)
    never.read_journal()
    never.broker.other.name, never.broker.other.away_since = "tb", 0.0
    before = len(told)
    never.broker.other.offer_claim(1e9)  # without --claim-after the match waits for ever
    assert len(told) == before and not never.broker.other.claim_said


@pytest.mark.processes
@pytest.mark.parametrize("minutes", ["0", "soon", "2000"])
def test_claim_after_out_of_its_range_is_refused_in_words(tmp_path, minutes):
    done = subprocess.run([*OBELISK, "remote", "--state-dir", str(tmp_path), "--broker",
                           "mqtt://127.0.0.1:1", "--table", "ta", "--claim-after", minutes],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and f"--claim-after is 1 to 1440 minutes, not {minutes}" in \
        done.stderr and "Traceback" not in done.stderr


def test_the_secret_word_never_goes_on_a_command_line_and_may_come_from_the_environment(
        monkeypatch):
    import argparse

    from firmware import cli_commands
    from firmware.match.seat import SECRET_ENV, Match

    args = argparse.Namespace(remote="m", seat="A", solo=None, level=None, secret=None)
    monkeypatch.setenv(SECRET_ENV, "tulip")
    from_env = cli_commands._match(args)
    assert from_env.secret == "tulip" and "tulip" not in from_env.flag_values()
    monkeypatch.delenv(SECRET_ENV)
    assert cli_commands._match(args).secret == ""
    given = cli_commands._match(argparse.Namespace(**{**vars(args), "secret": "rose"}))
    assert given.secret == "rose" and given == Match("m", from_env.seat)
