"""Nothing a test started outlives the run, however the run ends.

Every process a test starts inherits the run's mark (``MARK`` in its environment), and
stays a descendant of the run's process unless it leaves on purpose. When the run ends (its
last test done, a failing fixture, Ctrl-C, a SIGTERM or SIGHUP sent to pytest alone, as an
editor or a CI runner sends it), ``sweep`` ends every process that carries the mark or
descends from the run: first politely (SIGTERM, so a table still writes what it keeps at a
stop), then for good. A SIGTERM or SIGHUP is turned into the KeyboardInterrupt pytest
already answers by tearing its fixtures down; a second one sweeps at once and leaves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid

from tests.support.processes import PROC, Process, processes

MARK = "OBELISK_TEST_RUN"
"""The environment variable naming the runs of the suite a process belongs to: this run's
mark after those of the runs that started it (a test that runs pytest inside pytest), so an
outer run still finds what an inner one left."""


def mark_run() -> str:
    """Give this run (and every process it starts) its mark; the mark."""
    mark = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
    os.environ[MARK] = ",".join(filter(None, (os.environ.get(MARK), mark)))
    return mark


def _carries(pid: int, mark: str) -> bool:
    prefix = f"{MARK}=".encode()
    try:
        environ = (PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:  # gone, or not ours to read
        return False
    return any(mark.encode() in entry[len(prefix):].split(b",")
               for entry in environ if entry.startswith(prefix))


def left_by(root: int, mark: str) -> list[Process]:
    """The living processes that descend from ``root`` or carry ``mark`` (``root`` aside)."""
    every = {p.pid: p for p in processes()}
    children: dict[int, list[int]] = {}
    for p in every.values():
        children.setdefault(p.parent, []).append(p.pid)
    ours, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in ours:
                ours.add(child)
                todo.append(child)
    ours |= {pid for pid in every if _carries(pid, mark)}
    ours.discard(root)
    return [every[pid] for pid in sorted(ours) if not every[pid].zombie]


def _reap() -> None:
    """Collect this process's own children that have ended (no zombie stays behind)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _signal_all(found: list[Process], signum: int) -> None:
    for p in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p.pid, signum)


def sweep(mark: str, grace: float = 5.0) -> list[Process]:
    """End what the run left running; the processes that were found.

    SIGTERM first and ``grace`` seconds to go; SIGKILL for what is still there. Several
    rounds, since a process that was stopping may start another on its way out.
    """
    root = os.getpid()
    found: dict[int, Process] = {}
    for _ in range(5):
        left = left_by(root, mark)
        if not left:
            break
        found.update((p.pid, p) for p in left)
        _signal_all(left, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while (left := left_by(root, mark)) and time.monotonic() < deadline:
            _reap()
            time.sleep(0.05)
        _signal_all(left, signal.SIGKILL)
        time.sleep(0.05)
        _reap()
    return list(found.values())


class Interruption:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does; a second one sweeps and leaves.

    Code under test may take these signals for itself (``firmware.cli`` once did, on import:
    a stop then ended pytest at once, status 0, its processes left running), so the run
    takes them back before and after every test (``hold``).
    """

    STOPS = (signal.SIGTERM, signal.SIGHUP)

    def __init__(self, mark: str) -> None:
        self.mark = mark
        self.received: int | None = None
        self._ctrl_c: object = signal.default_int_handler

    def install(self) -> None:
        self._ctrl_c = signal.getsignal(signal.SIGINT)  # pytest's: KeyboardInterrupt
        self.hold()

    def hold(self) -> None:
        """Answer the stop signals as the run does, whatever a test or an import set."""
        for signum in self.STOPS:
            if signal.getsignal(signum) != self._on_signal:
                signal.signal(signum, self._on_signal)
        if signal.getsignal(signal.SIGINT) is not self._ctrl_c:
            signal.signal(signal.SIGINT, self._ctrl_c)  # type: ignore[arg-type]

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.received is None:
            self.received = signum
            raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")
        sweep(self.mark, grace=1.0)
        os._exit(128 + signum)
