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
SHOWN = (*RUNNING, "paused")
"""The states of an hourglass a page shows on its player's card."""


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
        self.told = False  # the last report was told to the pages (else: owed, ``owed``)

    def reported(self, report: Report, now: float) -> bool:
        """A report of the other table's: the truth. Whether it is news to a page: a glass
        to show, or the end of one shown (a stopped glass said again, as a link that comes
        back sends it, is not)."""
        news = report.state in SHOWN or (self.told and self.last is not None and
                                         self.last.state in SHOWN)
        self.last, self.at, self.held, self.told = report, now, False, False
        return news

    def owed(self, now: float) -> Report | None:
        """The last report, as it stands now, if the pages were not told it (it came before
        the game here started, which clears their glasses): once (None: nothing owed)."""
        if self.told or self.last is None or self.last.state not in SHOWN:
            return None
        self.told = True
        if self.held:
            return self.last._replace(state="paused")
        return self.last._replace(left=self._drained(now))

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
