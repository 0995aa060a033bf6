"""A seat played from afar at this table: the computer's (``firmware.seats.solo``) or a
friend's at another table (``firmware.match.seat``).

Its moves are asked of the person here, lit on the LEDs and in words, and
count once the sensors see them made. What differs between the two is where
a move comes from (``_plan``) and what the other table must agree to first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import ObeliskError
from engine.players import Player
from firmware.core.table_state import TableState
from firmware.games import GAMES

if TYPE_CHECKING:
    from engine.core import S, State
    from engine.reading import Reading
    from firmware.core.hooks import CoreTable, SeatAfar, SeatSetting, V
    from firmware.core.palette import Frame


class NoComputer(ObeliskError):
    """The computer does not play this game: it declares no solo module."""


def rules_for(game_id: str) -> Any:
    """The game's own solo module (its declared ``solo``, ``firmware/<game>/solo.py``);
    NoComputer, in words, for a game that has none."""
    declared = GAMES.get(game_id)
    rules = None if declared is None else declared.solo_rules()
    if rules is None:
        players = ", ".join(g.id for g in GAMES.values() if g.solo)
        raise NoComputer(f"the computer does not play {game_id} (it plays {players}): play it "
                         "with two people, without --solo")
    return rules


def movers(state: State) -> tuple[Player, ...]:
    """Who may act now (towers: both while placing)."""
    if state.is_terminal():
        return ()
    return state.to_move()


class FarSeat:
    """A seat played from afar at this table (the computer, or a friend at another table):
    its moves are asked of the person here, lit on the LEDs, and count once made.

    ``setting`` is what the journal keeps of it (``Solo``, ``Match``); a kind of far
    seat says where its moves come from (``_plan``).
    """

    hints: ClassVar[bool] = False  # whether the person may ask it for a hint
    called: ClassVar[str] = "the computer"  # who asks its moves, on the page (``asked``)
    pressed_here: ClassVar[bool] = True  # its seat's buttons are pressed by the person here

    def __init__(self, setting: SeatSetting, seat: Player, game_id: str) -> None:
        self.solo = setting
        self.seat = seat
        self.person = seat.other
        self.rules = rules_for(game_id)
        self.asked: tuple[Any, ...] = ()  # the far seat's move still to be made, in order
        self.hinted: tuple[Any, ...] = ()  # the hint lit for the person, until the position changes
        self._told = False  # the asked move was told (``ask``)
        self._refusal = ""  # the words of the last refusal of a move made for this seat
        self._for: State | None = None  # the position ``asked`` and ``hinted`` were worked out in
        self._n = 0  # how many actions the table had played then

    def _plan(self, table: CoreTable[V, S], seat: Player) -> tuple[Any, ...]:
        """The move ``seat`` makes now (empty: none yet)."""
        raise NotImplementedError

    def start_fields(self) -> dict[str, Any]:
        """What the journal's start entry keeps of this seat's setting (a match: its game)."""
        return self.solo.to_dict()

    def first_seed(self, seed: int) -> int:
        """The seed of the table's first game, given the one it would draw (by default that)."""
        return seed

    def next_seed(self, seed: int) -> int | None:
        """The seed of the game after the one played with ``seed`` (None: a fresh one)."""
        return None

    def asks(self, pos: State) -> bool:
        """Whether the far seat's move is asked in ``pos`` (the game says: the maze's
        obelisk goes down wherever the person puts it, in a game against the computer)."""
        asked: bool = self.rules.asks(pos)  # (the game's solo module: ``rules_for``)
        return asked

    def hands_free(self, action: Any) -> bool:
        """Whether the table plays this action of the far seat itself (no pieces to move)."""
        free: bool = self.rules.hands_free(action)
        return free

    def recorded(self, pos: State, made: Any) -> Any:
        """What the journal keeps of a move made here (by default the move as made)."""
        return made

    def first_to_act(self, pos: State) -> bool:
        """Whether the far seat acts before the person here (by default whenever it may)."""
        return self.seat in movers(pos) and self.asks(pos)

    def turn(self, table: CoreTable[V, S]) -> tuple[Any, ...]:
        """The position changed: work out the far seat's move if it is to act (``asked``,
        which the turn's words say and ``ask`` then tells). What it returns the table plays
        itself at once: an asked action that needs no hands (else ())."""
        pos = table.position
        if pos is self._for:
            return ()
        left = self._left(table)
        self._for, self._n, self.hinted, self._told = pos, len(table.actions), (), False
        if self.seat not in movers(pos) or not self.asks(pos):
            self.asked = ()
            return ()
        self.asked = self._still_legal(pos, left) or self._plan(table, self.seat)
        if self.asked and self.hands_free(self.asked[0]):
            return self.asked[:1]  # nothing to fetch: the table plays it itself
        return ()

    def ask(self, table: CoreTable[V, S]) -> None:
        """Ask for the move ``turn`` worked out, once (after the turn that says it)."""
        if self.asked and not self._told:
            self._told = True
            table.tell("asked", by=self.called, **self._said(table, self.asked, self.seat))

    def doing(self, table: CoreTable[V, S], words: str) -> str:
        """The turn's words: ``words`` (the phase's), or, while the computer's seat is to
        act and a move is asked, that move for the person to make, in the ask's words: the
        table takes no other for it."""
        pos = table.position
        if pos.current_player() is self.seat and not self.asks(pos):
            return f"{words} ({self.called} leaves this one to you)"  # the maze's obelisk
        if not self.asked or pos is not self._for or pos.current_player() is not self.seat:
            if pos.current_player() is self.seat and self.person not in movers(pos):
                # its move not come yet: nothing here for the person to do (the phase's words
                # would speak to a player who is not at this table)
                return (f"{self.called} is to move: its move is lit here when it comes, for "
                        "you to make with the pieces")
            return words
        also = "; and your own move too" if self.person in movers(pos) else ""
        left = table.still_to_do(self.asked)  # (its first done with the pieces already)
        return f"make {self.called}'s move: {self.rules.words(pos, left)}{also}"

    def _left(self, table: CoreTable[V, S]) -> tuple[Any, ...]:
        """What the asked move still lacks after the actions played since it was asked (none
        if those went elsewhere: a takeback)."""
        n = self._n
        if not self.asked or len(table.history) <= n or table.history[n] is not self._for:
            return ()
        return self._unmade(self.asked, table, n)

    def _unmade(self, asked: tuple[Any, ...], table: CoreTable[V, S], n: int) -> tuple[Any, ...]:
        """What of ``asked``, worked out after ``n`` actions, the actions since have not made.

        An action made exactly as asked strikes off that one first: two asked alike (the
        towers' two green blocks) leave the one whose block is still to fetch, not the one
        just played, which would no longer be legal and make the computer think again."""
        left = list(asked)
        for k in range(n, len(table.actions)):
            made, before = table.actions[k], table.history[k]
            exact = [i for i, wanted in enumerate(left) if wanted == made]
            alike = [i for i, wanted in enumerate(left) if self.rules.same(before, wanted, made)]
            if exact or alike:
                del left[(exact or alike)[0]]
        return tuple(left)

    def _still_legal(self, pos: State, left: tuple[Any, ...]) -> tuple[Any, ...]:
        """What is left of the asked move, if the rules still allow all of it."""
        state = pos
        try:
            for action in left:
                state = state.apply_action(action)
        except (ObeliskError, ValueError):
            return ()
        return left

    def _said(self, table: CoreTable[V, S], actions: tuple[Any, ...],
              seat: Player) -> dict[str, Any]:
        pos = table.position
        return {"player": seat.value,
                "action": self.rules.notation(pos, actions),
                "text": self.rules.words(pos, actions),
                "where": [mark.to_dict() for mark in self.rules.where(pos, actions)]}

    def standing(self, table: CoreTable[V, S]) -> list[dict[str, Any]]:
        """The move still asked, and a hint still lit, as events: for a reader that joins."""
        out = []
        if self.asked:
            out.append(table.event("asked", by=self.called,
                                   **self._said(table, self.asked, self.seat)))
        if self.hinted:
            out.append(table.event("hint", **self._said(table, self.hinted, self.person)))
        return out

    def refuse(self, table: CoreTable[V, S], action: Any,
               actor: Player) -> tuple[str, tuple[Any, ...]] | None:
        """Why a move made for the far seat is not the one asked (and where), or None.

        ``actor`` is who made ``action``, as the table's rules tell. A move of the
        person's own passes; the asked moves may come in any order (``turn``
        strikes off those made once they are recorded).
        """
        pos = table.position
        if not self.asked or actor is not self.seat:
            return None
        if any(self.rules.same(pos, wanted, action) for wanted in self.asked):
            return None
        self._refusal = self.rules.differs(pos, self.asked, action, by=self.called)
        return self._refusal, ()

    def showing(self, table: CoreTable[V, S]) -> bool:
        """Whether the asked move is shown now (lit, and said beside a ring): in play, and
        while the table refuses a move made in its place (the refusal points at it)."""
        if table.state == TableState.play:
            return True
        return (table.state == TableState.repair and bool(self.asked) and bool(self._refusal)
                and table.problem == self._refusal)

    def overlay(self, table: CoreTable[V, S], leds: Frame) -> None:
        """Light the asked move (or the person's hint) over the game's LED frame."""
        if not self.showing(table):
            return
        if self.asked:
            self.rules.lights(table, leds, self.asked, self.seat, asked=True)
        elif self.hinted:
            self.rules.lights(table, leds, self.hinted, self.person, asked=False)

    def ring_words(self, table: CoreTable[V, S], owner: str) -> str:
        """What seat ``owner``'s ring tells of the asked move (or of the person's hint), in
        words, for a game whose solo module has ``ring_words`` (High Rise's pyramid size);
        "" for any other ring."""
        say: Callable[..., str] | None = getattr(self.rules, "ring_words", None)
        lit = self._ring_lit(table, owner)
        return "" if say is None or lit is None else say(table.position, lit[0], by=lit[1])

    def ring_piece(self, table: CoreTable[V, S], owner: str) -> str:
        """Which piece seat ``owner``'s ring asks for, as a value (High Rise: "medium"),
        for the page's hands to take up; "" for any other ring. The page alone hears it
        (the ``lights`` event), as the size stays hidden from everyone else."""
        piece: Callable[..., str] | None = getattr(self.rules, "ring_piece", None)
        lit = self._ring_lit(table, owner)
        return "" if piece is None or lit is None else piece(table.position, lit[0])

    def _ring_lit(self, table: CoreTable[V, S], owner: str) -> tuple[tuple[Any, ...], str] | None:
        """The actions seat ``owner``'s ring shows and who asks them ("" for a hint), as
        ``overlay`` lights them: the asked move, else a hint; None: nothing of ours."""
        if not self.showing(table):
            return None
        if self.asked:
            return (self.asked, self.called) if owner == self.seat.value else None
        if self.hinted and owner == self.person.value:
            return self.hinted, ""
        return None

    def chosen(self, pos: State, reading: Reading) -> tuple[Any, ...]:
        """Of the moves a reading may be (a block resting above the rods), the one the far
        seat asked, when it is the far seat's choice: no one here has to pick it (else ())."""
        if reading.chooser is not self.seat or not self.asked:
            return ()
        for candidate in reading.choices:
            if len(candidate) == len(self.asked) and self._same_moves(pos, candidate):
                return candidate
        return ()

    def _same_moves(self, pos: State, candidate: tuple[Any, ...]) -> bool:
        state = pos
        try:
            for wanted, made in zip(self.asked, candidate, strict=True):
                if not self.rules.same(state, wanted, made):
                    return False
                state = state.apply_action(made)
        except (ObeliskError, ValueError):
            return False
        return True

    def button(self, table: CoreTable[V, S], player: Player, kind: str) -> bool:
        """A button the far seat means something by; True when it was taken (by default
        none: a button means what it means in a game of two)."""
        return False

    def public(self) -> dict[str, Any]:
        """What the table's public state says of the far seat (a match: its name and the
        seat here, so that a club's page shows the match's two tables as one)."""
        return {}

    # What the other table of a match must agree to first (``firmware.match.asks``);
    # with the computer, each is as at a table of two people (False: not taken here).

    def answers(self, table: CoreTable[V, S], player: Player, kind: str) -> bool:
        """A player's button answering the far seat's ask (True: taken)."""
        return False

    def menu(self, table: CoreTable[V, S]) -> bool:
        """The menu button asking the far seat (True: taken, nothing paused here yet)."""
        return False

    def confirms(self, table: CoreTable[V, S], player: Player) -> bool:
        """A press confirming the takeback on offer, taken as an ask of the far seat."""
        return False

    def on_takeback(self, table: CoreTable[V, S], to: int) -> bool:
        """The pieces stand as the game before ``to``: a takeback the far seat agreed
        happens (True), else it is offered to the owners' buttons (False)."""
        return False

    def next_game_held(self, table: CoreTable[V, S]) -> str:
        """Why the next game may not be set up yet, in words ("": it may)."""
        return ""

    def paused_by_agreement(self) -> bool:
        """Whether the game resumed here was left paused by an agreement the journal records
        (a far seat that pauses nothing: never)."""
        return False


if TYPE_CHECKING:
    def _as_the_core_asks(seat: FarSeat) -> SeatAfar:
        """A far seat is what the table core asks of one: mypy checks it here (the core
        imports no seat, and the tables are given theirs through untyped factories)."""
        return seat
