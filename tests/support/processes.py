"""The processes tests start: the obelisk command, waits on conditions, and stopping each.

Every process a test starts is stopped by its own handle (``stop``, ``interrupt``), never by
name; waits poll a condition until a deadline (``until``), none sleeps a fixed time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.pi_models import read_model
from tests.support.patience import longer

OBELISK = str(Path(sys.executable).parent / "obelisk")
PROC = Path("/proc")
PROC_LISTED = PROC / "self" / ".."
"""/proc again, to list its processes by a way emulation cannot hide: qemu-user, as
``tools/pi-root.sh`` runs the suite on a pretend Pi, looks each path up under
QEMU_LD_PREFIX first, and the pretend Pi's own proc/ there holds only its model. No
path through this process's own entry is kept there, so this one reaches the kernel's."""


def on_a_pi() -> bool:
    """Whether this machine is a Raspberry Pi, as the table judges it (so a pretend Pi,
    ``tests/support/pi.py``, counts too)."""
    return read_model() is not None


def until(check: Callable[[], Any], timeout: float = 60.0, what: str = "the condition",
          every: float = 0.05) -> Any:
    """Poll ``check`` until it gives something true; fail naming ``what`` at the deadline
    (``timeout`` as long as the suite's patience makes it)."""
    timeout = longer(timeout)
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def interrupt(process: subprocess.Popen) -> None:
    """Stop a command as Ctrl-C does (it stops what it started), then for good if it will not."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(30)
    stop(process)


def stop(process: subprocess.Popen | None) -> None:
    """End one process we started, by its own handle."""
    if process is None or process.poll() is not None:
        return
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


@dataclass(frozen=True)
class Process:
    """One process as /proc tells it."""

    pid: int
    parent: int
    zombie: bool  # ended, only its parent's wait missing
    command: str


def process(pid: int) -> Process | None:
    """PID as /proc tells it now; None once it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        command = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None
    name_end = stat.rindex(")")  # the name may hold spaces and brackets
    fields = stat[name_end + 2:].split()
    words = command.replace(b"\0", b" ").decode(errors="replace").strip()
    return Process(pid, int(fields[1]), fields[0] == "Z", words or stat[:name_end + 1])


def processes() -> Iterator[Process]:
    """Every process of this machine that /proc shows this user."""
    for entry in os.scandir(PROC_LISTED):
        if entry.name.isdigit() and (found := process(int(entry.name))) is not None:
            yield found


def alive(pid: int) -> bool:
    """Whether PID runs (a zombie has stopped: only its parent's wait is missing)."""
    found = process(pid)
    return found is not None and not found.zombie


def children(pid: int) -> set[int]:
    """The live processes whose parent is PID."""
    return {p.pid for p in processes() if p.parent == pid and not p.zombie}


def on_directory(state_dir: Path) -> set[int]:
    """The live processes started for ``state_dir`` (each is given it with --state-dir)."""
    found = set()
    wanted = os.fsencode(state_dir)
    for p in processes():
        try:
            words = (PROC / str(p.pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if wanted in words and not p.zombie:
            found.add(p.pid)
    return found
