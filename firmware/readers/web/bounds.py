"""The page's server within bounds: connections, headers, bodies and idle time all have an end.

A phone holds a handful of connections; a guest on the network must not be
able to take the page down by opening a thousand and saying nothing. So:

- each connection has ``idle_s`` to send a request's headers (and between
  two requests), and as long again for its body; headers and bodies have
  a size limit, checked as they arrive (nothing is read whole first);
- one address may hold ``per_address`` connections (this machine itself, at
  127.0.0.1 or ::1, is no guest: its benches open many pages), all of them together
  ``connections`` (never more than this process's file limit allows);
  when every place is taken, the connection idle the longest (waiting for
  a request that has not come) is closed to make room, so the page still
  opens; when none is idle, places are shared fairly (``fair.py``): a
  newcomer whose address range, or address, holds fewer connections than the
  biggest holder takes the place of that holder's longest-held one, so a few
  addresses keeping every connection busy never keep a player out;
- a file limit reached anyway (``EMFILE``) closes the idlest connection too,
  or else pauses accepting for a moment: one line in the log, never a
  busy loop of tracebacks;
- tornado's own answer to a request it cannot parse (a bare 400) goes out
  with the page's safety headers and a line of words.
"""

from __future__ import annotations

import errno
import logging
import resource
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.ioloop
import tornado.iostream

from firmware.readers.web.fair import Holding, giver
from firmware.readers.web.safe import HEADERS

__all__ = ["BoundedServer", "Limits", "raise_file_limit"]

log = logging.getLogger("obelisk.web")

RESERVE_FDS = 64
"""Files kept for the process itself: the table's stream, records, threads, the listening socket."""
ACCEPT_PAUSE_S = 0.5
"""How long accepting pauses when no file is left for a new connection and none is idle."""
HERE = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
"""This machine's own address: not held to the limit of one address."""
BARE_400 = b"HTTP/1.1 400 Bad Request\r\n\r\n"
"""What tornado writes, headers and all, for a request it cannot parse."""


def _dressed_400() -> bytes:
    body = b"400: that request is not one this page understands\n"
    lines = [b"HTTP/1.1 400 Bad Request", b"Content-Type: text/plain; charset=utf-8",
             b"Content-Length: %d" % len(body), b"Connection: close", b"Cache-Control: no-store"]
    lines += [f"{name}: {value}".encode("latin-1") for name, value in HEADERS.items()]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


DRESSED_400 = _dressed_400()


@dataclass(frozen=True)
class Limits:
    """How much of this process one page server may use."""

    connections: int = 1000
    per_address: int = 50
    idle_s: float = 10.0
    header_bytes: int = 16 * 1024
    body_bytes: int = 8 * 1024
    """For any request; each endpoint refuses its own smaller limit before reading."""
    buffer_bytes: int = 64 * 1024
    pages: int | None = None
    """Live-event readers at once (default: half the connections)."""

    def usable(self) -> int:
        """Connections this process can hold: the setting, or its file limit less a reserve."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.connections
        return max(8, min(self.connections, soft - RESERVE_FDS))

    def page_cap(self) -> int:
        return self.pages if self.pages is not None else max(1, self.usable() // 2)


def raise_file_limit(wanted: int) -> int:
    """Raise this process's soft file limit towards ``wanted`` (never past its hard limit,
    which the systemd unit's ``LimitNOFILE=`` sets); the soft limit it has now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    return soft


class _DressedStream(tornado.iostream.IOStream):
    """A connection whose bare 400 (written by tornado itself) goes out dressed."""

    def write(self, data: bytes | memoryview) -> Any:
        if len(data) == len(BARE_400) and bytes(data) == BARE_400:
            data = DRESSED_400
        return super().write(data)


@dataclass
class _Listening:
    """One listening socket's accepting: on, or paused a while (too many files open), or
    stopped for good; ``handler`` is what the loop calls when it has a connection waiting."""

    on: bool = True
    stopped: bool = False
    handler: Callable[[Any, int], None] = field(init=False)


@dataclass
class _Open:
    address: str
    idle_since: float | None  # None: a request is under way
    since: float = 0.0  # when it was opened


class _Watched(tornado.httputil.HTTPMessageDelegate):
    """A request's delegate that tells the server when the request's headers are in."""

    def __init__(self, inner: tornado.httputil.HTTPMessageDelegate,
                 busy: Callable[[], None]) -> None:
        self.inner, self.busy = inner, busy

    def headers_received(self, start_line: Any, headers: Any) -> Any:
        self.busy()
        return self.inner.headers_received(start_line, headers)

    def data_received(self, chunk: bytes) -> Any:
        return self.inner.data_received(chunk)

    def finish(self) -> None:
        self.inner.finish()

    def on_connection_close(self) -> None:
        self.inner.on_connection_close()


