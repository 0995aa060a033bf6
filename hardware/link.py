"""The Pi's end of the scanner link: pyserial, resync and automatic reconnect.

A reader thread owns the port. Bytes go through the shared protocol's
``FrameReader`` (which never raises on garbage); good frames update the
sensor state. After a reconnect or a sequence gap the link asks the board
for a full snapshot and publishes nothing until it arrives, so listeners
only ever see whole, consistent states. Unplugging the board is an
ordinary event: the link counts it and keeps trying to open the port.

Under ``obelisk run`` the log is all a person sees, so the link says what
is wrong there (a port that will not open, a lost or returned board, bad
frames piling up, a board speaking another protocol version, a board whose
hello disagrees with the profile), each when it starts or changes and then
at most every ``notice_every_s``, never once per retry (``hardware.link_health``
holds that telling and the counters ``obelisk diag`` shows). Its reader thread
survives anything the port or the board can throw at it; ``alive`` says
whether it still runs.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import serial

from hardware.link_health import (
    NOTICE_EVERY_S,
    LinkHealth,
    LinkTelling,
    Notices,
    impossible,
    port_trouble,
)
from hardware.scanner import obelisk_proto as proto
from hardware.sensors import BoardStatus, Layout, Snapshot

log = logging.getLogger(__name__)

READ_TIMEOUT_S = 2.0
"""The longest a read waits. The board's heartbeat comes every second, so this only
bounds how long a silent board goes unwatched; ``stop()`` cancels a read at once."""
RESYNC_EVERY_S = 0.05
"""The link asks the board for its whole state (a SYNC) at most this often after frames out
of sequence: a flood of them asked once per frame, and the board spent itself answering."""
ASK_AGAIN_S = 1.0
"""A SYNC still unanswered this long is sent again. The first one, written as the port
opened, can be lost while the board's USB settles; the heartbeat alone cannot resync a link
that never heard the board's hello, so without asking again it waited for good."""
ANSWERS_KEPT = 2
"""How many of our SYNCs the link counts as awaiting an answer: a SYNC asked again, when the
first was only slow, brings two hellos, and the second is an answer, not a board that
restarted (the link would drop its state until the next snapshot). A lost one stays counted
until the next hello, whose snapshot follows it at once."""
CHECK_BOARD = "check the USB cable and that the scanner board is powered, and run `obelisk diag`"


