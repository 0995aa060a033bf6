"""What a link knows of the other table of its match, and what it takes from it: its hello,
actions, hourglass, the messages of its asks, claim and status, each checked by the match's guard
(``firmware.match.guard``) before it counts.

Which table is the other one: before this table's game starts, the first that
claims the other seat (to say on the page who it plays); once it has started,
only a table whose hello this game's key opens, so no one without the secret
word can take the seat, change the count this table sends from, or stop the
match. The hellos heard are kept and weighed again when this table's game
changes (the other table's may have come first).

A table whose link goes silent (its status turns offline: the link says so as
it stops, the broker as its last will when the link dies or its keepalive runs
out) is shown as out of touch, not timed out: the match waits for it, and the
table here shows its player's hourglass stopped (``firmware.match.far_clock``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from engine.core import counted
from engine.players import Player
from firmware.match.guard import Guard
from firmware.match.messages import FROM_THE_OTHER, MESSAGE_MAX, differs, json_object
from firmware.match.playing import Playing
from firmware.match.table_side import TableSide

log = logging.getLogger("obelisk.remote")

HELLOS_KEPT = 8
"""The most hellos kept to weigh again (one per table that claims the other seat)."""


class OtherTable:
    """The other table as one link knows it: its name, its count of actions (and what was
    sent it since), the actions of its kept until this table comes to them, whether its link
    is there."""

    def __init__(self, playing: Playing, table: TableSide, guard: Guard,
                 subscribe: Callable[[str, str], None],
                 claim_after_s: float | None = None) -> None:
        """``subscribe(match, table)``: listen to that table's claim (when linked)."""
        self.playing = playing
        self.table = table
        self.guard = guard
        self._subscribe = subscribe
        self.claim_after_s = claim_after_s
        self.name: str | None = None  # the other table's name, once its hello came
        self.proven = False  # its hello opened with this game's key
        self.hellos: dict[str, dict] = {}  # each table's last hello claiming the other seat
        self.n = 0  # how many actions the other table holds
        self.agreed = 0  # after how many takebacks agreed (its count holds only then)
        self.inbox: dict[tuple[int, int], dict] = {}  # its actions, by (takebacks, number)
        self.sent_agreed = 0  # the takebacks agreed when ``sent_upto`` was counted
        self.sent_upto = 0  # actions sent to it since its last count
        self.sent_at = 0.0
        self.there = True  # its link is there, as far as we know
        self.away_since: float | None = None  # out of touch since (monotonic)
        self.claim_said = False
        self.problem = ""
        self._said: tuple[str, str] | None = None  # the last told the table
        self.ahead: int | None = None  # its actions when it was last said to have begun first

    def forget(self) -> None:
        """Another match: nothing of the other table is known."""
        self.name, self.n, self.sent_upto, self.inbox = None, 0, 0, {}
        self.agreed = self.sent_agreed = 0
        self.proven, self.hellos, self.ahead = False, {}, None

    # ---------------------------------------------------------------- its messages

    def screened(self, match: str, table: str, part: str, payload: bytes) -> dict | None:
        """A message of another table's on this match's topics (or a status): its JSON
        object, when it is another table's of this match (None: a status, taken; too large
        or not JSON, set aside and said; another match's, or a retained message taken off)."""
        if len(payload) > MESSAGE_MAX:  # (the broker is asked to send none: one that did)
            self.guard.aside(table, part, f"it is {len(payload)} bytes, more than the "
                             f"{MESSAGE_MAX // 1024} KiB a match's message may be")
            return None
        if match == "_":
            if part == "status" and table == self.name:
                self._status(payload)
            return None
        if match != self.playing.name() or not payload:
            return None
        data = json_object(payload)
        if data is None:
            self.guard.aside(table, part, "it is not a JSON object")
        return data

    def take(self, table: str, part: str, data: dict) -> dict | None:
        """A screened message of ``table``'s, under the link's lock: what it asks of this
        table, opened, for the caller to hand on after the lock (None: nothing to hand)."""
        if part == "hello":
            self._hello(table, data)
        elif part in FROM_THE_OTHER and table == self.name:
            return self._from_it(table, part, data)
        elif part == "asks" and self.name is None:
            # no table known yet: its hello proves nothing while its game is set aside and the
            # next not begun, but its asks are sealed with the last game's key (and name it),
            # so the decision in them reaches this table, still in that game
            return self._from_it(table, part, data)
        elif part in FROM_THE_OTHER and self.proven:
            self.guard.aside(table, part, f"it comes from a table that does not play this "
                             f"match with this table (table {self.name!r} does)")
        return None

    def _from_it(self, table: str, part: str, data: dict) -> dict | None:
        """A sealed message of the other table: opened, in its place, newer than the last;
        an ask, an answer or a claim is returned to be handed on."""
        opened = self._opened(table, part, data.get("sealed"))
        if opened is None:
            return None
        if part == "actions":
            self._action(table, data, opened)
        elif part == "asks":  # the asks' messages count once however often, in any order:
            return opened  # (an older one, a game's last, may be the decision still owed)
        elif self.guard.newer(table, part, opened):
            if part != "timer":
                return opened
            self.table.hand_clock(opened)
        return None

    def _opened(self, table: str, part: str, sealed: object) -> dict | None:
        """A sealed message of the other table's, opened with this game's key; its asks also
        with the key of the game before (sent by a table still in it: an ask this table
        must answer, or the decision on this table's own ask)."""
        game, earlier = self.playing.current(), self.playing.earlier()
        if part != "asks" or earlier is None or earlier is game:
            return self.guard.opened(game, table, part, sealed)
        opened = self.guard.opened(game, table, part, sealed, quiet=True)
        return opened if opened is not None else self.guard.opened(earlier, table, part,
                                                                   sealed)

    def _action(self, table: str, data: dict, opened: dict) -> None:
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

    def _hello(self, table: str, data: dict) -> None:
        """A table's hello: which seat it plays, and (proved by this game's key) how many
        actions it holds after how many takebacks."""
        mine, seat = self.playing.seat(), data.get("seat")
        if seat == mine or seat not in ("A", "B"):
            if self.name is None:
                self._say("waiting", f"table {table!r} also claims seat {mine} in this "
                          "match: one of the two must play the other seat")
            return
        self._keep_hello(table, data)
        game, sealed = self.playing.current(), data.get("sealed")
        if self.name is not None and table != self.name and (self.proven or game is None):
            log.warning("table %r claims seat %s of match %r, which table %r plays: ignored",
                        table, seat, self.playing.name(), self.name)
            return
        if game is None:  # no key to prove it by yet
            self._adopt(table, seat, None)
            self._begun_there(seat, data)  # (after: its words stand last, to start here too)
            return
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
            self._say("stopped", self.problem)
            return
        self._adopt(table, seat, proof)

    def _begun_there(self, seat: str, data: dict) -> None:
        """The other table began the game (and moved) before this one: said here, since
        nothing of it reaches this table until its own game starts. Its count is not proven
        (no key before this game starts): it is only words."""
        last, theirs = self.playing.last_game, data.get("match_game", 1)
        played = 0 if last is None else last.number  # the game this table set aside
        if data.get("game_setup") is None or "seed" in data or type(theirs) is not int \
                or theirs <= played:  # not begun; over; or the game set aside here
            if self.ahead is not None:  # (said before, no longer true)
                self.ahead = None
                self._say("linked", f"the other table{self._who()} is linked")
            return
        n = data.get("n")
        n = n if type(n) is int and 0 <= n < 10_000 else 0
        if n == self.ahead:
            return
        self.ahead = n
        made = f", {counted(n, 'action')} made there so far" if n else ""
        self._say("waiting", f"the other table (player {seat}) has started the "
                        f"game{made}: press a player button here to start it too; its "
                        "moves are lit here for you to make with the pieces")

    def _other_game(self, table: str, seat: str, theirs: object, game: Any) -> None:
        """A hello this game's key does not open that names another game: the other table
        with another game or secret word, or someone else; said while no table proved."""
        if theirs is not None and theirs != game.fingerprint() and not game.over and \
                not self.proven:
            self._say("waiting", f"table {table!r} says it plays seat {seat} of this "
                            f"match, but not this game: {differs(theirs, game.fingerprint())}; "
                            "if it is the other table, both must start the same game with the "
                            "same options and the same secret word (or both none)")

    def _adopt(self, table: str, seat: str, proof: dict | None) -> None:
        """``table`` is the other table (``proof``: its sealed hello, once games started)."""
        first = table != self.name
        if first and self.name is not None:  # a table that did not prove, given up for one
            self.n = self.sent_upto = self.agreed = self.sent_agreed = 0
            self.inbox = {}
        self.name, self.proven = table, proof is not None
        if proof is not None:
            n, agreed = proof.get("n"), proof.get("agreed")
            if type(n) is int and n >= 0 and type(agreed) is int:
                if agreed == self.agreed and (n < self.n or n < self.sent_upto):
                    self.sent_upto = n  # it restarted without some: send them again
                self.n, self.agreed = n, agreed
        match = self.playing.name()
        if first:
            self._say("linked", f"playing the table {table!r} (seat {seat})")
            if match is not None:  # its claim, if it holds one, again
                self._subscribe(match, table)
        elif proof is not None and self.ahead is not None:  # the words that it began first
            self.ahead = None  # are true no more
            self._say("linked", f"playing the table {table!r} (seat {seat}): the game is on "
                      "at both tables")

    def _keep_hello(self, table: str, data: dict) -> None:
        self.hellos.pop(table, None)
        self.hellos[table] = data
        while len(self.hellos) > HELLOS_KEPT:
            del self.hellos[next(iter(self.hellos))]

    def weigh_hellos(self) -> None:
        """This table's game changed: the other table is known again only by a hello this
        game's key opens (one heard already, or the next)."""
        self.guard.forget()
        self.proven = False
        self.inbox = {}
        self.n = self.sent_upto = self.agreed = self.sent_agreed = 0
        for table, data in list(self.hellos.items()):
            self._hello(table, data)

    # ---------------------------------------------------------------- whether it is there

    def _status(self, payload: bytes) -> None:
        """The other table's link went away or came back: said on the page."""
        there = payload == b"online"
        if there == self.there:
            return
        self.there = there
        self.away_since, self.claim_said = None if there else time.monotonic(), False
        who = self._who()
        if there:
            self._say("back", f"the other table{who} is back")  # true as it comes: the page
            # says it until the game moves on
        else:
            self._say("apart", f"the other table{who} is out of touch "
                            f"since {time.strftime('%H:%M')}: the match waits; its player's "
                            "hourglass is stopped here")

    def _say(self, state: str, words: str) -> None:
        """How the match stands, to the table: once, not again while it is the last said
        (a hello comes again every few seconds, and with it the same words)."""
        if (state, words) == self._said:
            return
        self._said = (state, words)
        self.table.tell(state, words)

    def _who(self) -> str:
        """" (player B)": the other table as the person here knows it, by its seat."""
        seat = self.playing.seat()
        return f" ({Player(seat).other})" if seat in ("A", "B") else ""

    def offer_claim(self, now: float) -> None:
        """The other table out of touch as long as ``--claim-after`` allows: the person here
        may claim the game (said once; its return takes the offer back)."""
        if self.claim_after_s is None or self.away_since is None or self.claim_said or \
                now - self.away_since < self.claim_after_s or self.playing.current() is None:
            return
        self.claim_said = True
        minutes = round(self.claim_after_s / 60)
        self._say("claimable", f"the other table ({self.name}) has been out of touch "
                        f"for {minutes} minute{'s' if minutes != 1 else ''}: you may claim the "
                        "game (Claim the game on the page), or wait for it")
