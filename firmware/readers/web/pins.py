"""Wrong PINs, counted on disk: a restart of the page forgets none of them.

A guesser who could make ``obelisk web`` restart (by running it out of
memory, say) would otherwise start afresh each time. So every wrong PIN is
written, whole (``firmware.store.state_dir.write_whole``), to ``web/wrong-pins.json``
in the state directory before its answer goes out, and a new process
starts from that file. A file that cannot be read is taken as the worst
case: PIN entry closed, until someone at the table holds the menu button.
While the count cannot be written, no PIN is taken at all.

The waits are worked out on the wall clock (a restart keeps it); a clock
set back never makes a wait longer than the one a wrong PIN earned.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from firmware.store.state_dir import StateDirError, write_whole

__all__ = ["CLOSE_AFTER", "FIRST_WAIT_S", "MAX_WAIT_S", "PinGuard", "StateDirError"]

FIRST_WAIT_S = 1.0
MAX_WAIT_S = 300.0
CLOSE_AFTER = 30
"""Wrong PINs in all, from every address together, before PIN entry closes."""
MAX_ADDRESSES = 4096
"""Addresses remembered; past this the oldest are forgotten (their waits are long over)."""
FILE = Path("web") / "wrong-pins.json"
"""Where, in the state directory, the count is kept."""


def _delay(count: int) -> float:
    """The wait a ``count``-th wrong PIN in a row from one address earns."""
    if count <= 0:
        return 0.0
    return min(FIRST_WAIT_S * 2 ** min(count - 1, 30), MAX_WAIT_S)


class PinGuard:
    """Wrong PINs, per client address and in all, and how long each must wait.

    ``path``: the file that keeps them (None: memory only, for a test).
    """

    def __init__(self, clock: Callable[[], float] = time.time, path: Path | None = None) -> None:
        self.clock, self.path = clock, path
        self.misses: dict[str, tuple[int, float]] = {}  # address: (count, last)
        self.total = 0  # wrong PINs from anywhere since PIN entry last opened
        self.closed_mark: str | None = None  # the table's pin_mark when PIN entry closed
        self.unsaved = False
        self._load()

    # ------------------------------------------------------------ the rules

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        count, last = self.misses.get(address, (0, 0.0))
        delay = _delay(count)
        return max(0.0, min(delay, last + delay - self.clock()))

    def missed(self, address: str) -> None:
        """A wrong PIN from ``address``: counted, then saved (StateDirError if it cannot be;
        the count holds in memory meanwhile)."""
        count, _ = self.misses.get(address, (0, 0.0))
        self.misses[address] = (count + 1, self.clock())
        self.total += 1
        if len(self.misses) > MAX_ADDRESSES:
            for old in sorted(self.misses, key=lambda a: self.misses[a][1])[:1024]:
                del self.misses[old]
        self._save()

    def passed(self, address: str) -> None:
        """The right PIN from ``address``: its own count starts afresh (not the total)."""
        if self.misses.pop(address, None) is not None:
            self._save()

    @property
    def closed(self) -> bool:
        """Whether PIN entry is closed (too many wrong PINs since it last opened)."""
        return self.total >= CLOSE_AFTER

    def close_at(self, mark: str | None) -> None:
        """PIN entry closed while the table's count of menu holds was ``mark``."""
        self.closed_mark = mark
        self._save()

    def reopen(self) -> None:
        """Someone at the table opened PIN entry again: every count starts afresh."""
        self.total = 0
        self.misses.clear()
        self.closed_mark = None
        self._save()

    def flush(self) -> None:
        """Save a count an earlier save could not (StateDirError while it still cannot)."""
        if self.unsaved:
            self._save()

    # ------------------------------------------------------------ the file

    def _save(self) -> None:
        if self.path is None:
            return
        self.unsaved = True
        data = {"total": self.total, "closed_mark": self.closed_mark,
                "addresses": {a: [n, at] for a, (n, at) in self.misses.items()}}
        try:
            self.path.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise StateDirError(f"cannot keep the count of wrong PINs in {self.path.parent}: "
                                f"{exc.strerror or exc}") from None
        write_whole(self.path, (json.dumps(data) + "\n").encode())
        self.unsaved = False

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError):
            text = ""
        try:
            data = json.loads(text)
            total = data["total"]
            mark = data.get("closed_mark")
            misses = {str(a): (int(n), float(at)) for a, (n, at) in data["addresses"].items()}
            if type(total) is not int or not (mark is None or isinstance(mark, str)):
                raise TypeError
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self.total = CLOSE_AFTER  # unreadable: the worst case, until a hold opens it
            return
        self.total, self.closed_mark, self.misses = max(0, total), mark, misses
