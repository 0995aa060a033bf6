"""The maze: the Architect gathers an obelisk, the Maze Master walls it in.

On an 8x8 board the Architect places the first obelisk segment (the obelisk
itself) and the Maze Master the other four, each on its own square; the
segments are numbered as the wooden ones are, 2 to 5 in the order they go
down (``MazeState.laid``). Then,
each turn, the Maze Master may stand one wall (ten in all) or pass, and the
Architect moves the obelisk like a chess queen. Ending a move on a segment
claims it. The Architect wins the moment all five are together within the
turn limit (20, or 15 or 25); otherwise the Maze Master wins.

A wall stands in one square and blocks two adjacent sides of it (an L, in
one of four orientations). A straight step is blocked by a wall side; a
diagonal step is blocked only when both ways around its corner point (two
straight steps) are cut. A wall that would leave any square unreachable
from the obelisk is refused. Squares are (row, col); row 0 is the
Architect's edge, "north" is up the rows.

The actions are in ``engine.maze.actions``, what a wall cuts and where the
obelisk can go in ``engine.maze.board``, the Architect's plan in
``engine.maze.plan``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Any

from engine.core import NoChance, Outcome, Turns, counted, parse_square, returns_of, square_name
from engine.errors import GameOverError, IllegalActionError, WrongPhaseError
from engine.maze.actions import (
    Action,
    Move,
    Orientation,
    Pass,
    PlaceSegment,
    PlaceWall,
    Square,
)
from engine.maze.board import (
    ALL,
    SIZE,
    block_around,
    cut_masks,
    flood,
    locally_safe,
    on_board,
    queen_moves,
    square_bit,
    steps_from,
    wall_bits,
    wall_edges,
)
from engine.players import Player

SEGMENTS = 5
WALLS = 10
"""The walls in the Maze Master's box."""
TURN_LIMITS = (15, 20, 25)


class Role(Enum):
    ARCHITECT = "architect"
    MAZE_MASTER = "maze_master"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def said(self) -> str:
        """The role as the rules name it in a sentence: "the Architect"."""
        return "the Architect" if self is Role.ARCHITECT else "the Maze Master"



    @property
    def player(self) -> Player:
        """The seat that plays the role: player A is the Architect."""
        return Player.A if self is Role.ARCHITECT else Player.B

    @staticmethod
    def of(player: Player) -> Role:
        return Role.ARCHITECT if player is Player.A else Role.MAZE_MASTER


ROLE_NAMES: dict[str, str] = {role.player.value: role.said for role in Role}
"""Each seat by the role it plays: {"A": "the Architect", "B": "the Maze Master"}."""


class Phase(Enum):
    FIRST_SEGMENT = "first_segment"  # the Architect places segment 1
    SEGMENTS = "segments"  # the Maze Master places segments 2 to 5
    WALL = "wall"  # the Maze Master walls or passes
    MOVE = "move"  # the Architect moves the obelisk
    OVER = "over"


class MazeError(IllegalActionError):
    """A wall or a move the rules do not allow; the message says why."""


@dataclass(frozen=True)
class MazeOptions:
    turns: int = 20
    walls: int = WALLS

    def __post_init__(self) -> None:
        if self.turns not in TURN_LIMITS:
            raise ValueError(f"the turn limit is 15, 20 or 25, not {self.turns}")
        if not 0 <= self.walls <= WALLS:
            raise ValueError(f"the Maze Master has 0 to {WALLS} walls, not {self.walls}")


class MazeGame:
    id = "maze"

    def __init__(self, options: MazeOptions | None = None) -> None:
        self.options = options or MazeOptions()

    def new_initial_state(self) -> MazeState:
        return MazeState(self)


