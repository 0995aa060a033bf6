"""Wrong PINs, counted on disk: a restart of the page forgets none of them.

A guesser who could make ``obelisk web`` restart (by running it out of
memory, say) would otherwise start afresh each time. So every wrong PIN is
written, whole (``firmware.store.state_dir.write_whole``), to ``web/wrong-pins.json``
in the state directory before its answer goes out, and a new process
starts from that file. It is read with a bound (``hardware.files.read_limited``): a
file that cannot be read (damaged, too large, a pipe, a folder, a device) is taken as the
worst case: PIN entry closed, saying why, until someone at the table holds the menu
button (which writes the count afresh). While the count cannot be written, no PIN is
taken at all.

Each wrong PIN is stamped on the wall clock and the steady one (``clocks.py``): a wait
is what it earned, the wall clock set back or forward meanwhile (or before a restart of
the page); after a restart of the machine with a wall clock behind, it starts again from
then, never a day.
"""

from __future__ import annotations

import errno
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path

from firmware.readers.web.clocks import Clocks, Stamp, boot_id, stamp_from
from firmware.store.state_dir import StateDirError, disk_advice, write_whole
from hardware.files import MIB, FileRefused, read_limited

__all__ = ["CLOSE_AFTER", "FIRST_WAIT_S", "MAX_WAIT_S", "PinGuard", "StateDirError"]

FIRST_WAIT_S = 1.0
MAX_WAIT_S = 300.0
CLOSE_AFTER = 30
"""Wrong PINs in all, from every address together, before PIN entry closes."""
MAX_ADDRESSES = 4096
"""Addresses remembered; past this the oldest are forgotten (their waits are long over)."""
FILE = Path("web") / "wrong-pins.json"
"""Where, in the state directory, the count is kept."""
MAX_FILE_BYTES = 1 * MIB
"""The largest count the file can hold (``MAX_ADDRESSES`` of them take a few hundred KiB)."""

log = logging.getLogger("obelisk.web")
ADVISED = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM)
"""The faults ``disk_advice`` has words of its own for."""


def why_unreadable(exc: OSError | None, limit: int) -> str:
    """Why a file of the page's could not be read, in words that follow its name (None: it
    was read, but what it holds makes no sense)."""
    if exc is None:
        return "it is damaged"
    if isinstance(exc, FileRefused) and exc.errno == errno.EFBIG:
        return f"it is larger than such a file can be (at most {limit // 1024} KiB)"
    if isinstance(exc, FileRefused):
        return str(exc.strerror)  # "it is a named pipe, not a regular file"...
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "this user may not read it: run `obelisk web` as the table's user"
    if exc.errno == errno.EISDIR:
        return "it is a directory, not a regular file"
    if exc.errno == errno.ENOTDIR:
        return "a folder on its way is a file, not a folder: delete that file"
    return "the disk would not give it back"


def folder_words(folder: Path, exc: OSError) -> str:
    """Why the page's own folder (``web`` in the state directory) cannot be made, and the
    fix."""
    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        return f"{folder} is a file, not a folder: delete it (the page makes the folder again)"
    return disk_advice(exc, folder / "x") if exc.errno in ADVISED else \
        f"{folder} cannot be made: check the disk and its permissions"


def _delay(count: int) -> float:
    """The wait a ``count``-th wrong PIN in a row from one address earns."""
    if count <= 0:
        return 0.0
    return min(FIRST_WAIT_S * 2 ** min(count - 1, 30), MAX_WAIT_S)


class PinGuard:
    """Wrong PINs, per client address and in all, and how long each must wait.

    ``path``: the file that keeps them (None: memory only, for a test); ``clock``,
    ``steady`` and ``boot``: the wall clock, the steady one and this boot (``Clocks``).
    """

    def __init__(self, clock: Callable[[], float] = time.time, path: Path | None = None,
                 steady: Callable[[], float] = time.monotonic, boot: str | None = None) -> None:
        self.clocks = Clocks(clock, steady, boot or boot_id())
        self.path = path
        self.misses: dict[str, tuple[int, Stamp]] = {}  # address: (count, the last one)
        self.total = 0  # wrong PINs from anywhere since PIN entry last opened
        self.closed_mark: str | None = None  # the table's pin_mark when PIN entry closed
        self.unsaved = False
        self.unreadable: str | None = None
        """While PIN entry is closed because the count could not be read: what a person is
        told (the file, why, and what opens it again)."""
        self._load()

    # ------------------------------------------------------------ the rules

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        count, last = self.misses.get(address, (0, None))
        if last is None:
            return 0.0
        age = self.clocks.age(last)
        return max(0.0, _delay(count) - (age if age is not None else 0.0))

    def missed(self, address: str) -> None:
        """A wrong PIN from ``address``: counted, then saved (StateDirError if it cannot be;
        the count holds in memory meanwhile)."""
        count, _ = self.misses.get(address, (0, None))
        self.misses[address] = (count + 1, self.clocks.stamp())
        self.total += 1
        if len(self.misses) > MAX_ADDRESSES:
            for old in sorted(self.misses, key=self._age, reverse=True)[:1024]:
                del self.misses[old]
        self._save()

    def _age(self, address: str) -> float:
        return self.clocks.age(self.misses[address][1]) or 0.0

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
        self.unreadable = None
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
                "addresses": {a: [n, *at] for a, (n, at) in self.misses.items()}}
        try:
            self.path.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise StateDirError("cannot keep the count of wrong PINs: "
                                f"{folder_words(self.path.parent, exc)}") from None
        write_whole(self.path, (json.dumps(data) + "\n").encode())
        self.unsaved = False

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            text = read_limited(self.path, MAX_FILE_BYTES).decode("utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            self._unreadable(why_unreadable(exc, MAX_FILE_BYTES))
            return
        except UnicodeDecodeError:
            text = ""
        try:
            data = json.loads(text)
            total = data["total"]
            mark = data.get("closed_mark")
            misses = {str(a): self._kept(kept) for a, kept in data["addresses"].items()}
            if type(total) is not int or not (mark is None or isinstance(mark, str)):
                raise TypeError
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self._unreadable(why_unreadable(None, MAX_FILE_BYTES))
            return
        self.total, self.closed_mark, self.misses = max(0, total), mark, misses

    def _kept(self, kept: object) -> tuple[int, Stamp]:
        """An address's count and last wrong PIN as the file keeps them (``[n, wall, steady,
        boot]``, or ``[n, wall]`` as it was first kept); a time that cannot be told now
        (``Clocks.age``) is taken as now: the wait it earned starts again, once."""
        if not isinstance(kept, list):
            raise TypeError("not a list")  # (the file is damaged: _load says so)
        count, *when = kept
        stamp = stamp_from(when[0] if len(when) == 1 else when)
        if self.clocks.age(stamp) is None:
            stamp = self.clocks.stamp()
        return int(count), stamp

    def _unreadable(self, why: str) -> None:
        """The count cannot be read: the worst case (PIN entry closed), said in words."""
        self.total = CLOSE_AFTER
        self.unreadable = (f"PIN entry is closed: the count of wrong PINs cannot be read "
                           f"({FILE} in the table's state directory: {why}); hold the menu "
                           "button at the table to open it again, which writes the count "
                           "afresh")
        log.warning("%s cannot be read (%s): PIN entry stays closed until someone at the "
                    "table holds the menu button, which writes the count afresh", self.path, why)
