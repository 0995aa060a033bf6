"""A third client on a match's topics: forged, replayed and giant messages on a real mosquitto.

The club's broker is shared, and nothing but an access list (which a club may not have)
keeps another client from writing on ``obelisk/matches/<match>/<table>/...``. The two
tables must lose nothing, apply nothing that is not the other table's (the secret word's
key, and each message's place in the game), say what they set aside, and not take a
giant message into memory. The links run in this process (``tests.support.remote.LinkedPair``,
each table a stand-in that makes the other table's moves at once) except for the giant
message, where the link is its own process, to measure it.
"""

from __future__ import annotations

import json
import logging
import subprocess
from pathlib import Path

import pytest

from firmware.match.game import MatchGame
from firmware.match.seat import match_seed
from tests.support.broker import Heard
from tests.support.processes import OBELISK, stop, until
from tests.support.remote import LinkedPair

MIB = 1024 * 1024


def _put(third: Heard, table: str, part: str, payload: str | bytes, retain: bool = False,
         match: str = "m") -> None:
    third.client.publish(f"obelisk/matches/{match}/{table}/{part}", payload, qos=1,
                         retain=retain).wait_for_publish(30)


def test_forged_messages_from_a_third_client_change_nothing_and_are_said(tmp_path, broker,
                                                                        monkeypatch, caplog):
    """Whoever does not hold the secret word cannot make a move, an ask, an answer, a claim
    or an hourglass reach a table, nor change what a table knows of the other (its count,
    its takebacks, its seat), nor stop the match; a status set offline is put back."""
    caplog.set_level(logging.INFO, "obelisk.remote")
    pair = LinkedPair(tmp_path, broker, monkeypatch)
    third = Heard(broker, "obelisk/matches/#")
    wrong = MatchGame({}, match_seed("m", ""), [], False).sealer()  # the key without the word
    try:
        pair.play(pair.a, {"k": 1})
        until(lambda: third.on("obelisk/matches/m/tb/hello"), 30, "table B's hello")
        hello = json.loads(third.on("obelisk/matches/m/tb/hello")[-1])
        forged = {"k": "forged"}
        for body in ({"action": forged}, {"sealed": "AAAA"}, {"sealed": wrong.seal(forged)},
                     {"sealed": wrong.seal({"part": "actions", "table": "tb", "n": 2,
                                            "agreed": 0, "action": forged, "seq": [9, 9]})}):
            _put(third, "tb", "actions", json.dumps({"match": "m", "n": 2, "agreed": 0,
                                                     **body}))
        _put(third, "tb", "actions", b"not JSON \xff")
        _put(third, "tb", "hello", json.dumps({**hello, "n": 10**6, "agreed": 7}), True)
        _put(third, "tb", "hello", json.dumps({**hello, "n": 10**6, "sealed": wrong.seal(
            {"part": "hello", "table": "tb", "seat": "B", "n": 10**6, "agreed": 7,
             "seq": [10**6, 0]})}), True)
        _put(third, "intruder", "hello", json.dumps({"match": "m", "table": "intruder",
                                                      "seat": "B", "n": 0}), True)
        ask = {"kind": "end", "by": "B", "n": 1, "agreed": 0, "to": -1}
        for part, said in (("asks", {"ask": ask}), ("answers", {"ask": ask, "agree": True}),
                           ("claim", {"by": "B"})):
            _put(third, "tb", part, json.dumps({"match": "m", "sealed": wrong.seal(said)}), True)
        _put(third, "tb", "timer", json.dumps({"match": "m", "player": "B", "state": "expired",
                                               "seconds": 60, "left": 0}), True)
        third.client.publish("obelisk/matches/_/tb/status", "offline", qos=1, retain=True)
        for n, table in ((2, pair.b), (3, pair.a), (4, pair.b)):
            pair.play(table, {"k": n})
        until(lambda: third.on("obelisk/matches/_/tb/status")[-1:] == ["online"], 30,
              "table B's status put back online by its own link")
        until(lambda: pair.links["ta"].broker.other.there, 30, "table A seeing table B there again")
    finally:
        pair.close()
        third.close()
    assert pair.a.actions() == pair.b.actions() == [{"k": n} for n in (1, 2, 3, 4)]
    for kind in ("negotiation", "peer_claim", "clock"):
        assert pair.a.told(kind) == [], kind
    assert [c for c in pair.a.told("link") if c["state"] == "stopped"] == []
    assert pair.links["ta"].broker.other.name == "tb" and pair.links["ta"].broker.other.agreed == 0
    said = "\n".join(r.getMessage() for r in caplog.records)
    for words in ("is not sealed", "this game's key does not open it", "not a JSON object"):
        assert words in said, words
    assert "Traceback" not in said


