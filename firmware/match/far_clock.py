"""The other player's hourglass as this table shows it: what their own table last reported,
held still while that table is out of touch.

The hourglass of a match's player runs at their own table only; this table shows it from
its reports (the ``clock`` command). A page draws a running glass down between reports, so
a table gone silent mid-turn would be shown running out here although nothing times out in
a match: while the other table is out of touch, its player's glass is shown stopped at the
last report, and when it is back, that report is shown again until the next one comes.
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
    """The other player's hourglass: its last report, and whether it is held here."""

    def __init__(self) -> None:
        self.last: Report | None = None
        self.held = False

    def reported(self, report: Report) -> None:
        """A report of the other table's: the truth, shown as it is."""
        self.last, self.held = report, False

    def hold(self) -> Report | None:
        """The other table went out of touch: its glass to show stopped at the last report
        (None: none was running, nothing to change)."""
        if self.held or self.last is None or self.last.state not in RUNNING:
            return None
        self.held = True
        return self.last._replace(state="paused")

    def release(self) -> Report | None:
        """The other table is back: its last report to show again, as it was (None: none was
        held)."""
        if not self.held:
            return None
        self.held = False
        return self.last
