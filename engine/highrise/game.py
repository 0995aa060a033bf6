"""High Rise: pyramids stacked over hidden values, control scored at the end.

Every square of the board starts with a hidden value from 1 to 6 under a
neutral cover. The players take turns putting one of their own pyramids
(1, 2 or 3 pips) on top of any stack. When both have placed every piece,
each stack goes to whoever has more own pips in it, who scores the
opponent's pips there plus the hidden value; a tied stack scores nothing.

The hidden values are the game's chance: a new game starts at chance nodes,
one die per square and then who goes first, resolved from a seed
(``engine.core.play_chance``), so the same seed plays the same game. A state
holds the values, but nothing public shows them before the end: its
equality, hash, text and ``observation()`` depend on public facts only
(whose turn, how many pieces each has left; the observation also whose
pyramids stand where, never their sizes), and ``stacks_scored()`` answers
only once the game is over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from engine.core import ChanceStream, Outcome, Turns, counted, parse_square, returns_of, square_name
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
class Roll:
    """Chance: the hidden value under the next square's cover."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True)
class Starts:
    """Chance: who places first."""

    player: Player

    def __str__(self) -> str:
        return f"first {self.player.value}"


class HiddenError(IllegalActionError):
    """A question whose answer the rules keep hidden until the end."""


class HighriseGame:
    id = "highrise"

    def __init__(self, options: HighriseOptions | None = None) -> None:
        self.options = options or HighriseOptions()

    def new_initial_state(self) -> HighriseState:
        """Covered stacks before the dice: a chance node for each square, then the first."""
        pieces = self.options.pieces()
        left = (pieces[Size.SMALL], pieces[Size.MEDIUM], pieces[Size.LARGE])
        return HighriseState(self, (), ((),) * self.options.cells, (left, left), Player.A, None)

    def state_with(self, values: tuple[int, ...], first: Player) -> HighriseState:
        """The start position for given hidden values (a test, or a game told by hand)."""
        if len(values) != self.options.cells or not all(1 <= v <= 6 for v in values):
            raise ValueError(f"{self.options.cells} hidden values from 1 to 6 are needed")
        state = self.new_initial_state()
        for value in values:
            state = state.apply_action(Roll(value))
        return state.apply_action(Starts(first))


