"""Settling: a sensor reading counts only once it has stayed the same a while.

A hand passing over the rods, a block lifted and put back, a bounce: each
changes the readings for a moment and then changes them back. Acting only on
readings that held still for ``settle_s`` (about 300 ms) lets all of these
pass without a trace.

That wait is most of what a player feels, so a reading the table is sure
of (``sure(value)``: exactly one complete legal action, nothing else out of
place) counts sooner, once it has held for ``quick_s`` (about 100 ms, a few
of the board's own debounced scans). Whatever is ambiguous, illegal or
half done still waits the whole ``settle_s``. The clock is passed in, so
tests control time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

NO_ANSWER_S = 0.1
"""When the re-read of a settled value gets no answer, how long before asking again."""


class Settler(Generic[T]):
    """Reports a value once it has been unchanged for ``settle_s`` seconds (``quick_s`` for
    one that ``sure`` vouches for)."""

    def __init__(self, settle_s: float = 0.3, quick_s: float | None = None,
                 sure: Callable[[T], bool] | None = None) -> None:
        if settle_s < 0:
            raise ValueError(f"the settle time cannot be negative ({settle_s} s)")
        self.settle_s = settle_s
        self.quick_s = settle_s if quick_s is None else min(max(0.0, quick_s), settle_s)
        # Whether a value is one the table is sure of (None: none is).
        self.sure = sure
        self._wait = settle_s  # how long the pending value must hold
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
            self._wait = self._window(value)

    def _window(self, value: T) -> float:
        if self.quick_s < self.settle_s and self.sure is not None and \
                self._reported != value and self.sure(value):
            return self.quick_s
        return self.settle_s

    def settled(self, now: float) -> T | None:
        """The value, the first time it has held for its window; else None."""
        if self._pending is None or now < self._since + self._wait:  # same sum as deadline()
            return None
        if self._reported is not None and self._pending == self._reported:
            return None
        if self.confirm is not None:
            fresh = self.confirm()
            if fresh is None:  # no answer (the board unplugged): ask again a moment later,
                self._since = now + NO_ANSWER_S - self._wait  # not at once, over and over
                return None
            if fresh != self._pending:
                self.feed(fresh, now)
                return None
        self._reported = self._pending
        return self._pending

    @property
    def window(self) -> float:
        """How long the pending value must hold (``quick_s`` or ``settle_s``)."""
        return self._wait

    def deadline(self) -> float | None:
        """When the pending value will have settled, if one is waiting."""
        if self._pending is None or self._pending == self._reported:
            return None
        return self._since + self._wait

    def forget(self) -> None:
        """Report the current value again once settled (after a resync or a repair); the
        position changed, so whether it is sure is asked again."""
        self._reported = None
        if self._pending is not None:
            self._wait = self._window(self._pending)
