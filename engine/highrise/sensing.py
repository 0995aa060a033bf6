"""Which High Rise placement it was, from a load cell under each square.

The cells see weight only. Between two settled readings, one square that got
heavier by the weight of one pyramid is the current player's placement
there. Anything else is not a move: two squares changed, a square got
lighter, or the weight added fits no pyramid. Those come back as a
``WeightError`` naming the squares, so the table can light them. Before a
game, every square must carry its neutral cover and nothing else
(``check_covers``).

Readings are raw load-cell counts; ``Calibration`` (measured by ``obelisk
calibrate highrise``) says what an empty pad and each size weigh.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import square_name
from engine.errors import InferenceError, NothingPlacedError, ObeliskError
from engine.highrise.game import HighriseState, Place, Size
from engine.reading import Reading

Square = tuple[int, int]


class WeightError(InferenceError):
    """The weights changed in a way no placement explains."""


class CalibrationError(ObeliskError):
    """Measured piece weights the table cannot tell apart."""


@dataclass(frozen=True)
class Calibration:
    """Raw counts: each empty pad, and what each size adds on a pad."""

    zero: tuple[int, ...]
    sizes: tuple[int, int, int]  # small, medium, large
    tolerance: int

    @classmethod
    def measured(cls, zero: tuple[int, ...], sizes: tuple[int, int, int],
                 noise: int = 0) -> Calibration:
        """A calibration from measured weights, with the widest safe tolerance.

        A reading within ``tolerance`` of a size is that size; the tolerance is
        a third of the closest gap between sizes (zero included), so no reading
        can fit two sizes. Refused when the pieces are too alike to tell apart.
        """
        small, medium, large = sizes
        gap = min(small, medium - small, large - medium)
        tolerance = gap // 3
        if gap <= 0 or tolerance <= 2 * max(noise, 1):
            raise CalibrationError(
                f"the pieces weighed {small}, {medium} and {large} counts, too close to tell "
                "apart: check that each size was alone on the pad and nothing touched the "
                "board, then calibrate again")
        return cls(tuple(zero), (small, medium, large), tolerance)

    def size_of(self, added: int) -> Size | None:
        """The size whose weight ``added`` is, or None when it fits none."""
        for size, weight in zip(Size, self.sizes, strict=True):
            if abs(added - weight) <= self.tolerance:
                return size
        return None

    def holds(self, reading: int, pad: int, pieces: tuple[Size, ...]) -> bool:
        """Whether a pad reads what these pieces would weigh on it."""
        expected = self.zero[pad] + sum(self.sizes[s.value - 1] for s in pieces)
        return abs(reading - expected) <= self.tolerance


def read_placement(state: HighriseState, before: tuple[int, ...], after: tuple[int, ...],
                   calibration: Calibration) -> Place:
    """The placement that took the pads from ``before`` to ``after``.

    Raises NothingPlacedError when no square changed, and WeightError (with
    the squares to light) when the change is no placement the player to move
    can make.
    """
    cells = state.options.cells
    tol = calibration.tolerance
    changed = [i for i in range(cells) if abs(after[i] - before[i]) > tol]
    if not changed:
        raise NothingPlacedError("nothing was placed")
    squares = tuple(state.square(i) for i in changed)
    names = " and ".join(square_name(s) for s in squares)
    if len(changed) > 1:
        raise WeightError(f"{names} changed at once: one piece on one square a turn; "
                          "put back what does not belong", squares)
    i = changed[0]
    added = after[i] - before[i]
    if added < 0:
        raise WeightError(f"the stack on {names} got lighter: put back what was taken off",
                          squares)
    size = calibration.size_of(added)
    if size is None:
        raise WeightError(f"what was put on {names} weighs like no pyramid: take it off",
                          squares)
    if not state.has(state.to_play, size):
        raise WeightError(f"{state.to_play} has no {size.label} pieces left: take it off "
                          f"{names} and play another size", squares)
    return Place(state.square(i), size)


def read_view(state: HighriseState, before: tuple[int, ...], after: tuple[int, ...],
              calibration: Calibration) -> Reading:
    """What the load cells' change from ``before`` means: the placement weighed, or
    nothing (every square as it was); a WeightError names what no placement explains."""
    try:
        return Reading(actions=(read_placement(state, before, after, calibration),))
    except NothingPlacedError:
        return Reading()


def check_covers(state: HighriseState, reading: tuple[int, ...],
                 calibration: Calibration) -> None:
    """Refuse a board that is not set up: a WeightError for the first square without
    exactly its cover (a neutral large pyramid), one fix at a time."""
    for i in range(state.options.cells):
        if calibration.holds(reading[i], i, (Size.LARGE,)):
            continue
        square = state.square(i)
        name = square_name(square)
        if reading[i] < calibration.zero[i] + calibration.sizes[Size.LARGE.value - 1]:
            raise WeightError(f"put a cover (a neutral large pyramid) on {name}", (square,))
        raise WeightError(f"{name} holds more than its cover: take the rest off", (square,))
