"""High Rise: pyramids stacked over hidden values, control scored at the end.

Every square of the board starts with a hidden value from 1 to 6 under a
neutral cover. The players take turns putting one of their own pyramids
(1, 2 or 3 pips) on top of any stack. When both have placed every piece,
each stack goes to whoever has more own pips in it, who scores the
opponent's pips there plus the hidden value; a tied stack scores nothing.

The table rolls the hidden values itself, from a seed (``roll``), so a game
can be replayed; the state holds them, and it is up to whoever shows the
state to people not to show them before the end (see ``public``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.errors import GameOverError, IllegalActionError
from engine.players import PLAYERS, Player

Square = tuple[int, int]


class Size(Enum):
    """A pyramid's size, which is also its pips."""

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class PieceError(IllegalActionError):
    """The player has no such piece, or it cannot go there."""


@dataclass(frozen=True)
class HighriseOptions:
    rows: int = 3
    cols: int = 3

    def __post_init__(self) -> None:
        if not (3 <= self.rows <= 8 and 3 <= self.cols <= 8):
            raise ValueError(f"a High Rise board is 3x3 to 8x8, not {self.rows}x{self.cols}")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def stashes(self) -> int:
        """Stashes per player: one stash of five colours covers five squares."""
        return math.ceil(self.cells / 5)

    def pieces(self) -> dict[Size, int]:
        """Each player's pieces: every stash's five of a size, five small ones set aside."""
        n = 5 * self.stashes
        return {Size.SMALL: n - 5, Size.MEDIUM: n, Size.LARGE: n}

    @property
    def pieces_each(self) -> int:
        return sum(self.pieces().values())


@dataclass(frozen=True)
class Place:
    """The player to move puts a pyramid of ``size`` on the stack at ``square``."""

    square: Square
    size: Size

    def __str__(self) -> str:
        return f"{self.size.label} pyramid on {square_name(self.square)}"


@dataclass(frozen=True)
class StackScore:
    square: Square
    value: int
    pips: tuple[int, int]  # A's, B's
    controller: Player | None
    points: int


@dataclass(frozen=True)
class Outcome:
    winner: Player | None
    scores: tuple[int, int]
    stacks: tuple[StackScore, ...]


def square_name(square: Square) -> str:
    return "abcdefgh"[square[1]] + str(square[0] + 1)