@dataclass(frozen=True)
class MazeState(Turns, NoChance):
    game: MazeGame = field(repr=False, compare=False)
    phase: Phase = Phase.FIRST_SEGMENT
    obelisk: Square | None = None
    segments: frozenset[Square] = frozenset()  # unclaimed, still on the board
    claimed: int = 0  # segments in the obelisk, the first included
    walls: tuple[PlaceWall, ...] = ()
    turn: int = 0  # Architect moves made
    laid: tuple[Square, ...] = ()  # where segments 2, 3, ... went down, in that order

    def __post_init__(self) -> None:
        if self.segments and not self.laid:  # a position set up by hand: row by row from a1
            object.__setattr__(self, "laid", tuple(sorted(self.segments)))

    def number_on(self, square: Square) -> int:
        """The number of the segment the Maze Master put on ``square``: the label its wooden
        piece carries (the obelisk is 1; the table asks for 2 to 5 in turn)."""
        return self.laid.index(square) + 2

    @property
    def next_number(self) -> int:
        """The number of the segment to put down next (1: the obelisk)."""
        return 1 if self.obelisk is None else len(self.laid) + 2

    def piece_on(self, square: Square) -> str:
        """What stands on ``square``, as the set names it: "the obelisk", "segment 3"."""
        return "the obelisk" if square == self.obelisk else f"segment {self.number_on(square)}"

    @property
    def options(self) -> MazeOptions:
        return self.game.options

    @cached_property
    def cut(self) -> frozenset[frozenset[Square]]:
        return frozenset(e for w in self.walls for e in wall_edges(w))

    @cached_property
    def _cut_masks(self) -> dict[tuple[int, int], int]:
        return cut_masks(self.cut)

    @cached_property
    def steps(self) -> dict[tuple[int, int], int]:
        """For each direction, the squares a step that way may start from (bits), walls
        as they stand (``engine.maze.board.open_steps``, kept with the state)."""
        return steps_from(self._cut_masks)

    @cached_property
    def _whole(self) -> bool:
        """Every square is reachable now (always so between walls; checked, not assumed)."""
        return flood(self.steps, self.obelisk_square) == ALL

    @cached_property
    def _crowded(self) -> int:
        """Squares beside a wall (bits): a new wall there needs the full check."""
        near = 0
        for w in self.walls:
            for square in block_around(w.square):
                near |= square_bit(square)
        return near

    @property
    def obelisk_square(self) -> Square:
        """Where the obelisk stands: from the first segment on, it always stands somewhere."""
        if self.obelisk is None:
            raise WrongPhaseError("the obelisk is not on the board yet: the first segment "
                                  "placed is the obelisk")
        return self.obelisk

    @property
    def to_play(self) -> Role | None:
        if self.phase in (Phase.FIRST_SEGMENT, Phase.MOVE):
            return Role.ARCHITECT
        if self.phase in (Phase.SEGMENTS, Phase.WALL):
            return Role.MAZE_MASTER
        return None

    @property
    def turns_left(self) -> int:
        return self.options.turns - self.turn

    @property
    def walls_left(self) -> int:
        return self.options.walls - len(self.walls)

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def winner(self) -> Role | None:
        if not self.is_terminal():
            return None
        return Role.ARCHITECT if self.claimed == SEGMENTS else Role.MAZE_MASTER

    def current_player(self) -> Player | None:
        role = self.to_play
        return None if role is None else role.player

    def outcome(self) -> Outcome | None:
        """Who won, and how far the Architect got; the maze counts no points."""
        win = self.winner()
        if win is None:
            return None
        gathered = f"claimed {self.claimed} of {SEGMENTS} segments in {counted(self.turn, 'turn')}"
        walls = f"stood {len(self.walls)} of {self.options.walls} walls"
        why, said = ("all_claimed", "all five segments are together") \
            if win is Role.ARCHITECT else ("turns_out", "the turn limit")
        return Outcome(why, win.player, None, ((f"Architect: {gathered}",),
                                               (f"Maze Master: {walls}",)), ended=said)

    def returns(self) -> tuple[float, float]:
        """(Architect, Maze Master): player A is the Architect."""
        return returns_of(self.outcome())

    def action_to_string(self, action: Action) -> str:
        """``segment h8``, ``wall c3 NE``, ``pass``, ``obelisk d5``."""
        if isinstance(action, PlaceSegment):
            return f"segment {square_name(action.square)}"
        if isinstance(action, PlaceWall):
            return f"wall {square_name(action.square)} {action.orientation.value}"
        if isinstance(action, Move):
            return f"obelisk {square_name(action.to)}"
        return "pass"

    def string_to_action(self, text: str) -> Action:
        """``action_to_string``'s inverse; ValueError for anything else."""
        words = text.split()
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "segment":
            return PlaceSegment(parse_square(words[1]))
        if len(words) == 2 and words[0] == "obelisk":
            return Move(parse_square(words[1]))
        if len(words) == 3 and words[0] == "wall":
            return PlaceWall(parse_square(words[1]), Orientation(words[2].upper()))
        raise ValueError(f"{text!r} is not a maze action (segment h8, wall c3 NE, pass, "
                         "obelisk d5)")

    def observation(self) -> dict[str, Any]:
        """The whole board is in plain view."""
        return {
            "game": "maze", "size": SIZE, "phase": self.phase.value,
            "to_play": None if self.to_play is None else self.to_play.player.value,
            "obelisk": None if self.obelisk is None else square_name(self.obelisk),
            "segments": sorted(square_name(s) for s in self.segments),
            "numbers": {square_name(s): self.number_on(s) for s in sorted(self.segments)},
            "claimed": self.claimed,
            "walls": [[square_name(w.square), w.orientation.value] for w in self.walls],
            "turn": self.turn, "turns_left": self.turns_left, "walls_left": self.walls_left,
        }

    def wall_at(self, square: Square) -> PlaceWall | None:
        return next((w for w in self.walls if w.square == square), None)

    # ---------------------------------------------------------------- actions

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.FIRST_SEGMENT:
            return [PlaceSegment((r, c)) for r in range(SIZE) for c in range(SIZE)]
        if self.phase is Phase.SEGMENTS:
            taken = self.segments | {self.obelisk}
            return [PlaceSegment((r, c)) for r in range(SIZE) for c in range(SIZE)
                    if (r, c) not in taken]
        if self.phase is Phase.WALL:
            out: list[Action] = [Pass()]
            if self.walls_left:
                for r in range(SIZE):
                    for c in range(SIZE):
                        for o in Orientation:
                            wall = PlaceWall((r, c), o)
                            if not self._wall_problem(wall):
                                out.append(wall)
            return out
        if self.phase is Phase.MOVE:
            return [Move(sq) for sq in queen_moves(self.cut, self.obelisk_square)]
        return []

    def walls_on(self, squares: Iterable[Square]) -> list[PlaceWall]:
        """The walls the rules allow on these squares alone, in the order of
        ``legal_actions``: the search asks about a few squares, and checking those
        only is much quicker than listing every wall."""
        if self.phase is not Phase.WALL or not self.walls_left:
            return []
        return [PlaceWall(square, o) for square in sorted(set(squares)) for o in Orientation
                if not self._wall_problem(PlaceWall(square, o))]

    def _wall_problem(self, wall: PlaceWall) -> str:
        if not on_board(wall.square):
            return f"{wall.square} is not on the board"
        name = square_name(wall.square)
        if self.wall_at(wall.square) is not None:
            return f"{name} already has a wall"
        reach = self._reach_with(wall)
        if reach != ALL:
            shut = [(r, c) for r in range(SIZE) for c in range(SIZE)
                    if not reach & square_bit((r, c))]
            return (f"a wall on {name} blocking its {wall.orientation.words} would shut "
                    f"{square_name(shut[0])} off from the obelisk"
                    + (f" (and {len(shut) - 1} more)" if len(shut) > 1 else ""))
        return ""

    def _reach_with(self, wall: PlaceWall) -> int:
        """The squares the obelisk reaches once ``wall`` stands (bits)."""
        if not self._crowded & square_bit(wall.square) and locally_safe(wall) and self._whole:
            return ALL  # see "walls, fast" in engine.maze.board: each cut step has a detour
        cut = dict(self._cut_masks)
        for d, bit in wall_bits(wall):
            cut[d] |= bit
        return flood(steps_from(cut), self.obelisk_square)

    def apply_action(self, action: Action) -> MazeState:
        """The state after ``action``, or a MazeError / WrongPhaseError saying why not."""
        if self.is_terminal():
            raise GameOverError("the game is over")
        if isinstance(action, PlaceSegment):
            return self._place_segment(action.square)
        if isinstance(action, PlaceWall | Pass):
            if self.phase is not Phase.WALL:
                raise WrongPhaseError("walls go up at the start of a turn, before the "
                                      "Architect moves")
            if isinstance(action, Pass):
                return replace(self, phase=Phase.MOVE)
            if not self.walls_left:
                raise MazeError(f"all {self.options.walls} walls are standing: pass instead")
            problem = self._wall_problem(action)
            if problem:
                raise MazeError(problem)
            return replace(self, phase=Phase.MOVE, walls=(*self.walls, action))
        if isinstance(action, Move):
            return self._move(action.to)
        raise MazeError(f"{action!r} is not a maze action")

    def _place_segment(self, square: Square) -> MazeState:
        if self.phase not in (Phase.FIRST_SEGMENT, Phase.SEGMENTS):
            raise WrongPhaseError("segments are placed before the first turn only")
        if not on_board(square):
            raise MazeError(f"{square} is not on the board")
        if self.phase is Phase.FIRST_SEGMENT:
            return replace(self, phase=Phase.SEGMENTS, obelisk=square, claimed=1)
        if square == self.obelisk or square in self.segments:
            raise MazeError(f"{square_name(square)} already holds {self.piece_on(square)}: "
                            "each segment goes on a square of its own")
        segments = self.segments | {square}
        done = len(segments) == SEGMENTS - 1
        return replace(self, segments=segments, laid=(*self.laid, square),
                       phase=Phase.WALL if done else Phase.SEGMENTS)

    def _move(self, to: Square) -> MazeState:
        if self.phase is not Phase.MOVE:
            raise WrongPhaseError("the Maze Master walls or passes first")
        frm = self.obelisk_square
        if to not in queen_moves(self.cut, frm):
            raise MazeError(self.why_not(frm, to))
        claimed = self.claimed + (to in self.segments)
        state = replace(self, obelisk=to, segments=self.segments - {to}, claimed=claimed,
                        turn=self.turn + 1, phase=Phase.WALL)
        if claimed == SEGMENTS or state.turns_left == 0:
            state = replace(state, phase=Phase.OVER)
        return state

    def why_not(self, frm: Square, to: Square) -> str:
        """Why the obelisk cannot go from ``frm`` to ``to`` (for a refused move)."""
        dr, dc = to[0] - frm[0], to[1] - frm[1]
        if not on_board(to):
            return f"{to} is not on the board"
        if (dr, dc) == (0, 0):
            return "the obelisk must move"
        if dr and dc and abs(dr) != abs(dc):
            return (f"{square_name(frm)} to {square_name(to)} is not a straight or diagonal "
                    "line: the obelisk moves like a queen")
        return f"a wall stands between {square_name(frm)} and {square_name(to)}"

    def __str__(self) -> str:
        rows = []
        for r in reversed(range(SIZE)):
            line = []
            for c in range(SIZE):
                sq = (r, c)
                wall = self.wall_at(sq)
                mark = "O" if sq == self.obelisk \
                    else str(self.number_on(sq)) if sq in self.segments else "."
                line.append(mark + (wall.orientation.value if wall else "  "))
            rows.append(f"{r + 1} " + " ".join(line))
        rows.append("  " + " ".join(f"{c}  " for c in "abcdefgh"))
        return "\n".join(rows)