def test_messages_a_third_client_sends_again_change_nothing(tmp_path, broker, monkeypatch,
                                                            caplog):
    """Every message the two links sent, sent again by someone who recorded them (retained
    where the links retain), and each action also under the numbers still to come: no move
    is lit in another place, and no message of the asks reaches a table but those the other
    table's link sent (the table counts each once, however often: test_negotiation)."""
    caplog.set_level(logging.INFO, "obelisk.remote")
    pair = LinkedPair(tmp_path, broker, monkeypatch)
    third = Heard(broker, "obelisk/matches/#")
    a, b = pair.links["ta"], pair.links["tb"]
    try:
        for n, table in ((1, pair.a), (2, pair.b), (3, pair.a), (4, pair.b)):
            pair.play(table, {"k": n})
        ask = {"game": 1, "seat": "A", "number": 1, "kind": "pause", "takebacks": 0,
               "actions": 4, "to": -1}
        by_a = [{"m": "asked", "ask": ask}, {"m": "acknowledged", "game": 1, "seat": "A",
                                             "number": 0}]
        by_b = [{"m": "decided", "ask": ask, "outcome": "agreed", "why": ""},
                {"m": "acknowledged", "game": 1, "seat": "B", "number": 0}]
        a.broker.heard({"event": "negotiation", "messages": by_a})
        until(lambda: pair.b.told("negotiation"), 30, "A's ask at table B")
        b.broker.heard({"event": "negotiation", "messages": by_b})
        until(lambda: pair.a.told("negotiation"), 30, "B's decision at table A")
        by_a = [{"m": "acknowledged", "game": 1, "seat": "A", "number": 1}]  # adopted
        a.broker.heard({"event": "negotiation", "messages": by_a})
        until(lambda: len(third.on("obelisk/matches/m/ta/asks")) == 2, 30, "A's second")
        with third._lock:
            recorded = [(t, p) for t, p, _ in third.messages if p]
        for topic, payload in recorded:
            part = topic.rsplit("/", 1)[1]
            retain = part in ("hello", "asks", "timer", "claim", "status")
            third.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(30)
            if part == "actions":
                sent = json.loads(payload)
                for n in (5, 6):  # the same sealed move, numbered as one still to come
                    third.client.publish(topic, json.dumps({**sent, "n": n}), qos=1)
        pair.play(pair.a, {"k": 5})
        pair.play(pair.b, {"k": 6})
    finally:
        pair.close()
        third.close()
    assert pair.a.actions() == pair.b.actions() == [{"k": n} for n in range(1, 7)]
    sent_by_a = [{"m": "asked", "ask": ask}] + [{"m": "acknowledged", "game": 1, "seat": "A",
                                                  "number": n} for n in (0, 1)]
    assert pair.b.told("negotiation") and all(c["ask"] in sent_by_a
                                              for c in pair.b.told("negotiation"))
    assert pair.a.told("negotiation") and all(c["ask"] in by_b
                                              for c in pair.a.told("negotiation"))
    assert [c for c in pair.a.told("link") + pair.b.told("link")
            if c["state"] == "stopped"] == []
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "set aside" in said and "Traceback" not in said


