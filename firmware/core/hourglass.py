"""The digital one-minute hourglass, kept against a monotonic clock.

Time left is always computed from the start time and the paused time, never
counted down tick by tick, so it cannot drift however often it is looked at.
``ring()`` draws it on a player's LED ring: lit pixels drain one at a time
as time runs out, in a warning colour near the end, and ``next_change()``
says when the ring will next look different, so the service sleeps until
then instead of redrawing a picture that has not changed.

Every method is a function of the ``now`` it is given (the service also asks about times
ahead, for when to wake), so that clock must be one that never steps back: the service's
is the monotonic clock, never the wall clock NTP steps (``tests/service/test_clocks.py``).
"""

from __future__ import annotations

import math

from firmware.core import palette

Colour = palette.RGB
SAND: Colour = palette.SAND
WARNING: Colour = palette.LAST_SAND


class Hourglass:
    """One player's hourglass; every method takes the current monotonic time."""

    def __init__(self, length_s: float = 60.0, warn_s: float = 10.0) -> None:
        if length_s <= 0:
            raise ValueError(f"an hourglass needs a positive length, not {length_s} s")
        self.length_s = length_s
        self.warn_s = warn_s
        self._started: float | None = None
        self._paused_at: float | None = None
        self._paused_total = 0.0

    @property
    def started(self) -> bool:
        return self._started is not None

    @property
    def running(self) -> bool:
        return self._started is not None and self._paused_at is None

    def start(self, now: float, left: float | None = None) -> None:
        """Turn it over: full, or with ``left`` seconds of sand (a turn resumed after a
        stop)."""
        self._started = now if left is None else now - (self.length_s - left)
        self._paused_at = None
        self._paused_total = 0.0

    def stop(self) -> None:
        self._started = None
        self._paused_at = None

    def pause(self, now: float) -> None:
        if self.running:
            self._paused_at = now

    def resume(self, now: float) -> None:
        if self._started is not None and self._paused_at is not None:
            self._paused_total += now - self._paused_at
            self._paused_at = None

    def elapsed(self, now: float) -> float:
        if self._started is None:
            return 0.0
        until = self._paused_at if self._paused_at is not None else now
        return max(0.0, until - self._started - self._paused_total)

    def remaining(self, now: float) -> float:
        return max(0.0, self.length_s - self.elapsed(now))

    def expired(self, now: float) -> bool:
        return self._started is not None and self.remaining(now) <= 0.0

    def expires_at(self) -> float | None:
        """The monotonic time the sand runs out, while running."""
        if self._started is None or self._paused_at is not None:  # not running
            return None
        return self._started + self._paused_total + self.length_s

    def _lit(self, left: float, pixels: int) -> int:
        return math.ceil(left / self.length_s * pixels - 1e-9)

    def ring(self, now: float, pixels: int) -> list[Colour]:
        """The ring's pixels: one lit for each share of the sand left, or part of one."""
        left = self.remaining(now)
        colour = WARNING if left <= self.warn_s else SAND
        lit = self._lit(left, pixels)
        return [colour] * lit + [palette.OFF] * (pixels - lit)

    def next_change(self, now: float, pixels: int) -> float | None:
        """When ``ring`` will next differ: a pixel goes out, or the warning colour comes."""
        end = self.expires_at()
        if end is None or pixels <= 0:
            return None
        left = self.remaining(now)
        lit = self._lit(left, pixels)
        if lit <= 0:
            return None
        times = [end - (lit - 1) / pixels * self.length_s]
        if left > self.warn_s:
            times.append(end - self.warn_s)
        return min(times)