def _mix(x: int) -> int:
    """One splitmix64 step: a fixed, well-spread sequence from any seed."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def roll(seed: int, count: int) -> tuple[tuple[int, ...], Player]:
    """``count`` fair six-sided values and who goes first, all from ``seed``.

    Written out here (not ``random``) so the same seed rolls the same game on
    every Python version, and the engine needs nothing from outside.
    """
    state = _mix(_mix(seed & 0xFFFFFFFFFFFFFFFF) ^ (seed >> 64 & 0xFFFFFFFFFFFFFFFF))
    out: list[int] = []
    limit = (1 << 64) - (1 << 64) % 6  # reject the top sliver: every face equally likely
    while len(out) < count + 1:
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = _mix(state)
        if z < limit:
            out.append(z % 6 + 1)
    return tuple(out[:count]), PLAYERS[out[count] % 2]


class HighriseGame:
    def __init__(self, options: HighriseOptions | None = None) -> None:
        self.options = options or HighriseOptions()

    def new_initial_state(self, seed: int) -> HighriseState:
        """A board of covered stacks with values rolled from ``seed``."""
        values, first = roll(seed, self.options.cells)
        return self.state_with(values, first)

    def state_with(self, values: tuple[int, ...], first: Player) -> HighriseState:
        """The start position for given hidden values (a resume, or a test)."""
        if len(values) != self.options.cells or not all(1 <= v <= 6 for v in values):
            raise ValueError(f"{self.options.cells} hidden values from 1 to 6 are needed")
        left = tuple(self.options.pieces()[s] for s in Size)
        return HighriseState(self, tuple(values), ((),) * self.options.cells,
                             (left, left), first, first)


@dataclass(frozen=True)
class HighriseState:
    game: HighriseGame = field(repr=False, compare=False)
    values: tuple[int, ...] = field(repr=False)  # hidden until the end
    stacks: tuple[tuple[tuple[Player, Size], ...], ...] = field(repr=False)  # bottom..top
    left: tuple[tuple[int, int, int], tuple[int, int, int]]  # per player, per size
    to_play: Player
    first: Player
    plies: int = 0

    @property
    def options(self) -> HighriseOptions:
        return self.game.options

    def index(self, square: Square) -> int:
        r, c = square
        if not (0 <= r < self.options.rows and 0 <= c < self.options.cols):
            name = square_name(square) if r >= 0 and 0 <= c < 8 else str(square)
            raise PieceError(f"{name} is not on the {self.options.rows}x{self.options.cols} "
                             "board")
        return r * self.options.cols + c

    def square(self, index: int) -> Square:
        return divmod(index, self.options.cols)

    def pieces_left(self, player: Player) -> int:
        return sum(self.left[player.index])

    def has(self, player: Player, size: Size) -> bool:
        return self.left[player.index][size.value - 1] > 0

    def is_terminal(self) -> bool:
        return all(self.pieces_left(p) == 0 for p in PLAYERS)

    def legal_actions(self) -> list[Place]:
        if self.is_terminal():
            return []
        sizes = [s for s in Size if self.has(self.to_play, s)]
        return [Place(self.square(i), s) for i in range(self.options.cells) for s in sizes]

    def apply_action(self, action: Place) -> HighriseState:
        """The state after the player to move puts a piece on a stack."""
        if self.is_terminal():
            raise GameOverError("every piece is placed: the game is over")
        i = self.index(action.square)
        player = self.to_play
        if not self.has(player, action.size):
            raise PieceError(f"{player} has no {action.size.label} pieces left")
        left = list(self.left)
        mine = list(left[player.index])
        mine[action.size.value - 1] -= 1
        left[player.index] = tuple(mine)
        stacks = list(self.stacks)
        stacks[i] = stacks[i] + ((player, action.size),)
        nxt = player.other if self.pieces_left(player.other) else player
        return replace(self, stacks=tuple(stacks), left=(left[0], left[1]),
                       to_play=nxt, plies=self.plies + 1)

    # ---------------------------------------------------------------- scoring

    def stack_score(self, index: int) -> StackScore:
        pips = [0, 0]
        for owner, size in self.stacks[index]:
            pips[owner.index] += size.value
        controller = None
        if pips[0] != pips[1]:
            controller = Player.A if pips[0] > pips[1] else Player.B
        points = 0 if controller is None else pips[controller.other.index] + self.values[index]
        return StackScore(self.square(index), self.values[index], (pips[0], pips[1]),
                          controller, points)

    def outcome(self) -> Outcome | None:
        """Scores and the winner once every piece is placed; None before."""
        if not self.is_terminal():
            return None
        stacks = tuple(self.stack_score(i) for i in range(self.options.cells))
        scores = [0, 0]
        for s in stacks:
            if s.controller is not None:
                scores[s.controller.index] += s.points
        winner = None if scores[0] == scores[1] else \
            (Player.A if scores[0] > scores[1] else Player.B)
        return Outcome(winner, (scores[0], scores[1]), stacks)

    def returns(self) -> tuple[float, float]:
        outcome = self.outcome()
        if outcome is None or outcome.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if outcome.winner is Player.A else (-1.0, 1.0)

    def public(self) -> str:
        """What everyone at the table may know: whose turn, and pieces left."""
        when = "every piece placed" if self.is_terminal() else f"move {self.plies + 1}"
        lines = [f"High Rise {self.options.rows}x{self.options.cols}, {when}"]
        for p in PLAYERS:
            mark = "  <- to play" if p is self.to_play and not self.is_terminal() else ""
            lines.append(f"  {p}: {self.pieces_left(p)} pieces left{mark}")
        return "\n".join(lines)