@dataclass(frozen=True, eq=False)
class HighriseState(Turns):
    """A High Rise position. Equality, hash and text are of the public facts only."""

    game: HighriseGame = field(repr=False)
    values: tuple[int, ...] = field(repr=False)  # hidden until the end
    stacks: tuple[tuple[tuple[Player, Size], ...], ...] = field(repr=False)  # bottom..top
    left: tuple[tuple[int, int, int], tuple[int, int, int]] = field(repr=False)
    to_play: Player
    first: Player | None
    plies: int = 0

    @property
    def options(self) -> HighriseOptions:
        return self.game.options

    @property
    def _public(self) -> tuple[int, int, Player, Player | None, int, int, int, int]:
        """What anyone at the table knows: the board, whose turn, the move, pieces left."""
        return (self.options.rows, self.options.cols, self.to_play, self.first, self.plies,
                len(self.values), self.pieces_left(Player.A), self.pieces_left(Player.B))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HighriseState) and self._public == other._public

    def __hash__(self) -> int:
        return hash(self._public)

    def index(self, square: Square) -> int:
        r, c = square
        if not (0 <= r < self.options.rows and 0 <= c < self.options.cols):
            name = square_name(square) if 0 <= r < 8 and 0 <= c < 8 else str(square)
            raise PieceError(f"{name} is not on the {self.options.rows}x{self.options.cols} "
                             "board")
        return r * self.options.cols + c

    def square(self, index: int) -> Square:
        return divmod(index, self.options.cols)

    def pieces_left(self, player: Player) -> int:
        return sum(self.left[player.index])

    def has(self, player: Player, size: Size) -> bool:
        return self.left[player.index][size.value - 1] > 0

    # ---------------------------------------------------------------- chance

    def is_chance_node(self) -> bool:
        return self.first is None

    def chance_outcomes(self) -> list[tuple[Roll | Starts, float]]:
        if len(self.values) < self.options.cells:
            return [(Roll(v), 1 / 6) for v in range(1, 7)]
        if self.first is None:
            return [(Starts(p), 0.5) for p in PLAYERS]
        return []

    def sample_hidden(self, stream: ChanceStream) -> HighriseState:
        """This position with every hidden value drawn afresh from ``stream``.

        Nothing a player sees tells them anything about the values before the
        end, so any values are as likely as the true ones: the result is a
        position either player may be in, and a search that plays from such
        samples never reads the real values. Before the dice are rolled, and
        once every piece is placed (the values are shown), there is nothing
        to draw: the position comes back as it is.
        """
        if self.is_chance_node() or self.is_terminal():
            return self
        drawn: list[int] = []
        while len(drawn) < self.options.cells:  # up to 24 dice a draw: 6**24 < 2**64
            dice = min(24, self.options.cells - len(drawn))
            number = stream.below(6 ** dice)
            for _ in range(dice):
                number, die = divmod(number, 6)
                drawn.append(die + 1)
        return replace(self, values=tuple(drawn))

    # ---------------------------------------------------------------- playing

    def current_player(self) -> Player | None:
        return None if self.is_chance_node() or self.is_terminal() else self.to_play

    def is_terminal(self) -> bool:
        return not self.is_chance_node() and all(self.pieces_left(p) == 0 for p in PLAYERS)

    def legal_actions(self) -> list[Place | Roll | Starts]:
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        sizes = [s for s in Size if self.has(self.to_play, s)]
        return [Place(self.square(i), s) for i in range(self.options.cells) for s in sizes]

    def apply_action(self, action: Place | Roll | Starts) -> HighriseState:
        """The state after a chance outcome, or after the player to move places a piece."""
        if isinstance(action, Roll | Starts):
            if action not in self.legal_actions() or not self.is_chance_node():
                raise IllegalActionError(f"{action} is no chance outcome here")
            if isinstance(action, Roll):
                return replace(self, values=(*self.values, action.value))
            return replace(self, first=action.player, to_play=action.player)
        if self.is_chance_node():
            raise IllegalActionError("the hidden values are not rolled yet")
        if self.is_terminal():
            raise GameOverError("every piece is placed: the game is over")
        i = self.index(action.square)
        player = self.to_play
        if not self.has(player, action.size):
            raise PieceError(f"{player} has no {action.size.label} pieces left")
        left = list(self.left)
        mine = list(left[player.index])
        mine[action.size.value - 1] -= 1
        left[player.index] = (mine[0], mine[1], mine[2])
        stacks = list(self.stacks)
        stacks[i] = stacks[i] + ((player, action.size),)
        nxt = player.other if self.pieces_left(player.other) else player
        return replace(self, stacks=tuple(stacks), left=(left[0], left[1]),
                       to_play=nxt, plies=self.plies + 1)

    # ---------------------------------------------------------------- words

    def action_to_string(self, action: Place | Roll | Starts) -> str:
        """``medium b2`` (a pyramid's size, then its square); ``roll 4``, ``first A``."""
        if isinstance(action, Place):
            return f"{action.size.label} {square_name(action.square)}"
        return str(action)

    def string_to_action(self, text: str) -> Place | Roll | Starts:
        """``action_to_string``'s inverse; ValueError for anything else."""
        words = text.split()
        if len(words) == 2 and words[0] == "roll" and words[1] in ("1", "2", "3", "4", "5", "6"):
            return Roll(int(words[1]))
        if len(words) == 2 and words[0] == "first":
            return Starts(Player(words[1]))
        sizes = {s.label: s for s in Size}
        if len(words) == 2 and words[0] in sizes:
            return Place(parse_square(words[1]), sizes[words[0]])
        raise ValueError(f"{text!r} is not a High Rise placement like \"medium b2\"")

    # ---------------------------------------------------------------- scoring

    def stacks_scored(self) -> tuple[StackScore, ...]:
        """Every stack's value, pips, controller and points: only once the game is over."""
        if not self.is_terminal():
            raise HiddenError("the stacks and their values are revealed only at the end")
        return tuple(self._stack_score(i) for i in range(self.options.cells))

    def _stack_score(self, index: int) -> StackScore:
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
        """Scores and the winner once every piece is placed (the stacks that earned them)."""
        if not self.is_terminal():
            return None
        scores = [0, 0]
        lines: tuple[list[str], list[str]] = ([], [])
        for s in self.stacks_scored():
            if s.controller is not None:
                scores[s.controller.index] += s.points
                lines[s.controller.index].append(
                    f"{square_name(s.square)}: {s.points} ("
                    f"{counted(s.pips[s.controller.other.index], 'opposing pip')} + value "
                    f"{s.value})")
        winner = None if scores[0] == scores[1] else \
            (Player.A if scores[0] > scores[1] else Player.B)
        return Outcome("all_placed", winner, (scores[0], scores[1]),
                       (tuple(lines[0]), tuple(lines[1])),
                       ended="both players have placed every piece")

    def returns(self) -> tuple[float, float]:
        return returns_of(self.outcome())

    def observation(self) -> dict[str, Any]:
        """Whose turn, pieces left and whose pyramids stand on each square, bottom to top (as
        everyone at the table saw them placed, in their owners' colours); their sizes, what
        the stacks hold and their values only once the game is over."""
        seen: dict[str, Any] = {
            "game": "highrise", "rows": self.options.rows, "cols": self.options.cols,
            "to_play": None if self.current_player() is None else self.to_play.value,
            "plies": self.plies,
            "pieces_left": {p.value: self.pieces_left(p) for p in PLAYERS},
            "owners": {square_name(self.square(i)): [owner.value for owner, _ in stack]
                       for i, stack in enumerate(self.stacks) if stack}}
        if self.is_terminal():
            seen["stacks"] = [{"square": square_name(s.square), "value": s.value,
                               "pips": {"A": s.pips[0], "B": s.pips[1]},
                               "controller": s.controller.value if s.controller else None,
                               "points": s.points} for s in self.stacks_scored()]
        return seen

    def public(self) -> str:
        """What everyone at the table may know: whose turn, and pieces left."""
        when = "every piece placed" if self.is_terminal() else f"move {self.plies + 1}"
        lines = [f"High Rise {self.options.rows}x{self.options.cols}, {when}"]
        for p in PLAYERS:
            mark = "  <- to play" if p is self.current_player() else ""
            lines.append(f"  {p}: {counted(self.pieces_left(p), 'piece')} left{mark}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.public()

    def __repr__(self) -> str:
        return f"HighriseState({self.public()!r})"
