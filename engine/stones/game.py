"""Stones: the SE20ND Obelisk, three stones a player, built up into an obelisk.

Each player has a cornerstone, a keystone and a capstone (the second edition
calls them base, pedestal and capstone; only the names differ). Stones move
one square diagonally forward or straight back, or jump over an adjacent
stack to the empty square beyond. The keystone steps onto its own
cornerstone to make a foundation, which then moves as one stone; the
capstone stepping onto its own foundation makes the obelisk and wins. A
capstone may also step onto an opposing cornerstone, keystone or foundation
(a pillar, or Ra's Revenge); it must come off again on its owner's next turn.
After every move the mover must keep symmetry (see ``Mode``); a player with
no legal move loses. Stones can be moved round in circles for ever, so every
game ends: a position that comes a third time with the same player to move is
a draw, and so is a game still going at its move limit (200 moves by default).

Squares are (row, col). Row 0 is player A's edge; A moves up the rows, B
down. Player A has the black stones and moves first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Any, ClassVar

from engine.core import NoChance, Outcome, Turns, counted, parse_square, returns_of, square_name
from engine.errors import GameOverError, IllegalActionError
from engine.players import PLAYERS, Player

Square = tuple[int, int]


class Kind(Enum):
    CORNER = "corner"
    KEY = "key"
    CAP = "cap"


class Mode(Enum):
    """Which symmetry a move must leave for the player who made it."""

    OPEN = "open"  # colour or shape symmetry
    BOUNDED = "bounded"  # colour symmetry
    BALANCED = "balanced"  # colour and shape symmetry


class Edition(Enum):
    """Same rules, other words for people."""

    CLASSIC = "classic"
    SECOND = "second"


NAMES = {
    Edition.CLASSIC: {Kind.CORNER: "cornerstone", Kind.KEY: "keystone", Kind.CAP: "capstone",
                      "jump": "vault", "pillar": "pillar"},
    Edition.SECOND: {Kind.CORNER: "base", Kind.KEY: "pedestal", Kind.CAP: "capstone",
                     "jump": "jump", "pillar": "Ra's Revenge"},
}


class EndReason(Enum):
    OBELISK = "obelisk"
    NO_LEGAL_MOVES = "no_legal_moves"
    PLY_LIMIT = "ply_limit"
    REPETITION = "repetition"

    @property
    def said(self) -> str:
        """How the game ended, in the words of the rules sheet (``engine.stones.rules``)."""
        return {"no_legal_moves": "no legal move", "ply_limit": "move limit"}.get(
            self.value, self.value)


class IllegalMoveError(IllegalActionError):
    """A stones move the rules do not allow; the message says why."""


@dataclass(frozen=True)
class Stone:
    owner: Player
    kind: Kind


Stacks = tuple[tuple[Square, tuple[Stone, ...]], ...]
"""(square, bottom..top), sorted by square."""
Position = tuple[Stacks, Player]
"""The stones and who is to move: what the repetition rule compares."""


@dataclass(frozen=True)
class Move:
    """Whatever the mover may move from ``frm`` goes to ``to`` (python-chess style)."""

    frm: Square
    to: Square

    def __str__(self) -> str:
        return f"{square_name(self.frm)}-{square_name(self.to)}"


DEFAULT_PLY_LIMIT = 200
"""Moves in all after which a game is drawn unless the players choose otherwise: random
play on the default board builds an obelisk within it about three games in four."""
REPEATS_TO_DRAW = 3
"""The time a position comes round (same stones, same player to move) that draws."""


@dataclass(frozen=True)
class StonesOptions:
    """``ply_limit`` None: no limit (the repetition rule still ends every game);
    ``repetition`` is off only in games recorded before the rule existed."""

    rows: int = 6
    cols: int = 4
    mode: Mode = Mode.OPEN
    edition: Edition = Edition.CLASSIC
    ply_limit: int | None = DEFAULT_PLY_LIMIT
    repetition: bool = True

    RECORDED_WITHOUT: ClassVar[dict[str, object]] = {"ply_limit": None, "repetition": False}
    """What a record that leaves an option out meant, before either rule was a default:
    no limit, and play on through any repetition; an old game replays as it was played
    (``engine.record``)."""

    def __post_init__(self) -> None:
        for name, value in (("rows", self.rows), ("cols", self.cols)):
            if not 4 <= value <= 8:
                raise ValueError(f"a stones board has 4 to 8 {name}, not {value}")
        if self.ply_limit is not None and self.ply_limit < 1:
            raise ValueError(f"a move limit must be at least 1, not {self.ply_limit}")


def _forward(player: Player) -> int:
    return 1 if player is Player.A else -1


def _stacking(stone: Stone, there: tuple[Stone, ...], player: Player) -> str | None:
    """The kind of move when ``player``'s lone ``stone`` goes onto the stack ``there``
    (foundation, obelisk or pillar), or None when it may not."""
    if stone.kind is Kind.KEY and there == (Stone(player, Kind.CORNER),):
        return "foundation"
    if stone.kind is Kind.CAP:
        if there == (Stone(player, Kind.CORNER), Stone(player, Kind.KEY)):
            return "obelisk"
        if there[0].owner is not player and there[-1].kind is not Kind.CAP:
            return "pillar"
    return None


@dataclass(frozen=True)
class StonesGame:
    id: ClassVar[str] = "stones"
    options: StonesOptions = field(default_factory=StonesOptions)

    def new_initial_state(self) -> StonesState:
        """Each player's corner: capstone nearest right, keystone ahead, cornerstone left."""
        r, c = self.options.rows - 1, self.options.cols - 1
        a, b = Player.A, Player.B
        stacks = {
            (0, c): (Stone(a, Kind.CAP),), (1, c): (Stone(a, Kind.KEY),),
            (0, c - 1): (Stone(a, Kind.CORNER),),
            (r, 0): (Stone(b, Kind.CAP),), (r - 1, 0): (Stone(b, Kind.KEY),),
            (r, 1): (Stone(b, Kind.CORNER),),
        }
        state = StonesState(self, tuple(sorted(stacks.items())), Player.A, 0)
        if not state.legal_actions():  # e.g. balanced play on a board where A cannot start
            return replace(state, end=EndReason.NO_LEGAL_MOVES, winner=Player.B)
        return state


