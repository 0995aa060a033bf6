"""What the link takes from the broker: the other table's hello, actions, hourglass, asks,
answers, claim and status, each checked by the match's guard (``match_guard``) before it
counts (a part of ``remote_link.RemoteLink``, as ``match_talk.TableTalk`` is).

Which table is the other one: before this table's game starts, the first that
claims the other seat (to say on the page who it plays); once it has started,
only a table whose hello this game's key opens, so no one without the secret
word can take the seat, change the count this table sends from, or stop the
match. The hellos heard are kept and weighed again when this table's game
changes (the other table's may have come first).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from firmware.readers.club.match_guard import MESSAGE_MAX, differs, json_object
from firmware.readers.club.match_talk import match_topic

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from firmware.readers.club.config import ClubConfig
    from firmware.readers.club.match_game import MatchGame
    from firmware.readers.club.match_guard import Guard

log = logging.getLogger("obelisk.remote")

FROM_PEER = ("actions", "timer", "asks", "answers", "claim")
"""What the other table sends besides its hello, each sealed."""
HELLOS_KEPT = 8
"""The most hellos kept to weigh again (one per table that claims the other seat)."""


class PeerTalk:
    """The other table's side of the link (``RemoteLink`` holds the broker's client)."""

    config: ClubConfig
    client: mqtt.Client
    connected: bool
    guard: Guard
    peer: str | None
    peer_proven: bool
    peer_n: int
    peer_agreed: int
    peer_there: bool
    sent_upto: int
    sent_agreed: int
    inbox: dict[tuple[int, int], dict]
    hellos: dict[str, dict]
    problem: str
    away_since: float | None
    claim_said: bool
    _lock: threading.Lock
    _wake: threading.Event

    if TYPE_CHECKING:  # RemoteLink's and TableTalk's, which this half calls
        def _tell(self, state: str, words: str) -> None: ...
        def _match(self) -> str | None: ...
        def _seat(self) -> str | None: ...
        def _game(self) -> MatchGame | None: ...
        def _peer_ask(self, part: str, opened: dict | None) -> None: ...
        def _peer_clock(self, data: dict) -> None: ...

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        parts = message.topic.split("/")
        if len(parts) != 5:
            return
        _, _, match, table, part = parts
        data = self._screened(message.topic, match, table, part, message.payload,
                              getattr(message, "retain", False))
        if data is None:
            return
        if part == "hello":
            with self._lock:
                self._peer_hello(table, data)
        elif part in FROM_PEER and table == self.peer:
            self._from_peer(table, part, data)
        elif part in FROM_PEER and self.peer_proven:
            self.guard.aside(table, part, f"it comes from a table that does not play this "
                             f"match with this table (table {self.peer!r} does)")
        self._wake.set()

    def _screened(self, topic: str, match: str, table: str, part: str, payload: bytes,
                  retained: bool) -> dict | None:
        """The message's JSON object, when it is another table's of this match (None: this
        table's own, put back if someone overwrote it; a status, taken; too large or not
        JSON, set aside and said; another match's, or a retained message taken off)."""
        if table == self.config.table:
            if not retained:  # (what the broker held as this link joined: published over)
                self._own(topic, payload)
            return None
        if len(payload) > MESSAGE_MAX:  # (the broker is asked to send none: one that did)
            self.guard.aside(table, part, f"it is {len(payload)} bytes, more than the "
                             f"{MESSAGE_MAX // 1024} KiB a match's message may be")
            return None
        if match == "_":
            if part == "status" and table == self.peer:
                self._peer_status(payload)
            return None
        if match != self._match() or not payload:
            return None
        data = json_object(payload)
        if data is None:
            self.guard.aside(table, part, "it is not a JSON object")
        return data

    def _from_peer(self, table: str, part: str, data: dict) -> None:
        """A sealed message of the other table: opened, in its place, newer than the last."""
        with self._lock:
            opened = self.guard.opened(self._game(), table, part, data.get("sealed"))
            if opened is None:
                return
            if part == "actions":
                self._peer_action(table, data, opened)
                return
            if not self.guard.newer(table, part, opened):
                return
            if part == "timer":
                self._peer_clock(opened)
                return
        self._peer_ask(part, opened)  # (not under the lock: the table may take a while)

    def _peer_action(self, table: str, data: dict, opened: dict) -> None:
        """The other table's action: kept until the table here comes to it."""
        n, agreed, action = opened.get("n"), opened.get("agreed"), opened.get("action")
        if type(n) is not int or n < 1 or type(agreed) is not int or \
                not isinstance(action, dict):
            self.guard.aside(table, "actions", "it holds no action in its place")
        elif data.get("n") != n or data.get("agreed", 0) != agreed:
            self.guard.aside(table, "actions", "its number outside the seal is not the one "
                             "inside (a move sent again under another number)")
        else:
            self.inbox.setdefault((agreed, n), action)

    def _peer_hello(self, table: str, data: dict) -> None:
        """A table's hello: which seat it plays, and (proved by this game's key) how many
        actions it holds after how many takebacks."""
        mine, seat = self._seat(), data.get("seat")
        if seat == mine or seat not in ("A", "B"):
            if self.peer is None:
                self._tell("waiting", f"table {table!r} also claims seat {mine} in this "
                           "match: one of the two must play the other seat")
            return
        self._keep_hello(table, data)
        game, sealed = self._game(), data.get("sealed")
        if self.peer is not None and table != self.peer and (self.peer_proven or game is None):
            log.warning("table %r claims seat %s of match %r, which table %r plays: ignored",
                        table, seat, self._match(), self.peer)
            return
        proof = None
        if game is not None:
            if sealed is None and data.get("game_setup") is None:
                return  # that table has not started its game yet: nothing to take now
            proof = self.guard.opened(game, table, "hello", sealed, quiet=game.over)
            if proof is None:
                self._other_game(table, seat, data.get("game_setup"), game)
                return
            if proof.get("seat") != seat or not self.guard.newer(table, "hello", proof, True):
                return
            if data.get("game_setup") != game.fingerprint():
                self.problem = (f"the other table ({table}) set up another game: "
                                f"{differs(data.get('game_setup'), game.fingerprint())}; "
                                "both must start the same game with the same options")
                self._tell("stopped", self.problem)
                return
        self._adopt(table, seat, proof)

    def _other_game(self, table: str, seat: str, theirs: object, game: Any) -> None:
        """A hello this game's key does not open that names another game: the other table
        with another game or secret word, or someone else; said while no table proved."""
        if theirs is not None and theirs != game.fingerprint() and not game.over and \
                not self.peer_proven:
            self._tell("waiting", f"table {table!r} says it plays seat {seat} of this match, "
                       f"but not this game: {differs(theirs, game.fingerprint())}; if it is "
                       "the other table, both must start the same game with the same options "
                       "and the same secret word (or both none)")

    def _adopt(self, table: str, seat: str, proof: dict | None) -> None:
        """``table`` is the other table (``proof``: its sealed hello, once games started)."""
        first = table != self.peer
        if first and self.peer is not None:  # a table that did not prove, given up for one
            self.peer_n = self.sent_upto = self.peer_agreed = self.sent_agreed = 0
            self.inbox = {}
        self.peer, self.peer_proven = table, proof is not None
        if proof is not None:
            n, agreed = proof.get("n"), proof.get("agreed")
            if type(n) is int and n >= 0 and type(agreed) is int:
                if agreed == self.peer_agreed and (n < self.peer_n or n < self.sent_upto):
                    self.sent_upto = n  # it restarted without some: send them again
                self.peer_n, self.peer_agreed = n, agreed
        match = self._match()
        if first:
            self._tell("linked", f"playing the table {table!r} (seat {seat})")
            if self.connected and match is not None:  # its claim, if it holds one, again
                self.client.subscribe(match_topic(match, table, "claim"), qos=1)

    def _keep_hello(self, table: str, data: dict) -> None:
        self.hellos.pop(table, None)
        self.hellos[table] = data
        while len(self.hellos) > HELLOS_KEPT:
            del self.hellos[next(iter(self.hellos))]

    def _weigh_hellos(self) -> None:
        """This table's game changed: the other table is known again only by a hello this
        game's key opens (one heard already, or the next)."""
        self.guard.forget()
        self.peer_proven = False
        self.inbox = {}
        self.peer_n = self.sent_upto = self.peer_agreed = self.sent_agreed = 0
        for table, data in list(self.hellos.items()):
            self._peer_hello(table, data)

    def _peer_status(self, payload: bytes) -> None:
        """The other table's link went away or came back: said on the page."""
        there = payload == b"online"
        if there == self.peer_there:
            return
        self.peer_there = there
        self.away_since, self.claim_said = None if there else time.monotonic(), False
        if there:
            self._tell("linked", f"the other table ({self.peer}) is back: play on")
        else:
            self._tell("apart", f"the other table ({self.peer}) is out of touch since "
                       f"{time.strftime('%H:%M')}: the match waits for it (nothing times out)")

    def _own(self, topic: str, payload: bytes) -> None:
        """A message on this table's own topic: put back what this link published there, if
        someone else overwrote it (a status set offline, a hello or an ask changed)."""
        ours = self.guard.put_back(topic, payload, time.monotonic())
        if ours is not None and self.connected:
            self.client.publish(topic, ours, qos=1, retain=True)
