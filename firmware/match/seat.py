"""Playing a friend at another table: the match's setting, its seed, and the other table's
seat here, whose moves come over the club's broker.

``Match`` is what a table holds when ``--remote MATCH --seat A|B`` is given:
the person here plays one seat, the player at the other table the other.
Both tables start the same game from the same seed (drawn from the match's
name, so neither has to send it). The link between them is ``obelisk
remote`` (``firmware.match.link``), a reader like the page: the table
service itself has no network.

The other table's actions reach the table as the local command ``peer``,
each with its place in the game (the number of actions before it). The
table takes only the next one; one it holds already must be the one it
holds (else the two tables disagree, and the match stops with where). The
next one is checked by the local rules and shown as the computer's move is
in solo play (``MatchSeat`` is a far seat, like
``firmware.seats.solo.Computer``), and it is recorded only once the sensors
here see it made with the pieces: both journals then hold the same actions
in the same order. What one table asks the other (a pause, the end, a
takeback) the seat's ``Asks`` keeps (``firmware.match.asks``).

Where both players may act at once (the towers' placing), a match takes
them in seat order, A first: each table must record them in the same order,
and neither can know which was made first at the other.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core import counted
from engine.errors import ObeliskError
from engine.players import Player
from firmware.match.asks import AskRefused, Asks
from firmware.match.far_clock import FarClock
from firmware.match.negotiation_values import Fact
from firmware.seats.far_seat import FarSeat, movers

if TYPE_CHECKING:
    from engine.core import S, State
    from firmware.core.hooks import CoreTable, V

MATCH_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
SECRET_ENV = "OBELISK_MATCH_SECRET"
"""Where a match's secret word may be given instead of ``--secret`` (which every user of the
machine sees in ``ps``); ``obelisk play`` hands it to its service so."""


class MatchError(ObeliskError):
    """A match that cannot be played as asked; the message names the fix."""


def match_seed(match: str, secret: str = "") -> int:
    """The game's seed, from the match's name and the players' secret word: both tables draw
    the same without sending it, and one who knows only the name (every subscriber of the
    broker) cannot draw it when there is a secret."""
    drawn = hashlib.sha256(f"obelisk-match:{match}\0{secret}".encode()).digest()
    return int.from_bytes(drawn[:8], "big") >> 1


@dataclass(frozen=True)
class Match:
    """Which match this table plays and which seat its person takes."""

    name: str
    seat: Player  # the person at this table
    secret: str = field(default="", compare=False, repr=False)
    """A word both players agreed on (not the broker): the seed of a game with hidden values
    is drawn from it too. Never journalled or sent; a resumed game has its seed already."""
    journal_key: ClassVar[str] = "remote"  # the start entry's key (``firmware.seats.seating``)

    def __post_init__(self) -> None:
        if not MATCH_NAME.fullmatch(self.name):
            raise MatchError(f"a match's name is 1 to 40 lowercase letters, digits, - and _, "
                              f"not {self.name!r}: for example --remote friday-night")
        try:
            self.secret.encode("utf-8")
        except UnicodeEncodeError:  # a byte that was no UTF-8, passed on as a lone surrogate
            raise MatchError("the secret word holds a character that is no text (a byte that "
                              "is not UTF-8, passed on by the terminal or the environment): "
                              "type it again in plain letters, the same at both tables") \
                from None

    @property
    def other(self) -> Player:
        """The seat the other table's player takes."""
        return self.seat.other

    flags: ClassVar[str] = "--remote and --seat"

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.name, "seat": self.seat.value}

    def words(self) -> str:
        return f"match {self.name!r} is played, the person here in seat {self.seat.value}"

    def flag_values(self) -> list[str]:
        """This setting as the command line gives it (the secret word goes by ``SECRET_ENV``,
        never on a command line)."""
        return ["--remote", self.name, "--seat", self.seat.value]

    def far_seat(self, game_id: str) -> MatchSeat:
        """The other table's seat at a table of ``game_id``."""
        from firmware.games import GAMES

        if GAMES[game_id].hidden_chance and not self.secret:
            raise MatchError(f"{game_id} hides values until the end: a match of it needs "
                              "--secret WORD (or OBELISK_MATCH_SECRET=WORD in the "
                              "environment), a word both players agree on between them (by "
                              "phone, not through the club) and type at both tables, so that "
                              "no one on the broker can work the hidden values out")
        return MatchSeat(self, game_id)

    @classmethod
    def from_dict(cls, data: object) -> Match:
        if not isinstance(data, dict) or not isinstance(data.get("match"), str) \
                or data.get("seat") not in ("A", "B"):
            raise ValueError(f"the remote match {data!r} is not a match name and a seat A or B")
        return cls(data["match"], Player(data["seat"]))

    def marked(self, seats: dict[str, str]) -> dict[str, str]:
        """The seats as the game names them, the other table's marked as at the other table."""
        seat = self.other.value
        return {**seats, seat: f"{seats.get(seat, seat)} (at the other table)"}