@dataclass(frozen=True)
class StonesState(Turns, NoChance):
    game: StonesGame
    stacks: Stacks
    to_play: Player
    plies: int
    end: EndReason | None = None
    winner: Player | None = None
    earlier: tuple[Position, ...] = field(default=(), compare=False, repr=False)
    """The positions before this one since the last foundation (none comes back after
    one: a foundation never comes apart), for the repetition rule."""

    # ---------------------------------------------------------------- reading

    @property
    def board(self) -> dict[Square, tuple[Stone, ...]]:
        return dict(self.stacks)

    @property
    def options(self) -> StonesOptions:
        return self.game.options

    def name(self, kind: Kind | str) -> str:
        return NAMES[self.options.edition][kind]

    @cached_property
    def _squares(self) -> dict[Stone, Square]:
        """Where each stone stands, worked out once a position (the rules ask often)."""
        return {stone: square for square, stack in self.stacks for stone in stack}

    def where(self, owner: Player, kind: Kind) -> Square:
        try:
            return self._squares[Stone(owner, kind)]
        except KeyError:
            raise KeyError((owner, kind)) from None

    def has_foundation(self, owner: Player) -> bool:
        return self.where(owner, Kind.CORNER) == self.where(owner, Kind.KEY)

    def pillar_of(self, player: Player) -> Square | None:
        """Where ``player``'s capstone stands on an opposing stone (it must come off)."""
        for square, stack in self.stacks:
            if len(stack) > 1 and stack[-1] == Stone(player, Kind.CAP) \
                    and stack[0].owner is not player:
                return square
        return None

    def is_terminal(self) -> bool:
        return self.end is not None

    def current_player(self) -> Player | None:
        return None if self.is_terminal() else self.to_play

    def outcome(self) -> Outcome | None:
        """Why it ended and who won; stones count no points."""
        if self.end is None:
            return None
        moves = f"after {counted(self.plies, 'move')}"
        if self.end is EndReason.OBELISK:
            builder = self.winner
            assert builder is not None, "the rules end on an obelisk with its builder the winner"
            lines = {builder: f"built the obelisk on "
                     f"{square_name(self.where(builder, Kind.CAP))} {moves}"}
        elif self.end is EndReason.NO_LEGAL_MOVES:
            loser = self.to_play
            lines = {loser: f"had no legal move {moves}", loser.other: "won: no move was left "
                     "to the opponent"}
        elif self.end is EndReason.REPETITION:
            lines = {p: f"drawn: the same position, {self.to_play} to move, a third time "
                     f"{moves}" for p in PLAYERS}
        else:
            lines = {p: f"drawn at the limit of {self.options.ply_limit} moves" for p in PLAYERS}
        breakdown = tuple((lines[p],) if p in lines else () for p in PLAYERS)
        return Outcome(self.end.value, self.winner, None, (breakdown[0], breakdown[1]),
                       ended=self.end.said)

    def returns(self) -> tuple[float, float]:
        return returns_of(self.outcome())

    def action_to_string(self, move: Move) -> str:
        """A move as people write it: from-square, dash, to-square (``d1-c2``)."""
        return str(move)

    def string_to_action(self, text: str) -> Move:
        """``action_to_string``'s inverse; ValueError for anything else."""
        frm, sep, to = text.strip().partition("-")
        if not sep:
            raise ValueError(f"{text!r} is not a move like d1-c2")
        return Move(parse_square(frm), parse_square(to))

    def observation(self) -> dict[str, Any]:
        """Everything on the board is in plain view: stacks, whose turn, symmetry."""
        letters = {Kind.CORNER: "corner", Kind.KEY: "key", Kind.CAP: "cap"}
        return {
            "game": "stones", "rows": self.options.rows, "cols": self.options.cols,
            "stacks": {square_name(sq): [f"{s.owner.value} {letters[s.kind]}" for s in stack]
                       for sq, stack in self.stacks},
            "names": {letters[k]: self.name(k) for k in Kind},
            "to_play": None if self.is_terminal() else self.to_play.value,
            "plies": self.plies,
            "symmetry": {p.value: list(self.symmetry(p)) for p in PLAYERS},
            "pillar": {p.value: (square_name(sq) if (sq := self.pillar_of(p)) else None)
                       for p in PLAYERS},
        }

    def _on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.options.rows and 0 <= square[1] < self.options.cols

    # ---------------------------------------------------------------- moves

    def _unit(self, square: Square, player: Player) -> tuple[Stone, ...] | None:
        """What ``player`` moves from ``square``: a stone, a foundation, a pillared
        stack of theirs (with the opposing capstone riding on it), or their pillar
        capstone alone."""
        stack = self.board.get(square)
        if not stack:
            return None
        if stack[-1] == Stone(player, Kind.CAP) and stack[0].owner is not player:
            return (stack[-1],)  # a pillar: the capstone comes off alone
        if stack[0].owner is player:
            return stack
        return None

    def _moves_from(self, square: Square, player: Player) -> Iterator[tuple[Move, str]]:
        """(move, kind) before the symmetry check; kind is step, jump, foundation,
        obelisk or pillar."""
        unit = self._unit(square, player)
        if unit is None:
            return
        board = self.board
        f = _forward(player)
        stone = unit[-1] if len(unit) == 1 else None  # alone: it may also stack
        for dr, dc in ((f, -1), (f, 1), (-f, 0)):
            near = (square[0] + dr, square[1] + dc)
            if not self._on_board(near):
                continue
            there = board.get(near)
            if not there:
                yield Move(square, near), "step"
                continue
            far = (near[0] + dr, near[1] + dc)
            if self._on_board(far) and not board.get(far):
                yield Move(square, far), "jump"
            if stone is None:
                continue  # a foundation, or a stone carrying a capstone, never stacks
            kind = _stacking(stone, there, player)
            if kind is not None:
                yield Move(square, near), kind

    def _candidate_moves(self) -> Iterator[tuple[Move, str]]:
        player = self.to_play
        forced = self.pillar_of(player)
        squares = [forced] if forced else [sq for sq, _ in self.stacks]
        for square in squares:
            yield from self._moves_from(square, player)

    @cached_property
    def _legal(self) -> dict[Move, str]:
        """Every legal move with its kind, worked out once per position (the table asks often)."""
        if self.is_terminal():
            return {}
        return {move: kind for move, kind in self._candidate_moves()
                if self._symmetric(self._after(move), self.to_play)}

    def legal_actions(self) -> list[Move]:
        """Every move the rules allow the player to play, symmetry included."""
        return list(self._legal)

    def apply_action(self, move: Move) -> StonesState:
        """The position after ``move``, or an IllegalMoveError saying why not."""
        if self.is_terminal():
            raise GameOverError("the game is over; start a new game to play again")
        if move not in self._legal:
            if move not in {m for m, _ in self._candidate_moves()}:
                raise IllegalMoveError(self._why_not(move))
            raise IllegalMoveError(
                f"that move would break symmetry: {self.options.mode.value} play needs "
                f"{_needs(self.options.mode)} after each of your moves"
            )
        kind = self._legal[move]
        return self._after(move)._settle(kind, self.to_play, self._remembered(kind))

    def _after(self, move: Move) -> StonesState:
        board = self.board
        stack = board.pop(move.frm)
        unit = self._unit(move.frm, self.to_play)
        assert unit is not None
        left = stack[: len(stack) - len(unit)]
        if left:
            board[move.frm] = left
        board[move.to] = board.get(move.to, ()) + unit
        return replace(self, stacks=tuple(sorted(board.items())))

    def stacks_after(self, move: Move) -> Stacks:
        """Where the stones stand once ``move`` is played (what the sensors will see)."""
        return self._after(move).stacks

    @property
    def repeated_as(self) -> Position:
        """What the repetition rule compares: the stones and who is to move."""
        return self.stacks, self.to_play

    def _remembered(self, kind: str) -> tuple[Position, ...]:
        """The positions the next one is compared with, this one included."""
        if kind == "foundation" or not self.options.repetition:
            return ()
        return (*self.earlier, self.repeated_as)

    def _settle(self, kind: str, mover: Player, earlier: tuple[Position, ...]) -> StonesState:
        state = replace(self, to_play=mover.other, plies=self.plies + 1, earlier=earlier)
        if kind == "obelisk":
            return replace(state, end=EndReason.OBELISK, winner=mover)
        if earlier.count(state.repeated_as) >= REPEATS_TO_DRAW - 1:
            return replace(state, end=EndReason.REPETITION, winner=None)
        limit = self.options.ply_limit
        if limit is not None and state.plies >= limit:
            return replace(state, end=EndReason.PLY_LIMIT, winner=None)
        if not state.legal_actions():
            return replace(state, end=EndReason.NO_LEGAL_MOVES, winner=mover)
        return state

    # ---------------------------------------------------------------- symmetry

    @staticmethod
    def _symmetric(state: StonesState, player: Player) -> bool:
        mode = state.options.mode
        colour = state._colour_symmetry(player)
        shape = state._shape_symmetry(player)
        if mode is Mode.OPEN:
            return colour or shape
        if mode is Mode.BOUNDED:
            return colour
        return colour and shape

    def symmetry(self, player: Player) -> tuple[bool, bool]:
        """(colour, shape): which symmetries ``player`` holds in this position."""
        return self._colour_symmetry(player), self._shape_symmetry(player)

    def _colour_symmetry(self, player: Player) -> bool:
        """Two of the player's own stones share a row or a column (a stack counts)."""
        squares = [self.where(player, k) for k in Kind]
        return any(a[0] == b[0] or a[1] == b[1]
                   for i, a in enumerate(squares) for b in squares[i + 1:])

    def _shape_symmetry(self, player: Player) -> bool:
        """A stone shares a row or column with the opponent's stone of the same kind."""
        for kind in Kind:
            a = self.where(player, kind)
            b = self.where(player.other, kind)
            if a[0] == b[0] or a[1] == b[1]:
                return True
        return False

    # ---------------------------------------------------------------- words

    def _why_not(self, move: Move) -> str:
        player = self.to_play
        forced = self.pillar_of(player)
        if forced and move.frm != forced:
            return (f"your {self.name(Kind.CAP)} on {square_name(forced)} must come off "
                    f"the {self.name('pillar')} this turn")
        unit = self._unit(move.frm, player)
        if unit is None:
            return f"{player} has nothing to move on {square_name(move.frm)}"
        what = self.describe(unit)
        if not self._on_board(move.to):
            return f"{square_name(move.to)} is off the board"
        dr, dc = move.to[0] - move.frm[0], move.to[1] - move.frm[1]
        f = _forward(player)
        if (dr, dc) not in ((f, -1), (f, 1), (-f, 0), (2 * f, -2), (2 * f, 2), (-2 * f, 0)):
            return (f"the {what} on {square_name(move.frm)} cannot go to "
                    f"{square_name(move.to)}: stones move one square diagonally forward or "
                    f"straight back, or {self.name('jump')} one stone that way")
        if abs(dr) == 2 or abs(dc) == 2:
            return (f"the {what} cannot {self.name('jump')} to {square_name(move.to)}: it must "
                    "land on an empty square just beyond an adjacent stone")
        return (f"the {what} cannot go onto {square_name(move.to)}: only a "
                f"{self.name(Kind.KEY)} onto its own {self.name(Kind.CORNER)}, or a "
                f"{self.name(Kind.CAP)} onto its own foundation or an opposing stone")

    def describe(self, unit: tuple[Stone, ...]) -> str:
        if len(unit) == 1:
            return f"{self.name(unit[0].kind)}"
        if unit[0].kind is Kind.CORNER and len(unit) >= 2 and unit[1].owner is unit[0].owner:
            rest = " with the opposing capstone on it" if len(unit) == 3 else ""
            return "foundation" + rest
        return f"{self.name(unit[0].kind)} with the opposing capstone on it"

    def move_to_string(self, move: Move) -> str:
        unit = self._unit(move.frm, self.to_play)
        kind = {m: k for m, k in self._candidate_moves()}.get(move, "move")
        word = {"jump": self.name("jump"), "pillar": self.name("pillar")}.get(kind, kind)
        what = self.describe(unit) if unit else "stone"
        return f"{what} {square_name(move.frm)}-{square_name(move.to)} ({word})"

    def __str__(self) -> str:
        board = self.board
        letters = {Kind.CORNER: "c", Kind.KEY: "k", Kind.CAP: "p"}
        lines = []
        for r in reversed(range(self.options.rows)):
            row = []
            for c in range(self.options.cols):
                stack = board.get((r, c), ())
                text = "".join(letters[s.kind].upper() if s.owner is Player.A
                               else letters[s.kind] for s in stack)
                row.append(f"{text or '.':<3}")
            lines.append(f"{r + 1} " + " ".join(row))
        lines.append("  " + " ".join(f"{ch:<3}" for ch in "abcdefgh"[: self.options.cols]))
        lines.append(f"{self.to_play} to move ({self.options.mode.value} play), ply {self.plies}")
        return "\n".join(lines)


def _needs(mode: Mode) -> str:
    return {Mode.OPEN: "colour or shape symmetry", Mode.BOUNDED: "colour symmetry",
            Mode.BALANCED: "colour and shape symmetry"}[mode]


__all__ = ["PLAYERS", "Edition", "EndReason", "IllegalMoveError", "Kind", "Mode", "Move",
           "Outcome", "Stone", "StonesGame", "StonesOptions", "StonesState", "square_name"]
