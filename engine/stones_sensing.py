"""Which stones move it was, from a switch per square that sees occupancy only.

The table compares the settled occupancy with what each legal move would
leave, never with a list of sensor events:

- a step or a jump empties one square and fills another;
- stacking (a foundation, the obelisk, a pillar) only empties a square;
- a capstone coming off a pillar only fills a square;
- a pillar capstone stacking again changes nothing the switches can see, so
  the player says they moved with their button (``unchanged=True``).

When several legal moves leave the same occupancy, all are returned, and the
table lets the player pick one with their button.
"""

from __future__ import annotations

from engine.errors import InferenceError, NothingPlacedError
from engine.stones import Move, Square, StonesState, square_name


def occupancy(state: StonesState) -> frozenset[Square]:
    """The squares whose switch is closed in this position."""
    return frozenset(square for square, _ in state.stacks)


def candidate_moves(state: StonesState, seen: frozenset[Square], *,
                    unchanged: bool = False) -> tuple[Move, ...]:
    """Every legal move that leaves exactly the occupancy ``seen``.

    Raises NothingPlacedError when nothing changed (and ``unchanged`` is not
    asked for), and InferenceError, naming the squares, when no legal move
    explains what the switches see.
    """
    before = occupancy(state)
    if seen == before and not unchanged:
        raise NothingPlacedError("no stone has moved")
    fits = tuple(m for m in state.legal_actions() if state.occupancy_after(m) == seen)
    if fits:
        return fits
    gone = sorted(before - seen)
    new = sorted(seen - before)
    parts = []
    if gone:
        parts.append("emptied " + ", ".join(square_name(s) for s in gone))
    if new:
        parts.append("filled " + ", ".join(square_name(s) for s in new))
    what = " and ".join(parts) or "changed nothing the switches can see"
    raise InferenceError(
        f"no legal move for {state.to_play} {what}: put the stones back as they were"
    )


def destinations(state: StonesState, square: Square) -> frozenset[Square]:
    """Where the stone lifted from ``square`` may legally go (to light them)."""
    return frozenset(m.to for m in state.legal_actions() if m.frm == square)