class SerialPort(Protocol):
    """What the link uses of an open port: pyserial's ``Serial`` for a device or a
    pseudo-terminal, its ``loop://`` port, or a test's stand-in (``cancel_read``, where a
    port has it, is looked up by name)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1, /) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


class ScannerLink(LinkTelling):
    """Keeps a live, resynced ``Snapshot`` of the scanner board's sensors.

    ``port`` is a device path or a pyserial URL. ``on_snapshot`` is called on
    the link's thread with each consistent snapshot that differs from the last
    one told (a heartbeat that repeats it wakes nobody), and ``on_unsynced``
    when there stops being one (a lost board, a gap, the reader ending): a
    listener may sleep until either comes. ``on_status`` hears the board's own
    figures (``BoardStatus``) when they first come and whenever they move by
    ``hardware.sensors.NEAR`` or more; ``health.board_status`` always holds the
    latest. ``expected`` is the layout the profile describes
    (``hardware.devices.expected_layout``): a board whose hello differs is
    reported in the log, naming ``expected_from``; without it any layout is
    taken as it comes.
    """

    def __init__(self, port: str, baud: int = 115200, *,
                 on_snapshot: Callable[[Snapshot], None] | None = None,
                 on_unsynced: Callable[[], None] | None = None,
                 on_status: Callable[[BoardStatus], None] | None = None,
                 retry_s: float = 0.2, read_timeout_s: float = READ_TIMEOUT_S,
                 serial_factory: Callable[..., SerialPort] = serial.serial_for_url,
                 expected: Layout | None = None, expected_from: str = "the profile",
                 notice_every_s: float = NOTICE_EVERY_S) -> None:
        self.port = port
        self.baud = baud
        self.on_snapshot = on_snapshot
        self.on_unsynced = on_unsynced
        self.on_status = on_status
        self._told_status: BoardStatus | None = None
        self.retry_s = retry_s
        self.read_timeout_s = read_timeout_s
        self._factory = serial_factory
        self.expected = expected
        self.expected_from = expected_from
        self.health = LinkHealth()
        self._notices = Notices(notice_every_s)
        # What the log last heard about the port: (state, message, level, since).
        self._port_state: tuple[object, str, int, float] | None = None
        self._port_changes = 0  # changes of the port's state, told or not
        self._port_changes_told = 0
        self._next_watch = 0.0
        self._bad_base: tuple[float, dict[str, int]] = (time.monotonic(), {})
        self._versions_read = 0  # frames of another version refused, as the reader last saw
        self._versions_watched = 0  # the same, as the last watch saw
        self.reader = proto.FrameReader()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._serial: SerialPort | None = None
        self._layout = Layout()
        self._hello_seen = False
        self._closed: set[int] = set()
        self._loads: tuple[int, ...] = ()
        self._synced = False
        self._snapshots = 0  # full snapshots applied so far
        self._answers_due = 0  # SYNCs of ours not answered yet (at most ANSWERS_KEPT)
        self._sync_owed = False  # a resync's SYNC held back (``RESYNC_EVERY_S``)
        self._next_sync = 0.0  # when the next resync's SYNC may go
        self._sync_sent = 0.0  # when our last SYNC went out
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
        port = self._serial
        cancel = getattr(port, "cancel_read", None)  # not every pyserial URL has one
        if cancel is not None:
            with contextlib.suppress(Exception):  # a port closing under us: nothing to cancel
                cancel()
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

    @property
    def alive(self) -> bool:
        """True while the reader thread runs; a service should stop when it is not."""
        thread = self._thread
        return thread is not None and thread.is_alive()

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

    def ask_fresh(self) -> int | None:
        """Ask the board for a full snapshot now and return at once: a ticket that
        ``fresh_snapshot(after=ticket)`` waits on (None: the board cannot be asked). The
        service asks a little before a settle window closes, so the answer is back by then."""
        with self._changed:
            seen = self._snapshots
        return seen if self._ask() else None

    def fresh_snapshot(self, timeout: float = 0.5, after: int | None = None) -> Snapshot | None:
        """A full snapshot read after this call (or after ``ask_fresh`` gave ``after``):
        ask the board, wait for its answer.

        None when the board does not answer in time (unplugged, busy).
        """
        seen = self.ask_fresh() if after is None else after
        if seen is None:
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
        except (serial.SerialException, OSError, TypeError) as exc:
            # TypeError: the reader closed the port under us (a cable pulled mid-write),
            # and pyserial selects on a file descriptor that is gone
            self.health.last_error = port_trouble(exc)
            return False

    def feed(self, data: bytes) -> None:
        """Parse bytes as if they came from the board (the thread uses this too)."""
        for kind, seq, body in self.reader.feed(data):
            self._accept(kind, seq, body)
        self.health.frames = self.reader.frames
        self.health.bad_frames = dict(self.reader.bad)

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    if self._serial is None and not self._open():
                        self._watch(time.monotonic())
                        self._stop.wait(self.retry_s)
                        continue
                    try:
                        port = self._serial
                        assert port is not None
                        data = port.read(max(1, port.in_waiting))
                    except (serial.SerialException, OSError, TypeError) as exc:
                        self._lost(exc)
                        self._stop.wait(self.retry_s)  # a port failing at once must not spin
                        continue
                    if data:
                        self.feed(data)
                        if self.reader.bad.get("version", 0) != self._versions_read:
                            self._versions_read = self.reader.bad["version"]
                            self._sniff_version(data)
                    now = time.monotonic()
                    self._ask_owed(now)
                    if now >= self._next_watch:
                        self._watch(now)
                except Exception as exc:  # a bug, or a port acting strangely: never die of it
                    self._unexpected(exc)
        except BaseException as exc:  # only a failure inside the handlers above gets here
            self.health.last_error = f"reader stopped: {type(exc).__name__}: {exc}"
            with contextlib.suppress(Exception):
                log.error("the scanner link's reader on %s stopped (%s: %s); the table cannot "
                          "see its sensors until the service is started again",
                          self.port, type(exc).__name__, exc)
        finally:
            self._close()
            if not self._unsync():
                self._tell_unsynced()  # the reader's end is news, synced or not

    def _open(self) -> bool:
        try:
            # exclusive: a second reader of the port (diag given --profile beside a running
            # service) would take part of the board's bytes; it is refused instead
            port = self._factory(self.port, baudrate=self.baud, timeout=self.read_timeout_s,
                                 exclusive=True)
        except (serial.SerialException, OSError) as exc:
            self.health.last_error = port_trouble(exc)
            self._port_is(("cannot open", self.health.last_error), logging.WARNING,
                          f"scanner board: cannot open {self.port} ({self.health.last_error}); "
                          f"{CHECK_BOARD}; trying again every {self.retry_s:g} s")
            return False
        except Exception:  # ValueError, OverflowError...: the settings, not the cable
            baud_ok = isinstance(self.baud, int) and 0 < self.baud <= 4_000_000
            self.health.last_error = (f"{self.port} names no port this Pi knows" if baud_ok
                                      else f"the port refuses {self.baud} baud")
            self._port_is(("cannot open", self.health.last_error), logging.WARNING,
                          f"scanner board: cannot open {self.port} at {self.baud} baud "
                          f"({self.health.last_error}); check [scanner] port and baud in the "
                          f"profile; trying again every {self.retry_s:g} s")
            return False
        with self._lock:
            self._serial = port
            self._synced = False
            self._last_seq = None
            self._hello_seen = False  # this board's layout is not known until its hello
            self._answers_due = 0
            self._next_sync = 0.0  # a board just opened is asked at once
        self.health.board_status = None  # until this board says (it answers our SYNC)
        self.reader.reset()
        self.health.connected = True
        if self._ever_connected:
            self.health.reconnects += 1
        trouble = self._port_state is not None and self._port_state[0] != "connected"
        # A first open with no trouble before it is no news (DEBUG); after trouble it is.
        self._port_is("connected", logging.WARNING if trouble else logging.DEBUG,
                      f"scanner board back on {self.port}; resyncing" if self._ever_connected
                      else f"scanner board open on {self.port}")
        self._ever_connected = True
        self._resync()
        return True

    def _lost(self, exc: BaseException) -> None:
        self.health.last_error = port_trouble(exc)
        self._port_is(("lost", self.health.last_error), logging.WARNING,
                      f"scanner link on {self.port} lost ({self.health.last_error}); "
                      f"{CHECK_BOARD}; trying again every {self.retry_s:g} s")
        self._drop()

    def _unexpected(self, exc: Exception) -> None:
        """Anything the reader did not expect: say it, then reopen the port and resync."""
        self.health.last_error = f"{type(exc).__name__}: {exc}"
        now = time.monotonic()
        if self._notices.due("unexpected", self.health.last_error, now):
            self._notices.told("unexpected", self.health.last_error, now)
            log.warning("scanner link on %s: unexpected %s; reopening the port in %g s and "
                        "resyncing (please report this line: it is a bug or a port acting "
                        "strangely)", self.port, self.health.last_error, self.retry_s)
            log.debug("where the scanner link's reader failed", exc_info=True)
        self._drop()
        self._stop.wait(self.retry_s)

    def _drop(self) -> None:
        """Close the port and publish nothing until a reconnect brings a fresh snapshot."""
        self._close()
        self._unsync()

    def _unsync(self) -> bool:
        """No consistent state until the next full snapshot; the listener hears it once.
        True if it heard (the link was synced)."""
        with self._changed:
            was, self._synced = self._synced, False
            self._changed.notify_all()
        if was:
            self._tell_unsynced()
        return was

    def _tell_status(self) -> None:
        """The board's figures to the listener, when they are news."""
        status, told = self.health.board_status, self._told_status
        if status is None or (told is not None and status.near(told)):
            return
        self._told_status = status
        if self.on_status is not None:
            self.on_status(status)

    def _tell_unsynced(self) -> None:
        if self.on_unsynced is not None:
            self.on_unsynced()

    def _close(self) -> None:
        port, self._serial = self._serial, None
        self.health.connected = False
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _resync(self) -> None:
        """Nothing published until the board's whole state comes again: ask it, at most every
        ``RESYNC_EVERY_S`` (``_ask_owed`` asks later what is held back; the board's heartbeat,
        a whole snapshot each second, resyncs the link meanwhile all the same)."""
        self.health.resyncs += 1
        self._unsync()
        self._sync_owed = True
        self._ask_owed(time.monotonic())

    def _ask_owed(self, now: float) -> None:
        if not self._synced and now >= self._sync_sent + ASK_AGAIN_S:
            self._sync_owed = True  # our last SYNC went unanswered: it may have been lost
        if self._sync_owed and now >= self._next_sync:
            self._sync_owed = False
            self._next_sync = now + RESYNC_EVERY_S
            self._sync_sent = now
            self._ask()

    def _ask(self) -> bool:
        """Send a SYNC: its answer's hello is no news (the board did not restart)."""
        with self._lock:
            self._answers_due = min(self._answers_due + 1, ANSWERS_KEPT)
        return self.send(proto.SYNC)

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
        synced = self._synced
        try:
            publish = self._apply(kind, body)
        except ValueError as exc:
            self.reader.count_bad("body")
            log.debug("dropped a %s frame: %s", proto.KIND_NAMES.get(kind, kind), exc)
            return
        if synced and not self._synced:  # the board restarted (its hello)
            self._tell_unsynced()
        if kind == proto.STATUS:
            self._tell_status()
        if publish and self.on_snapshot is not None:
            self.on_snapshot(self.snapshot() or self._current())

    def _apply(self, kind: int, body: bytes) -> bool:
        """Update the state from one message; True when listeners should hear of it (a new
        consistent state)."""
        with self._changed:
            if kind == proto.HELLO:
                self._take_hello(body)
                return False
            if kind in (proto.PONG, proto.STATUS):
                self._take_report(kind, body)
                return False
            if kind not in (proto.SNAPSHOT, proto.CHANGES, proto.LOAD):
                raise ValueError(f"unexpected message type {kind:#04x} from the board")
            if not self._hello_seen:
                # The board's heartbeat can come before its answer to our SYNC: without
                # the hello its layout is unknown, so wait for that answer (no damage).
                return False
            before = (self._synced, frozenset(self._closed), self._loads)
            if kind == proto.SNAPSHOT:
                self._take_snapshot(body)
            elif kind == proto.CHANGES:
                self._take_changes(body)
            else:
                self._loads = self._counted(proto.unpack_loads(body))
            self._changed.notify_all()
            return self._synced and before != (True, frozenset(self._closed), self._loads)

    def _take_hello(self, body: bytes) -> None:
        """A hello opens every answer to our SYNC; unasked, it means the board restarted."""
        layout = Layout(*proto.unpack_hello(body))
        why = impossible(layout)
        if why:
            self.health.last_error = (f"the scanner board's hello names {why}, which no table "
                                      "has: its frames are dropped; check LAYOUT at the top "
                                      "of the board's code.py")
            raise ValueError(f"a hello naming {why}")
        self._layout = layout
        self._hello_seen = True
        self._check_layout(self._layout)
        answer = self._answers_due > 0
        if answer:
            self._answers_due -= 1
        if not self._synced or answer:
            return  # part of an answer to our SYNC
        self._synced = False  # the board restarted: wait for its snapshot
        self.health.resyncs += 1

    def _take_report(self, kind: int, body: bytes) -> None:
        """A pong or a status says how the board is, not what its sensors see."""
        if kind == proto.PONG:
            self.health.last_pong = proto.unpack_token(body)
            return
        scan_us, load_us, dropped = proto.unpack_status(body)
        self.health.board_status = BoardStatus(scan_us, load_us or None, dropped)

    def _take_snapshot(self, body: bytes) -> None:
        """Every switch and load at once: the state is whole (synced) again."""
        closed, count, loads = proto.unpack_snapshot(body)
        if count != self._layout.switch_count:
            raise ValueError(f"snapshot of {count} switches, layout says "
                             f"{self._layout.switch_count}")
        self._loads = self._counted(loads)
        self._closed = set(closed)
        self._synced = True
        self._snapshots += 1
        self._sync_owed = False  # whole again: a held-back ask is no longer needed

    def _counted(self, loads: list[int]) -> tuple[int, ...]:
        """Load readings, one for each load cell the board's hello announced (a frame with
        more or fewer would move a pad's weight that nobody moved)."""
        if len(loads) != self._layout.loads:
            raise ValueError(f"{len(loads)} load readings, layout says {self._layout.loads}")
        return tuple(loads)

    def _take_changes(self, body: bytes) -> None:
        """Switches that moved since the last frame; all are checked before any is applied."""
        changes = proto.unpack_changes(body)
        if any(i >= self._layout.switch_count for i, _ in changes):
            raise ValueError("a change names a switch the board does not have")
        for index, closed in changes:
            (self._closed.add if closed else self._closed.discard)(index)
