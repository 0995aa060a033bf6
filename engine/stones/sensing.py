"""Which stones move it was, from what the board's sensors can tell.

A switch per square sees occupancy only; an optional stack-height sensor per
square (extra switches at the height of a second and third stone) also tells
how tall each stack is. Either way the table compares the settled view with
what each legal move would leave, never with a list of sensor events:

- a step or a jump empties one square and fills another;
- stacking (a foundation, the obelisk, a pillar) only empties a square for
  occupancy switches, and also raises the stack it lands on for height
  sensors, which therefore tell every stacking apart;
- a capstone coming off a pillar only fills a square (and lowers the pillar);
- a pillar capstone stacking again changes nothing occupancy switches can
  see, so the player says they moved with their button (``unchanged=True``).

When several legal moves leave the same view, all are returned, and the
table lets the player pick one with their button.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import InferenceError, NothingPlacedError
from engine.reading import Reading
from engine.stones.game import Move, Square, StonesState, square_name

Heights = frozenset[tuple[Square, int]]


@dataclass(frozen=True)
class BoardView:
    """The settled board as the sensors report it.

    ``heights`` holds each occupied square with its stack height as far as
    the sensors can tell: capped at ``levels`` (1 for occupancy switches).
    """

    heights: Heights
    levels: int = 1

    @classmethod
    def of(cls, heights: Iterable[tuple[Square, int]], levels: int = 1) -> BoardView:
        """What sensors telling ``levels`` heights see of these real stacks."""
        return cls(frozenset((sq, min(h, levels)) for sq, h in heights if h > 0), levels)

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset(square for square, _ in self.heights)


def stack_heights(state: StonesState) -> Heights:
    """How tall the stack on each occupied square really is."""
    return frozenset((square, len(stack)) for square, stack in state.stacks)


def sight(state: StonesState, levels: int = 1) -> BoardView:
    """What the board's sensors read when the stones stand as in ``state``."""
    return BoardView.of(stack_heights(state), levels)


def sight_after(state: StonesState, move: Move, levels: int = 1) -> BoardView:
    """What the sensors read once ``move`` has been made on the board."""
    return BoardView.of(((sq, len(st)) for sq, st in state.stacks_after(move)), levels)


def lifted_sight(state: StonesState, square: Square, levels: int = 1) -> BoardView:
    """What the sensors read while the top stone of ``square`` is held in the air."""
    return BoardView.of(((sq, len(st) - (sq == square)) for sq, st in state.stacks), levels)


def candidate_moves(state: StonesState, seen: BoardView, *,
                    unchanged: bool = False) -> tuple[Move, ...]:
    """Every legal move that leaves exactly the view ``seen``.

    Raises NothingPlacedError when nothing changed (and ``unchanged`` is not
    asked for), and InferenceError, naming the squares, when no legal move
    explains what the sensors see.
    """
    before = sight(state, seen.levels)
    if seen == before and not unchanged:
        raise NothingPlacedError("no stone has moved")
    fits = tuple(m for m in state.legal_actions() if sight_after(state, m, seen.levels) == seen)
    if fits:
        return fits
    raise InferenceError(
        f"no legal move of {state.to_play} {_changes(before, seen)}: "
        "put the stones back as they were"
    )


@lru_cache(maxsize=32)
def read_view(state: StonesState, seen: BoardView) -> Reading:
    """What ``seen`` means in ``state``: the move it shows, the moves to pick among, or
    a stone in the air (its destinations light; to occupancy switches it may also be a
    stack, offered to pick). Worked out once per reading: the short settle window asks
    it as the reading arrives, the decision once it has settled."""
    if seen == sight(state, seen.levels):
        return Reading()
    legal = state.legal_actions()
    for square in sorted({m.frm for m in legal}):
        if seen == lifted_sight(state, square, seen.levels):
            stacks = tuple((m,) for m in legal
                           if m.frm == square and sight_after(state, m, seen.levels) == seen)
            return Reading(lifted=square, choices=stacks,
                           chooser=state.to_play if stacks else None)
    return Reading.of(tuple((m,) for m in candidate_moves(state, seen)), state.to_play)


def _changes(before: BoardView, seen: BoardView) -> str:
    was, now = dict(before.heights), dict(seen.heights)
    gone = sorted(set(was) - set(now))
    new = sorted(set(now) - set(was))
    taller = sorted(sq for sq in set(was) & set(now) if now[sq] != was[sq])
    parts = []
    if gone:
        parts.append("empties " + ", ".join(square_name(s) for s in gone))
    if new:
        parts.append("fills " + ", ".join(square_name(s) for s in new))
    if taller:
        parts.append("changes the stack on " + ", ".join(square_name(s) for s in taller))
    return " and ".join(parts) or "changes nothing the switches can see"


def destinations(state: StonesState, square: Square) -> frozenset[Square]:
    """Where the stone lifted from ``square`` may legally go (to light them)."""
    return frozenset(m.to for m in state.legal_actions() if m.frm == square)