def _high_water(pid: int) -> int:
    """The most memory the process has held at once (VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for process {pid}")


@pytest.mark.processes
def test_a_giant_message_on_a_matchs_topics_costs_the_link_no_memory(tmp_path, broker):
    """A 32 MiB message on the other table's hello (retained) and actions, sent while the
    link runs and waiting retained when it starts again: the link's memory grows by less
    than 8 MiB, and it goes on taking the match's messages."""
    state = tmp_path / "ta"
    state.mkdir()
    (state / "journal.jsonl").write_text(json.dumps(
        {"t": "start", "game": "stones", "options": {}, "seed": 1,
         "remote": {"match": "m", "seat": "A"}}) + "\n")
    log = tmp_path / "link.log"
    third = Heard(broker, "obelisk/matches/#")

    def link() -> subprocess.Popen:
        with open(log, "a") as out:
            return subprocess.Popen([OBELISK, "remote", "--state-dir", str(state), "--broker",
                                     broker.url, "--table", "ta"], stdout=out, stderr=out)

    def said_not_json() -> int:
        lines = log.read_text().splitlines()
        return sum(1 for line in lines if ("from tb " in line or "from 'tb'" in line)
                   and ("not JSON" in line or "not a JSON object" in line))

    def marker(n: int, part: str) -> None:
        """A message after the giant ones (not JSON, on a topic of its own): once the link
        says so, it has been through them."""
        _put(third, "tb", part, f"marker {n}")
        until(lambda: said_not_json() >= n, 60, f"the link saying what it did with marker {n}")

    proc = link()
    try:
        until(lambda: third.on("obelisk/matches/m/ta/hello"), 60, "the link's hello")
        marker(1, "hello")
        before = _high_water(proc.pid)
        giant = b"{" + b" " * (32 * MIB) + b"}"
        _put(third, "tb", "hello", giant, retain=True)
        _put(third, "tb", "actions", giant)
        marker(2, "timer")
        live = _high_water(proc.pid) - before
        stop(proc)
        until(lambda: third.on("obelisk/matches/_/ta/status")[-1:] == ["offline"], 60,
              "the link's last will, after every hello it sent")
        hellos = len(third.on("obelisk/matches/m/ta/hello"))  # (a link says it every 5 s)
        proc = link()  # the giant waits retained: the broker would send it as the link joins
        until(lambda: len(third.on("obelisk/matches/m/ta/hello")) > hellos, 60, "the link back")
        marker(3, "hello")
        again = _high_water(proc.pid) - before
        assert proc.poll() is None
    finally:
        stop(proc)
        third.close()
    assert live < 8 * MIB, f"the link grew by {live / MIB:.0f} MiB for a message sent live"
    assert again < 8 * MIB, f"the link grew by {again / MIB:.0f} MiB for a retained one"
    assert "Traceback" not in log.read_text()


def test_a_stranger_claiming_the_other_seat_first_does_not_take_it(tmp_path, monkeypatch):
    """Once the games started, only a hello this game's key opens names the other table; one
    that came first without it (its game's setup copied from the broker) is not the peer."""
    from firmware.match.link import Link
    from firmware.readers.club.config import config_from
    from firmware.service import command_socket
    from tests.support.remote import sealed_by

    told: list[dict] = []
    monkeypatch.setattr(command_socket, "send", lambda d, c, timeout=0: told.append(c)
                        or {"ok": True})
    (tmp_path / "journal.jsonl").write_text(json.dumps(
        {"t": "start", "game": "stones", "options": {}, "seed": match_seed("m", "tulip"),
         "remote": {"match": "m", "seat": "A"}}) + "\n")
    link = Link(config_from({"broker": "mqtt://127.0.0.1:1", "table": "ta"}), tmp_path)
    link.read_journal()
    setup = link.playing.game.fingerprint()

    class Hello:
        def __init__(self, table: str, sealed: str | None) -> None:
            self.topic, self.retain = f"obelisk/matches/m/{table}/hello", False
            self.payload = json.dumps({"match": "m", "table": table, "seat": "B", "n": 3,
                                       "agreed": 0, "game_setup": setup,
                                       **({"sealed": sealed} if sealed else {})}).encode()

    link.broker._on_message(None, None, Hello("intruder", None))
    assert link.broker.other.name is None and not link.broker.other.proven
    link.broker._on_message(None, None, Hello("tb", sealed_by(link.playing.game, "tb", "hello", {
        "seat": "B", "n": 0, "agreed": 0})))
    other = link.broker.other
    assert (other.name, other.proven, other.n) == ("tb", True, 0)
    assert [c["message"] for c in told if c["command"] == "link"] == [
        "playing the table 'tb' (seat B)"]
