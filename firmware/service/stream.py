"""The table's events on a local socket, for any number of readers (a terminal, a page).

The service (or a demo) opens ``events.sock`` in its state directory, a Unix
socket only its owner and group may open. Each reader that connects gets
first one ``table`` event (the whole public state as it is now) and what stands
beside it (a running hourglass, an open offer, a refusal), then every
event the table tells, one JSON object a line, in order.

The table never waits for a reader: each has a bounded queue, and one that
falls that far behind (or stops reading) is dropped. When it connects again
it starts afresh from the whole state, so it has missed nothing it needs.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from hardware.local_socket import LocalServer

log = logging.getLogger("obelisk.stream")

SOCKET = "events.sock"
"""The stream's name in the state directory."""
BACKLOG = 256
"""Lines a reader may fall behind before it is dropped."""


class StreamError(OSError):
    """The stream cannot be opened or read (no table runs there, no permission)."""


class _Reader:
    """One connected reader: its queue, drained by its connection's thread."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.lines: queue.Queue[bytes | None] = queue.Queue(BACKLOG)

    def put(self, line: bytes) -> bool:
        """Queue a line; False when the reader is too far behind (it is then dropped)."""
        try:
            self.lines.put_nowait(line)
            return True
        except queue.Full:
            return False

    def drain(self) -> None:
        """Send each queued line until the end is queued (None); OSError: the reader left."""
        while (line := self.lines.get()) is not None:
            self.conn.sendall(line)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.shutdown(socket.SHUT_RDWR)


class EventStream:
    """Serves a table's events on ``<state dir>/events.sock``.

    ``state()`` gives what a new reader starts from: the whole public state
    as a ``table`` event, then what stands beyond it (an hourglass, an
    offer). It is called with ``lock`` held, the same lock the table holds while it tells
    events, so a new reader's first line and the events after it never
    overlap or leave a gap.
    """

    def __init__(self, directory: str | Path, state: Callable[[], list[dict]],
                 lock: threading.RLock) -> None:
        self.path = Path(directory) / SOCKET
        self._state = state
        self._table_lock = lock
        self._lock = threading.Lock()
        self._readers: list[_Reader] = []
        self._server = LocalServer(self.path, self._serve, name="stream", backlog=16)
        self._open = False  # serving: events are sent, readers taken
        self.dropped = 0  # readers dropped for falling behind
        self._held: list[dict] | None = None  # told while held, sent on release

    def open(self) -> EventStream:
        """Start listening. The caller holds the state directory's lock, so a socket file
        already there is a stale one from a stopped table."""
        try:
            self._server.open()
        except OSError as exc:
            raise StreamError(f"cannot open the event stream {self.path}: {exc.strerror}; "
                              "the table plays on without it") from None
        self._open = True
        return self

    def hold(self) -> None:
        """Keep what the table tells until ``release``: the service holds its events while it
        decides and lights the LEDs, so that the LED frame never waits for the readers (their
        encoding, their threads waking). Called with the table's lock held."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Send what was held, in order; called with the table's lock still held, so a new
        reader's first state and these events never overlap."""
        held, self._held = self._held, None
        for event in held or ():
            self.publish(event)

    def publish(self, event: dict) -> None:
        """Send one event to every reader; a reader too far behind is dropped."""
        if not self._open:
            return
        if self._held is not None:
            self._held.append(event)
            return
        line = (json.dumps(event) + "\n").encode()
        with self._lock:
            for reader in list(self._readers):
                if not reader.put(line):
                    self._drop(reader)

    def follow(self, table, clock: Callable[[], float] = time.monotonic) -> None:
        """Give new readers ``table``'s state from now (the service swapped in a new table,
        which shares the old one's lock); ``clock`` is the table's."""
        self._state = lambda: table.opening(clock())

    def readers(self) -> int:
        with self._lock:
            return len(self._readers)

    def close(self, drain_s: float = 1.0) -> None:
        """Stop serving. Each reader first gets the lines already told to it (for up to
        ``drain_s`` in all): a table that stops as its game ends still shows the end."""
        with self._lock:
            self._open = False
            readers, self._readers = list(self._readers), []
        for reader in readers:
            with contextlib.suppress(queue.Full):
                reader.lines.put_nowait(None)  # after its last line; a full queue is cut short
        self._server.close(drain_s)

    def __enter__(self) -> EventStream:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _serve(self, conn: socket.socket) -> None:
        """One reader, on its own thread: the whole state, then what the table tells."""
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 16)
        reader = _Reader(conn)
        try:
            with self._table_lock:
                first = b"".join((json.dumps(event) + "\n").encode()
                                 for event in self._state())
                with self._lock:
                    if not self._open:
                        return  # the stream closed as it came
                    reader.put(first)
                    self._readers.append(reader)
        except Exception as exc:  # a state that cannot be told: this reader only
            log.warning("a reader of the event stream was turned away: %s", exc)
            return
        try:
            reader.drain()
        finally:
            self._forget(reader)

    def _drop(self, reader: _Reader) -> None:
        """Called with ``_lock`` held: the reader fell behind."""
        self.dropped += 1
        self._readers.remove(reader)
        with contextlib.suppress(queue.Full):
            reader.lines.put_nowait(None)
        reader.close()

    def _forget(self, reader: _Reader) -> None:
        with self._lock:
            if reader in self._readers:
                self._readers.remove(reader)


def read_events(directory: str | Path, timeout: float | None = None) -> Iterator[dict]:
    """The events of the table running on ``directory``: the whole state first, then each
    event as it happens, until the table stops (StreamError when none runs there)."""
    path = Path(directory) / SOCKET
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    try:
        conn.connect(str(path))
    except FileNotFoundError:
        conn.close()
        if not Path(directory).is_dir():
            raise StreamError(f"there is no directory {directory}: name the running "
                              "table's state directory (a demo prints its own)") from None
        raise StreamError(f"no table is running on {directory} (there is no {SOCKET}): "
                          "start one there with `obelisk run` or `obelisk demo`") from None
    except ConnectionRefusedError:
        conn.close()
        raise StreamError(f"the table that ran on {directory} has stopped (its {SOCKET} is "
                          "left from it): start it again") from None
    except PermissionError:
        conn.close()
        raise StreamError(f"no permission to read {path}: run as the table's user or a "
                          "member of its group") from None
    with conn, conn.makefile("rb") as lines, contextlib.suppress(ConnectionResetError):
        # (reset: the table stopped before it took this reader in; its stream ends too)
        for line in lines:
            try:
                yield json.loads(line)
            except ValueError:
                continue  # half a line as the table stopped


def serve_table(table, directory: str | Path,
                clock: Callable[[], float] = time.monotonic) -> EventStream | None:
    """Publish ``table``'s events (besides wherever it tells them now) on ``directory``'s
    stream; None, with a warning, when the stream cannot open: the table plays on.
    ``clock`` is the table's (a demo's runs fast), for the hourglass a new reader sees."""
    stream = EventStream(directory, lambda: table.opening(clock()), table.lock)
    try:
        stream.open()
    except StreamError as exc:
        log.warning("%s", exc)
        return None
    table.around.listen(stream.publish)
    return stream
