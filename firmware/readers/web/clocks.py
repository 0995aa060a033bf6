"""How long ago something happened, whatever is done to the wall clock meanwhile.

The page keeps times in files that outlive its process (a PIN session's start, a wrong
PIN's): those need the wall clock. But the wall clock steps: a Pi has no clock of its
own, so at its first minute on the network it jumps to the right time, and a person may
set it back or forward by hand. Measured on it, a session set back a day would last a
day more, one jumped forward would end at once, and a wrong PIN's wait set back would
last until the clock caught up.

So each time is stamped on both clocks, with the machine's boot: the wall time, the
steady time (``time.monotonic``, which no one sets, counts from the boot and is the same
in every process of it) and the boot's id. Within one boot an age is the steady clock's,
steps or not, across a restart of the page too; after the machine restarted only the wall
clock can tell, and a wall clock behind the stamp tells nothing (``age`` is then None, and
the caller takes the safe side: a session ends, a wait starts again from now).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hardware.files import read_limited

__all__ = ["BOOT_ID", "Clocks", "Stamp", "boot_id"]

BOOT_ID = "/proc/sys/kernel/random/boot_id"
"""Linux's id of this boot: a new one each time the machine starts."""

Stamp = tuple[float, float, str]
"""A moment: (the wall clock, the steady clock, the boot) when it happened."""


def boot_id() -> str:
    """This boot's id; where the system has none to give, one of this process's own (the
    steady clock is then trusted within this process only)."""
    try:
        found = read_limited(BOOT_ID, 64).decode("ascii", "replace").strip()
    except OSError:
        found = ""
    return found or f"process-{os.getpid()}-{os.urandom(8).hex()}"


@dataclass(frozen=True)
class Clocks:
    """The wall clock, the steady clock and the boot, each given by a test as it likes."""

    wall: Callable[[], float] = time.time
    steady: Callable[[], float] = time.monotonic
    boot: str = field(default_factory=boot_id)

    def stamp(self) -> Stamp:
        """Now, on both clocks."""
        return (self.wall(), self.steady(), self.boot)

    def age(self, stamp: Stamp) -> float | None:
        """Seconds since ``stamp``: on the steady clock within this boot, else on the wall
        clock; None when it cannot be told (another boot, and a wall clock behind it)."""
        wall, steady, boot = stamp
        now = self.steady()
        if boot == self.boot and steady <= now:
            return now - steady
        age = self.wall() - wall
        return age if age >= 0 else None


def stamp_from(kept: object) -> Stamp:
    """A stamp as a file kept it: ``[wall, steady, boot]``, or a wall time alone (a file of
    before the steady clock was kept: its boot is no one's). ValueError when it is neither."""
    if isinstance(kept, int | float) and not isinstance(kept, bool):
        return (float(kept), 0.0, "")
    if isinstance(kept, list | tuple) and len(kept) == 3 and isinstance(kept[2], str):
        return (float(kept[0]), float(kept[1]), kept[2])
    raise ValueError("not a time")
