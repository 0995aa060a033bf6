"""The scanner board's code run on this machine, behind a pseudo-terminal.

Two builds need it: the simulated table (fake pins) and the gpio-only table
(the Pi's own pins). Either way the scanner code runs in a thread and
writes its frames into a real pseudo-terminal, reachable at a stable path,
and the Pi side opens that path with pyserial exactly as it opens a real
board's USB serial port. ``stop()`` is a pulled cable; ``start()`` plugs it
back in, and the board boots afresh.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import select
import tempfile
import termios
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Protocol

_CODE_PY = Path(__file__).resolve().parent / "scanner" / "code.py"


def load_code_py() -> ModuleType:
    """The scanner board's code.py, loaded as a module (its name clashes with stdlib)."""
    spec = importlib.util.spec_from_file_location("obelisk_scanner_code", _CODE_PY)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module



class _PtyPort:
    """The board's end of the USB serial: the master side of a pseudo-terminal."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    @property
    def in_waiting(self) -> int:
        buf = fcntl.ioctl(self.master, termios.FIONREAD, b"\0\0\0\0")
        return int.from_bytes(buf, "little")

    def read(self, n: int) -> bytes:
        try:
            return os.read(self.master, n)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> int:
        """Like the board's data channel with a write timeout: what fits, never a wait."""
        try:
            return os.write(self.master, data)
        except BlockingIOError:  # the Pi is not reading: the board drops the frame
            return 0

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class BoardLoop(Protocol):
    """What ``LocalBoard`` runs: the board's ``Scanner`` (hardware/scanner/scanner.py)."""

    def step(self, now_ms: int) -> None: ...


class LocalBoard:
    """Runs a scanner built by ``build(serial)`` in a thread, behind a pty."""

    def __init__(self, build: Callable[[object], BoardLoop], link_dir: str | Path | None = None,
                 *, step_s: float = 0.005) -> None:
        self._build = build
        self.step_s = step_s
        self._dir = Path(link_dir or tempfile.mkdtemp(prefix="obelisk-board-"))
        self._own_dir = link_dir is None  # ours to remove when the board stops
        self.port_path = str(self._dir / "scanner")
        self._port: _PtyPort | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.scanner: BoardLoop | None = None  # the one built at the last start()

    @property
    def running(self) -> bool:
        return self._port is not None

    def start(self) -> None:
        if self.running:
            return
        port = self._port = _PtyPort()
        self._dir.mkdir(parents=True, exist_ok=True)  # again after a stop (an unplugging)
        tmp = self.port_path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(port.path, tmp)
        os.replace(tmp, self.port_path)
        scanner = self.scanner = self._build(port)
        self._stop.clear()
        # The thread runs this start's port and scanner (neither None there).
        self._thread = threading.Thread(target=self._run, args=(port.master, scanner),
                                        name="local-scanner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if not self.running:
            return
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        if os.path.lexists(self.port_path):
            os.unlink(self.port_path)
        if self._own_dir:  # leave nothing behind in /tmp
            with contextlib.suppress(OSError):
                self._dir.rmdir()
        if self._port:
            self._port.close()
        self._port = None

    def inject(self, data: bytes) -> None:
        """Raw bytes on the wire towards the Pi, as noise or corruption would put them."""
        if self._port:
            self._port.write(data)

    def _run(self, master: int, scanner: BoardLoop) -> None:
        start = time.monotonic()
        while not self._stop.is_set():
            scanner.step(int((time.monotonic() - start) * 1000))
            # Sleep until the next scan, but wake at once when the Pi sends something
            # (a board polls its serial port once a scan). This twin scans every
            # step_s plus its work; a real board's scan period is what it measures and
            # `obelisk diag` shows.
            with contextlib.suppress(OSError, ValueError):
                select.select([master], [], [], self.step_s)
