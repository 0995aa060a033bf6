"""The Pi's end of the scanner link: pyserial, resync and automatic reconnect.

A reader thread owns the port. Bytes go through the shared protocol's
``FrameReader`` (which never raises on garbage); good frames update the
sensor state. After a reconnect or a sequence gap the link asks the board
for a full snapshot and publishes nothing until it arrives, so listeners
only ever see whole, consistent states. Unplugging the board is an
ordinary event: the link counts it and keeps trying to open the port.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from hardware.scanner import obelisk_proto as proto
from hardware.sensors import Layout, Snapshot

log = logging.getLogger(__name__)


@dataclass
class LinkHealth:
    """Counters a person can read in ``obelisk diag``."""

    connected: bool = False
    frames: int = 0
    bad_frames: dict[str, int] = field(default_factory=dict)
    gaps: int = 0
    reconnects: int = 0
    resyncs: int = 0
    last_pong: int | None = None
    last_error: str = ""

    @property
    def bad_total(self) -> int:
        return sum(self.bad_frames.values())


class ScannerLink:
    """Keeps a live, resynced ``Snapshot`` of the scanner board's sensors.

    ``port`` is a device path or a pyserial URL. ``on_snapshot`` is called on
    the link's thread with each new consistent snapshot.
    """

    def __init__(self, port: str, baud: int = 115200, *,
                 on_snapshot: Callable[[Snapshot], None] | None = None,
                 retry_s: float = 0.2, read_timeout_s: float = 0.05,
                 serial_factory: Callable[..., serial.SerialBase] = serial.serial_for_url) -> None:
        self.port = port
        self.baud = baud
        self.on_snapshot = on_snapshot
        self.retry_s = retry_s
        self.read_timeout_s = read_timeout_s
        self._factory = serial_factory
        self.health = LinkHealth()
        self.reader = proto.FrameReader()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._serial: serial.SerialBase | None = None
        self._layout = Layout()
        self._closed: set[int] = set()
        self._loads: tuple[int, ...] = ()
        self._synced = False
        self._snapshots = 0  # full snapshots applied so far
        self._asked = False  # a SYNC of ours is waiting for its answer
        self._last_seq: int | None = None
        self._tx_seq = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ever_connected = False

    # ------------------------------------------------------------------ public

    def start(self) -> ScannerLink:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="scanner-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._close()

    def __enter__(self) -> ScannerLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def synced(self) -> bool:
        return self._synced

    def snapshot(self) -> Snapshot | None:
        """The latest consistent snapshot, or None while (re)syncing."""
        with self._lock:
            return self._current() if self._synced else None

    def wait_for(self, test: Callable[[Snapshot], bool], timeout: float = 2.0) -> Snapshot | None:
        """Block until a synced snapshot passes ``test``; None on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                if self._synced and test(self._current()):
                    return self._current()
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)

    def fresh_snapshot(self, timeout: float = 0.5) -> Snapshot | None:
        """A full snapshot read after this call: ask the board, wait for its answer.

        None when the board does not answer in time (unplugged, busy).
        """
        with self._changed:
            seen = self._snapshots
            self._asked = True
        if not self.send(proto.SYNC):
            return None
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._snapshots == seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
            return self._current() if self._synced else None

    def send(self, kind: int, body: bytes = b"") -> bool:
        """Send one frame; False when the board is not connected."""
        port = self._serial
        if port is None:
            return False
        frame = proto.encode_frame(kind, self._tx_seq, body)
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        try:
            port.write(frame)
            return True
        except (serial.SerialException, OSError) as exc:
            self.health.last_error = str(exc)
            return False

    def feed(self, data: bytes) -> None:
        """Parse bytes as if they came from the board (the thread uses this too)."""
        for kind, seq, body in self.reader.feed(data):
            self._accept(kind, seq, body)
        self.health.frames = self.reader.frames
        self.health.bad_frames = dict(self.reader.bad)

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self.retry_s)
                continue
            try:
                port = self._serial
                assert port is not None
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError) as exc:
                self._lost(exc)
                continue
            if data:
                self.feed(data)

    def _open(self) -> bool:
        try:
            port = self._factory(self.port, baudrate=self.baud, timeout=self.read_timeout_s)
        except (serial.SerialException, OSError, ValueError) as exc:
            self.health.last_error = str(exc)
            return False
        with self._lock:
            self._serial = port
            self._synced = False
            self._last_seq = None
        self.reader.reset()
        self.health.connected = True
        if self._ever_connected:
            self.health.reconnects += 1
            log.warning("scanner board back on %s; resyncing", self.port)
        self._ever_connected = True
        self._resync()
        return True

    def _lost(self, exc: BaseException) -> None:
        log.warning("scanner link lost (%s); retrying every %.1f s", exc, self.retry_s)
        self.health.last_error = str(exc) or type(exc).__name__
        self._close()
        with self._changed:
            self._synced = False
            self._changed.notify_all()

    def _close(self) -> None:
        port, self._serial = self._serial, None
        self.health.connected = False
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _resync(self) -> None:
        self.health.resyncs += 1
        with self._lock:
            self._synced = False
        self.send(proto.SYNC)

    # ------------------------------------------------------------------ state

    def _current(self) -> Snapshot:
        return Snapshot(self._layout, frozenset(self._closed), self._loads)

    def _accept(self, kind: int, seq: int, body: bytes) -> None:
        gap = self._last_seq is not None and seq != (self._last_seq + 1) & 0xFF
        self._last_seq = seq
        if kind == proto.HELLO:
            gap = False  # a board that (re)booted starts its count again
        elif gap:
            self.health.gaps += 1
            self._resync()
        try:
            publish = self._apply(kind, body)
        except ValueError as exc:
            self.reader.bad["body"] = self.reader.bad.get("body", 0) + 1
            log.debug("dropped a %s frame: %s", proto.KIND_NAMES.get(kind, kind), exc)
            return
        if publish and self.on_snapshot is not None:
            self.on_snapshot(self.snapshot() or self._current())

    def _apply(self, kind: int, body: bytes) -> bool:
        """Update the state from one message; True when listeners should hear of it."""
        with self._changed:
            if kind == proto.HELLO:
                fields = proto.unpack_hello(body)
                self._layout = Layout(*fields)
                if not self._synced or self._asked:
                    return False  # part of an answer to our SYNC
                self._synced = False  # the board restarted: wait for its snapshot
                self.health.resyncs += 1
                return False
            if kind == proto.SNAPSHOT:
                closed, count, loads = proto.unpack_snapshot(body)
                if count != self._layout.switch_count:
                    raise ValueError(f"snapshot of {count} switches, layout says "
                                     f"{self._layout.switch_count}")
                self._closed = set(closed)
                self._loads = tuple(loads)
                self._synced = True
                self._snapshots += 1
                self._asked = False
            elif kind == proto.CHANGES:
                changes = proto.unpack_changes(body)
                if any(i >= self._layout.switch_count for i, _ in changes):
                    raise ValueError("a change names a switch the board does not have")
                for index, closed in changes:
                    (self._closed.add if closed else self._closed.discard)(index)
            elif kind == proto.LOAD:
                self._loads = tuple(proto.unpack_loads(body))
            elif kind == proto.PONG:
                self.health.last_pong = proto.unpack_token(body)
                return False
            else:
                raise ValueError(f"unexpected message type {kind:#04x} from the board")
            self._changed.notify_all()
            return self._synced
