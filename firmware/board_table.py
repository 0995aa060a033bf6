"""What the stones, High Rise and maze tables share: settled views in, repairs shown.

Each game's table is a ``transitions`` model; this base holds the plumbing
that does not depend on the game: a sensor view is fed to the settler, a
settled one is handed to the game's ``_decide`` once, the service is told
when to wake, and entering ``repair`` beeps and says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from firmware.settle import Settler

V = TypeVar("V")


class BoardTable(Generic[V]):
    """Settling and repair plumbing; subclasses set ``problem`` and ``_decide``."""

    def __init__(self, emit: Callable[[dict], None], beep: Callable[[], None],
                 settle_s: float) -> None:
        self.emit = emit
        self.beep = beep
        self.settler: Settler[V] = Settler(settle_s)
        self.view: V | None = None
        self.decided: V | None = None
        self.problem = ""

    def on_view(self, view: V, now: float) -> None:
        """A fresh (unsettled) reading of the board."""
        self.view = view
        self.settler.feed(view, now)

    def tick(self, now: float) -> None:
        """Decide on a view the first time it has held still for the settle time."""
        settled = self.settler.settled(now)
        if settled is not None:
            try:
                self._decide(settled, now)
            finally:
                self.decided = settled

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (for the service's sleep)."""
        return self.settler.deadline()

    def _decide(self, view: V, now: float) -> None:
        raise NotImplementedError

    def on_enter_repair(self) -> None:
        self.beep()
        self.emit({"event": "illegal", "message": self.problem})