class MatchSeat(FarSeat):
    """The other table's seat here: its moves arrive as actions, are lit, and count once made;
    a pause, the end or a takeback is asked of it through ``asking``, which it holds."""

    called = "the other table"
    pressed_here = False  # the other table's players press its buttons

    def __init__(self, match: Match, game_id: str, agreed: int = 0, game: int = 1,
                 facts: tuple[Fact, ...] = ()) -> None:
        """``agreed``: the takebacks the two tables agreed in the game so far (a resumed
        game's journal counts them: both tables count them alike); ``game``: which game of
        the match (kept in the start entry); ``facts``: the asks' records of its journal."""
        super().__init__(match, match.other, game_id)
        self.match = match
        self.asking = Asks(match.other, agreed, game, facts)
        self.arrived: dict[int, Any] = {}  # its next action, by its place in the game
        self.problem = ""  # why the match cannot go on (the tables disagree), in words
        self.claimable = False  # the other table was out of touch long enough to claim
        self.far_clock = FarClock()  # its player's hourglass, as its table reported it

    def public(self) -> dict[str, Any]:
        return {"match": self.match.to_dict()}

    def start_fields(self) -> dict[str, Any]:
        """The match and which of its games this is: both tables count the games alike (each
        finished or set aside, at both), so an ask names its game by this count."""
        return {**self.match.to_dict(), "game": self.asking.game}

    def follows(self, before: Any) -> str:
        """This table's game comes after ``before``'s (a game set aside): the next game of
        the match, its asks' negotiation going on. The words that say so ("": no match)."""
        if not isinstance(before, MatchSeat):
            return ""
        self.asking.follow(before.asking)
        return (f"game {self.asking.game} of the match is set up: set out the pieces and "
                "press a player button, as the other table does")

    def first_seed(self, seed: int) -> int:
        return match_seed(self.match.name, self.match.secret)

    def next_seed(self, seed: int) -> int:
        """The next game of the match: both tables draw the same seed (and count it)."""
        self.asking.game += 1
        return match_seed(f"{self.match.name}:{seed}", self.match.secret)

    # ---------------------------------------------------------------- the other table's actions

    def offered(self, table: CoreTable[V, S], index: int, action: Any, agreed: int = 0) -> str:
        """The other table's action ``action`` at place ``index`` came, after ``agreed``
        takebacks agreed: what became of it, in words. MatchError when the two tables
        disagree (the match cannot go on)."""
        have, ours = len(table.actions), self.asking.agreed
        if agreed != ours:
            return (f"waiting: this table has {ours} takebacks agreed, the other "
                    f"{agreed}" if agreed > ours else "taken back already")
        if index < have:
            if self._same_record(table, index, action):
                return "already recorded"
            raise self._disagree(table, index, f"the other table played "
                                 f"{self._words_at(table, index, action)} where this one "
                                 f"recorded {self._words_at(table, index, table.actions[index])}")
        if index > have:
            return f"waiting: this table has {counted(have, 'action')}, this is action {index + 1}"
        if self.arrived.get(index) == action:
            return "lit already"
        self._check(table, index, action)
        self.arrived = {index: action}
        self._for = None  # worked out afresh: the asked move is this one
        return "lit for the person here to make"

    def _check(self, table: CoreTable[V, S], index: int, action: Any) -> None:
        """The local rules take the other table's next action, made by its seat; MatchError
        in words when they do not."""
        pos = table.position
        try:
            actor = pos.actor(action)
            pos.apply_action(action)
        except ObeliskError as exc:
            raise self._disagree(table, index, f"the rules here refuse the other table's "
                                 f"move ({exc})") from None
        except ValueError:
            raise self._disagree(table, index, "the rules here cannot read the other table's "
                                 "move (is obelisk the same version at both tables?)") from None
        if actor is None:  # a chance action: the match's seed makes those at both tables
            raise self._disagree(table, index, "the other table sent a move no player makes")
        if actor is not self.seat:
            raise self._disagree(table, index, f"the other table sent a move of player "
                                 f"{actor.value}, who plays here")

    def _same_record(self, table: CoreTable[V, S], index: int, action: Any) -> bool:
        return table.record.action_to_dict(table.actions[index]) == \
            table.record.action_to_dict(action)

    def _words_at(self, table: CoreTable[V, S], index: int, action: Any) -> str:
        try:
            return table.history[index].action_to_string(action)
        except (ObeliskError, ValueError, AttributeError):
            return str(action)

    def _disagree(self, table: CoreTable[V, S], index: int, words: str) -> MatchError:
        self.problem = f"the tables disagree at action {index + 1}: {words}; the match stops here"
        return MatchError(self.problem)

    # ---------------------------------------------------------------- the far seat

    def _plan(self, table: CoreTable[V, S], seat: Player) -> tuple[Any, ...]:
        """The other table's move, once it came: the next action in the game, only that one."""
        action = self.arrived.get(len(table.actions))
        return () if action is None else (action,)

    def asks(self, pos: State) -> bool:
        """Every move of the other table's is asked: it was made there already."""
        return True

    def hands_free(self, action: Any) -> bool:
        """Its hourglass ran out, a bonus declined, a pass: the table plays it itself."""
        return self.rules.hands_free(action) or type(action).__name__ == "Timeout"

    def refuse(self, table: CoreTable[V, S], action: Any,
               actor: Player) -> tuple[str, tuple[Any, ...]] | None:
        if self.asking.agreed_to is not None:
            return self.asking.takeback_words(table), ()
        pos = table.position
        if actor is self.seat:
            if not self.asked:
                return (f"player {self.seat.value}'s move comes from the other table: wait "
                        "for it to light, then make it; put this piece back as it was"), ()
            return super().refuse(table, action, actor)
        holding = self.asking.holding
        if holding is not None:
            return (f"you asked the other table to {holding.words()}: wait for its answer "
                    "before you move; put this piece back as it was"), ()
        if self.first_to_act(pos):
            return (f"player {self.seat.value} moves first at this moment of a game between "
                    "two tables: wait for their move to light, make it, then yours; put "
                    "this piece back as it was"), ()
        return None

    def next_game_held(self, table: CoreTable[V, S]) -> str:
        """The match's next game waits for the other table's decision on every ask this one
        made in the game that ended (the rule the protocol is proven under)."""
        mine = self.asking.mine
        if mine is None or self.asking.settled():
            return ""
        return (f"the next game is set up once the other table has answered your ask to "
                f"{mine.words()}: press again then")

    def doing(self, table: CoreTable[V, S], words: str) -> str:
        """The turn's words, or what an agreed takeback still needs lifted off here."""
        return self.asking.takeback_words(table) or super().doing(table, words)

    def standing(self, table: CoreTable[V, S]) -> list[dict[str, Any]]:
        return super().standing(table) + self.asking.standing(table)

    def ask(self, table: CoreTable[V, S]) -> None:
        """After every turn said: the game here moved, so the other table's ask may be
        offered now, or lapse."""
        super().ask(table)
        self.asking.moved(table)
        owed = self.far_clock.owed(table._now) if table.game_on() else None
        if owed is not None:  # its player's glass, reported before the game here started
            table.tell("timer", player=self.seat.value, state=owed.state, seconds=owed.seconds,
                       left=owed.left)

    def answers(self, table: CoreTable[V, S], player: Player, kind: str) -> bool:
        """The person's press agrees to the other table's ask."""
        if self.asking.theirs is None or player is not self.person or kind != "press":
            return False
        self.asking.answer(table, agree=True)
        return True

    def menu(self, table: CoreTable[V, S]) -> bool:
        """The menu button declines the other table's ask, or asks it to pause (play on)."""
        if self.asking.theirs is not None:
            self.asking.answer(table, agree=False)
            return True
        kind = "pause" if table.may_pause() else "resume" if table.may_resume() else None
        if kind is None:
            return False
        try:
            self.asking.propose(table, kind)
        except AskRefused as exc:
            table.tell("notice", message=str(exc))
        return True

    def confirms(self, table: CoreTable[V, S], player: Player) -> bool:
        """A press confirming a takeback on offer asks the other table (``Asks.confirms``)."""
        return self.asking.confirms(table, player)

    def on_takeback(self, table: CoreTable[V, S], to: int) -> bool:
        """The pieces stand as the game before ``to``: a takeback the two tables agreed
        (``Asks.on_takeback``). The other table's move that came for the line taken back
        is dropped first: it is never lit again (that table may make another)."""
        if self.asking.agreed_to == to:
            self.arrived = {}
        return self.asking.on_takeback(table, to)

    def paused_by_agreement(self) -> bool:
        """The two tables last agreed to pause the game resumed here (its journal says so:
        a table killed while paused comes back paused, as the other table stands)."""
        return self.asking.left_paused

    def recorded(self, pos: State, made: Any) -> Any:
        """What the journal keeps for a move made here: the other table's own action when
        this is it (a towers block of the same colour may be another of the set's)."""
        for wanted in self.asked:
            if self.rules.same(pos, wanted, made):
                return wanted
        return made

    def first_to_act(self, pos: State) -> bool:
        """The other table acts first when it alone may, or when both may and its seat
        comes first."""
        mover = movers(pos)
        return self.seat in mover and (len(mover) == 1 or self.seat.value < self.person.value)