class BoundedServer(tornado.httpserver.HTTPServer):
    """tornado's HTTP server with ``Limits`` on connections, headers, bodies and idle time."""

    # (tornado's Configurable hands the constructor's arguments to initialize: ``limits``
    # comes second, where HTTPServer's own takes no_keep_alive, hence ignore[override])
    def initialize(self, request_callback: Any, limits: Limits | None = None,  # type: ignore[override]
                   **kwargs: Any) -> None:
        self.limits = limits or Limits()
        super().initialize(request_callback, max_header_size=self.limits.header_bytes,
                           idle_connection_timeout=self.limits.idle_s,
                           body_timeout=self.limits.idle_s,
                           max_body_size=self.limits.body_bytes,
                           max_buffer_size=self.limits.buffer_bytes, **kwargs)
        self.cap = self.limits.usable()
        self.open: dict[tornado.iostream.IOStream, _Open] = {}
        self.per_address: dict[str, int] = {}

    # ------------------------------------------------------------ accepting

    def add_sockets(self, sockets: Iterable[socket.socket]) -> None:
        """Listen on ``sockets`` with our own accepting (bounded, quiet on ``EMFILE``)."""
        loop = tornado.ioloop.IOLoop.current()
        for sock in sockets:
            sock.setblocking(False)
            state = _Listening()

            def handler(fd: Any, events: int, sock: socket.socket = sock,
                        state: _Listening = state) -> None:
                self._accept(sock, state)

            def remove(sock: socket.socket = sock, state: _Listening = state) -> None:
                state.stopped = True
                if state.on:
                    loop.remove_handler(sock)
                    state.on = False

            state.handler = handler
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = remove
            loop.add_handler(sock, handler, tornado.ioloop.IOLoop.READ)

    def _accept(self, sock: socket.socket, state: _Listening) -> None:
        for _ in range(128):  # then let the other work of the loop run
            try:
                conn, address = sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE) and self._evict():
                    continue
                log.warning("cannot take a new connection (%s): %d open; accepting again in "
                            "%g s", exc.strerror or exc, len(self.open), ACCEPT_PAUSE_S)
                self._pause(sock, state)
                return
            self._take(conn, address)

    def _pause(self, sock: socket.socket, state: _Listening) -> None:
        loop = tornado.ioloop.IOLoop.current()
        if state.on:
            loop.remove_handler(sock)
            state.on = False

        def resume() -> None:
            if not state.stopped and not state.on:
                loop.add_handler(sock, state.handler, tornado.ioloop.IOLoop.READ)
                state.on = True

        loop.call_later(ACCEPT_PAUSE_S, resume)

    def _take(self, conn: socket.socket, address: Any) -> None:
        who = str(address[0]) if isinstance(address, tuple) and address else "?"
        if who not in HERE and self.per_address.get(who, 0) >= self.limits.per_address:
            conn.close()
            log.warning("refused a connection from %s: it holds %d already (the most one "
                        "address may)", who, self.limits.per_address)
            return
        if len(self.open) >= self.cap and not self._evict() and not self._give_way(who):
            conn.close()
            log.warning("refused a connection from %s: %d open, all of them busy, and its "
                        "address holds as many as any", who, len(self.open))
            return
        stream = _DressedStream(conn, max_buffer_size=self.max_buffer_size,
                                read_chunk_size=self.read_chunk_size)
        self.handle_stream(stream, address)

    def _evict(self) -> bool:
        """Close the connection idle the longest (no request under way); False if none is."""
        idle = [(o.idle_since, s) for s, o in self.open.items() if o.idle_since is not None]
        if not idle:
            return False
        _, stream = min(idle, key=lambda pair: pair[0])
        self._forget(stream)
        stream.close()
        log.warning("closed an idle connection to make room: %d open", len(self.open))
        return True

    def _give_way(self, who: str) -> bool:
        """Close the biggest holder's longest-held connection for a newcomer from ``who``
        that holds fewer (``fair.giver``); False when it holds as many as any."""
        held = [Holding(o.address, o.since, stream) for stream, o in self.open.items()]
        gives = giver(held, who)
        if gives is None:
            return False
        self._forget(gives.item)
        gives.item.close()
        log.warning("closed a busy connection of %s, the address holding the most, to make "
                    "room for %s", gives.address, who)
        return True

    # ------------------------------------------------------------ bookkeeping

    def handle_stream(self, stream: tornado.iostream.IOStream, address: tuple) -> None:
        who = str(address[0]) if isinstance(address, tuple) and address else "?"
        self.open[stream] = _Open(who, time.monotonic(), time.monotonic())
        self.per_address[who] = self.per_address.get(who, 0) + 1
        super().handle_stream(stream, address)

    def start_request(self, server_conn: object,
                      request_conn: tornado.httputil.HTTPConnection
                      ) -> tornado.httputil.HTTPMessageDelegate:
        stream = getattr(server_conn, "stream", None)
        found = self.open.get(stream) if isinstance(stream, tornado.iostream.IOStream) else None
        if found is not None:
            found.idle_since = time.monotonic()  # waiting for the next request

        def busy() -> None:
            if found is not None:
                found.idle_since = None

        return _Watched(super().start_request(server_conn, request_conn), busy)

    def on_close(self, server_conn: object) -> None:
        self._forget(getattr(server_conn, "stream", None))
        super().on_close(server_conn)

    def _forget(self, stream: object) -> None:
        if not isinstance(stream, tornado.iostream.IOStream):
            return  # (no stream: none was kept)
        found = self.open.pop(stream, None)
        if found is None:
            return
        left = self.per_address.get(found.address, 1) - 1
        if left > 0:
            self.per_address[found.address] = left
        else:
            self.per_address.pop(found.address, None)
