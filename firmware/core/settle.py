"""Settling: a sensor reading counts only once it has stayed the same a while.

A hand passing over the rods, a block lifted and put back, a bounce: each
changes the readings for a moment and then changes them back. Acting only on
readings that held still for ``settle_s`` (about 300 ms) lets all of these
pass without a trace.

That wait is most of what a player feels, so a reading the table is sure
of (fed with ``sure=True``: exactly one complete legal action, nothing else out
of place) counts sooner, once it has held for ``quick_s`` (``QUICK_S``, 75 ms after
the board's own debounce). Whatever is ambiguous, illegal or
half done still waits the whole ``settle_s``.

The settler is a value fed readings and times: it calls nothing. Whoever feeds it
says whether a reading is sure, and a service with a board reads the board again
once a reading is ``ripe`` (outside the table's lock), then feeds the answer (or
``postpone``s when none came) before the reading is ``settled``. The clock is
passed in, so tests control time.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")

QUICK_S = 0.075
"""The short window, in seconds, of a reading the table is sure of. The board's own debounce
(three scans, 15 ms) comes before it, so such a reading has stood 90 ms when it counts: a
hand carrying a stone across squares each a legal move rests on each for less than that
(``bench/faults_carry.py`` carries them at 50 ms a square; with no window they count)."""
NO_ANSWER_S = 0.1
"""When the re-read of a ripe reading gets no answer, how long before asking again."""


class Settler(Generic[T]):
    """Reports a value once it has been unchanged for ``settle_s`` seconds (``quick_s`` for
    one fed as sure)."""

    def __init__(self, settle_s: float = 0.3, quick_s: float | None = None) -> None:
        if settle_s < 0:
            raise ValueError(f"the settle time cannot be negative ({settle_s} s)")
        self.settle_s = settle_s
        self.quick_s = settle_s if quick_s is None else min(max(0.0, quick_s), settle_s)
        self._wait = settle_s  # how long the pending value must hold
        self._pending: T | None = None
        self._since = 0.0
        self._reported: T | None = None

    @property
    def pending(self) -> T | None:
        """The latest reading, settled or not (None before the first)."""
        return self._pending

    def is_new(self, value: T) -> bool:
        """Whether ``value`` differs from the pending reading (feeding it restarts the
        clock): only then is it worth asking whether the table is sure of it."""
        return self._pending is None or value != self._pending

    def may_hurry(self, value: T) -> bool:
        """Whether being sure of ``value`` would shorten its wait: there is a short window,
        and ``value`` is not what was reported last (asking costs the game a reading)."""
        return self.quick_s < self.settle_s and value != self._reported

    def feed(self, value: T, now: float, sure: bool = False) -> None:
        """A fresh reading; the settle clock restarts whenever it differs."""
        if self.is_new(value):
            self._pending = value
            self._since = now
            self._wait = self._window(value, sure)

    def _window(self, value: T, sure: bool) -> float:
        return self.quick_s if sure and self.may_hurry(value) else self.settle_s

    def ripe(self, now: float) -> T | None:
        """The pending value once it has held for its window and is not reported yet: the
        moment to read the board again, if there is one, before it counts."""
        if self._pending is None or now < self._since + self._wait:  # same sum as deadline()
            return None
        if self._reported is not None and self._pending == self._reported:
            return None
        return self._pending

    def settled(self, now: float) -> T | None:
        """The value, the first time it has held for its window; else None."""
        value = self.ripe(now)
        if value is not None:
            self._reported = value
        return value

    def postpone(self, now: float) -> None:
        """The re-read of a ripe value got no answer (the board unplugged): ripe again a
        moment later, not at once over and over."""
        if self._pending is not None:
            self._since = now + NO_ANSWER_S - self._wait

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
        """Report the current value again once settled (after a resync or a repair), on the
        whole window: the position changed, so the feeder says again whether it is sure of
        it (``feed`` with ``sure=True``, or ``hurry``)."""
        self._reported = None
        self._wait = self.settle_s

    def hurry(self) -> None:
        """The feeder is sure of the pending value: its short window is enough."""
        if self._pending is not None:
            self._wait = self._window(self._pending, True)
