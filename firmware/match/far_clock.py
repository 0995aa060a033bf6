"""The other player's hourglass as this table shows it: what their own table last reported,
held still while that table is out of touch.

The hourglass of a match's player runs at their own table only; this table shows it from
its reports (the ``clock`` command). A page draws a running glass down between reports, so
a table gone silent mid-turn would be shown running out here although nothing times out in
a match: while the other table is out of touch, its player's glass is shown stopped where
it had run down to by then (the last report less the time since: a walk saw "60 s paused"
for a glass that had run to 54 s), and when it is back, running on from there until its
table's next report, the truth.
"""

from __future__ import annotations

from typing import NamedTuple

RUNNING = ("started", "resumed")
"""The states of an hourglass that drains."""


class Report(NamedTuple):
    """An hourglass as its table reported it: its state, length and seconds left."""

    state: str
    seconds: float
    left: float


class FarClock:
    """The other player's hourglass: its last report, when it came, and whether it is held
    here. ``now`` is the caller's clock (seconds), the same at every call."""

    def __init__(self) -> None:
        self.last: Report | None = None
        self.at = 0.0  # when the last report came
        self.held = False

    def reported(self, report: Report, now: float) -> None:
        """A report of the other table's: the truth, shown as it is."""
        self.last, self.at, self.held = report, now, False

    def _drained(self, now: float) -> float:
        assert self.last is not None
        if self.last.state not in RUNNING:
            return self.last.left
        return max(0.0, self.last.left - max(0.0, now - self.at))

    def hold(self, now: float) -> Report | None:
        """The other table went out of touch: its glass to show stopped where it has run to
        (None: none was running, nothing to change)."""
        if self.held or self.last is None or self.last.state not in RUNNING:
            return None
        self.last, self.at = self.last._replace(left=self._drained(now)), now
        self.held = True
        return self.last._replace(state="paused")

    def release(self, now: float) -> Report | None:
        """The other table is back: its glass to show running on from where it was held
        (None: none was held)."""
        if not self.held or self.last is None:
            return None
        self.held, self.at = False, now
        return self.last
