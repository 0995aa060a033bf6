"""What every game's LEDs read of its table, declared once; each game's ``leds.LitTable``
adds what its own picture reads.

``Lit`` is the table's machine state and the game's position; ``LitChoosing`` adds, for a
table that offers a choice (a claim, a wall's facing, a block's placement), the candidates
and the one lit now, and the outcome its end is lit by.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from engine.core import Outcome
    from firmware.core.choosing import Actions

S_co = TypeVar("S_co", covariant=True)


class Lit(Protocol[S_co]):
    """The table as every game's LEDs read it."""

    @property
    def state(self) -> StrEnum: ...
    @property
    def position(self) -> S_co: ...


class LitChoosing(Lit[S_co], Protocol[S_co]):
    """A table that offers choices, one lit at a time, and lights its end."""

    @property
    def candidates(self) -> tuple[Actions, ...]: ...
    @property
    def pick(self) -> int: ...
    def final_outcome(self) -> Outcome: ...
