"""Settling: a sensor reading counts only once it has stayed the same a while.

A hand passing over the rods, a block lifted and put back, a bounce: each
changes the readings for a moment and then changes them back. Acting only on
readings that held still for ``settle_s`` (about 300 ms) lets all of these
pass without a trace. The clock is passed in, so tests control time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Settler(Generic[T]):
    """Reports a value once it has been unchanged for ``settle_s`` seconds."""

    def __init__(self, settle_s: float = 0.3) -> None:
        if settle_s < 0:
            raise ValueError(f"the settle time cannot be negative ({settle_s} s)")
        self.settle_s = settle_s
        # Re-reads the sensors once a value has held still (None: no answer). When
        # it differs, the value moved again and settling starts over.
        self.confirm: Callable[[], T | None] | None = None
        self._pending: T | None = None
        self._since = 0.0
        self._reported: T | None = None

    def feed(self, value: T, now: float) -> None:
        """A fresh reading; the settle clock restarts whenever it differs."""
        if self._pending is None or value != self._pending:
            self._pending = value
            self._since = now

    def settled(self, now: float) -> T | None:
        """The value, the first time it has held for the settle time; else None."""
        if self._pending is None or now < self._since + self.settle_s:  # same sum as deadline()
            return None
        if self._reported is not None and self._pending == self._reported:
            return None
        if self.confirm is not None:
            fresh = self.confirm()
            if fresh != self._pending:
                if fresh is not None:
                    self.feed(fresh, now)
                return None
        self._reported = self._pending
        return self._pending

    def deadline(self) -> float | None:
        """When the pending value will have settled, if one is waiting."""
        if self._pending is None or self._pending == self._reported:
            return None
        return self._since + self.settle_s

    def forget(self) -> None:
        """Report the current value again once settled (after a resync or a repair)."""
        self._reported = None
