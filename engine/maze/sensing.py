"""Which maze action it was, from two switches under each square.

One switch per square closes under a piece (the obelisk or a segment); a
second one, of the other polarity, closes under a wall. The table compares
the settled view with what the position shows:

- before the game, each new piece is the next segment;
- at the start of a turn, one new wall is the Maze Master's (which way it
  faces the switches cannot tell: the Maze Master picks it with their button);
- in the Architect's move, the obelisk leaving one square and appearing on
  an empty one is that move. The obelisk stepping onto a segment changes no
  switch there, so a square that only emptied is the obelisk in the air or a
  claim: the claims are offered for the Architect to pick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import square_name
from engine.errors import InferenceError
from engine.maze.actions import Move, Orientation, PlaceSegment, PlaceWall, Square
from engine.maze.board import queen_moves
from engine.maze.game import SEGMENTS, MazeState, Phase
from engine.reading import Reading, Takeback


class MazeSensingError(InferenceError):
    """The switches show something no action explains; ``squares`` are to be lit."""


@dataclass(frozen=True)
class MazeView:
    pieces: frozenset[Square] = frozenset()
    walls: frozenset[Square] = frozenset()


def sight(state: MazeState) -> MazeView:
    """What the switches read when the pieces and walls stand as in ``state``."""
    pieces = set(state.segments)
    if state.obelisk is not None:
        pieces.add(state.obelisk)
    return MazeView(frozenset(pieces), frozenset(w.square for w in state.walls))


def _names(squares: Iterable[Square]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares))


def _back(state: MazeState, squares: Iterable[Square]) -> str:
    """The pieces that stood on ``squares``, each to put back: "segment 2 back on b5"."""
    return " and ".join(f"{state.piece_on(square)} back on {square_name(square)}"
                        for square in sorted(squares))


def _put_back(state: MazeState, gone: frozenset[Square], new: frozenset[Square]) -> str:
    """What puts the board back: each piece that left its square back on it, and a piece
    more taken off. One piece moved from one square to another is that same piece, named
    once: "put the obelisk on c7 back on a7"."""
    if len(gone) == 1 and len(new) == 1:
        (frm,), (to,) = gone, new
        return f"put {state.piece_on(frm)} on {square_name(to)} back on {square_name(frm)}"
    fixes = [f"put {_back(state, gone)}"] if gone else []
    fixes += [f"take the piece off {_names(new)}"] if new else []
    return " and ".join(fixes)


def read_view(state: MazeState, view: MazeView) -> Reading:
    """The meaning of ``view`` in ``state``; MazeSensingError when it has none."""
    seen = sight(state)
    if view == seen:
        return Reading()
    gone, new = seen.pieces - view.pieces, view.pieces - seen.pieces
    walls_gone, walls_new = seen.walls - view.walls, view.walls - seen.walls
    if walls_gone:
        raise MazeSensingError(f"the wall on {_names(walls_gone)} was taken away: put it "
                               "back", tuple(sorted(walls_gone)))
    phase = state.phase
    if phase in (Phase.FIRST_SEGMENT, Phase.SEGMENTS):
        return _segments_placed(state, gone, new, walls_new)
    if phase is Phase.WALL:
        return _wall_placed(state, gone, new, walls_new)
    if phase is Phase.MOVE:
        return _obelisk_moved(state, gone, new, walls_new)
    raise MazeSensingError("the game is over", ())


def _segments_placed(state: MazeState, gone: frozenset[Square], new: frozenset[Square],
                     walls_new: frozenset[Square]) -> Reading:
    """Before the game: the new pieces are segments, no more than are left to place."""
    if walls_new:
        raise MazeSensingError(f"no walls before the first turn: take the wall off "
                               f"{_names(walls_new)}", tuple(sorted(walls_new)))
    if gone:
        raise MazeSensingError("segments stay where they were put: "
                               + _put_back(state, gone, new), tuple(sorted(gone | new)))
    wanted = 1 if state.phase is Phase.FIRST_SEGMENT else SEGMENTS - 1 - len(state.segments)
    if len(new) > wanted:
        raise MazeSensingError(f"{len(new)} new pieces but only {wanted} to place: take "
                               "the extra off", tuple(sorted(new)))
    return Reading(actions=tuple(PlaceSegment(s) for s in sorted(new)))


def _wall_placed(state: MazeState, gone: frozenset[Square], new: frozenset[Square],
                 walls_new: frozenset[Square]) -> Reading:
    """At the start of a turn: one new wall, its orientation still to be picked."""
    if gone or new:  # each piece named once, and where it goes: "put the obelisk back on g7"
        raise MazeSensingError("the Maze Master walls or passes first: "
                               + _put_back(state, gone, new), tuple(sorted(gone | new)))
    if len(walls_new) > 1:
        raise MazeSensingError(f"one wall a turn: take one off {_names(walls_new)}",
                               tuple(sorted(walls_new)))
    if state.walls_left == 0:
        raise MazeSensingError(f"all {state.options.walls} walls are standing: take the "
                               f"one off {_names(walls_new)}", tuple(sorted(walls_new)))
    square = next(iter(walls_new))
    return Reading(choices=tuple((PlaceWall(square, o),) for o in Orientation),
                   chooser=state.current_player())


def _obelisk_moved(state: MazeState, gone: frozenset[Square], new: frozenset[Square],
                   walls_new: frozenset[Square]) -> Reading:
    """The Architect's move: the obelisk on a new square, or lifted (a claim to pick)."""
    if walls_new:
        raise MazeSensingError(f"a wall goes up only at the start of a turn: take it off "
                               f"{_names(walls_new)}", tuple(sorted(walls_new)))
    frm = state.obelisk_square
    if gone != {frm} or len(new) > 1:
        moved = gone - {frm}
        back = _back(state, moved) if moved else "the segments back"
        raise MazeSensingError(f"only the obelisk moves, one square to another: put {back}",
                               tuple(sorted(gone | new)))
    moves = queen_moves(state.cut, frm)
    if new:
        to = next(iter(new))
        if to not in moves:
            raise MazeSensingError(f"the obelisk cannot go from {square_name(frm)} to "
                                   f"{square_name(to)}: {state.why_not(frm, to)}",
                                   (to,))
        return Reading(actions=(Move(to),))
    claims = tuple((Move(s),) for s in moves if s in state.segments)
    return Reading(lifted=frm, choices=claims, chooser=state.current_player() if claims else None)


def takeback_of(history: Sequence[MazeState], view: MazeView) -> Takeback | None:
    """The board as it stood before the last actions (a wall taken off again, the obelisk
    put back): those actions may be taken back by the players who made them."""
    for to in reversed(range(len(history) - 1)):
        if sight(history[to]) == view:
            owners = {player for state in history[to:-1]
                      if (player := state.current_player()) is not None}
            return Takeback(to, frozenset(owners))
    return None
