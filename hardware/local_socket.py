"""The table's local sockets: one server behind every Unix socket it serves (the event stream,
the command socket, the simulated hands' and buttons'), for its owner and group only.

Why not ``socketserver.ThreadingUnixStreamServer``: its ``serve_forever`` looks for a stop
only every ``poll_interval`` (a wake-up twice a second on an idle Pi, or a stop that waits
for it); its ``server_close`` waits for every handler thread, and one blocked reading a
silent client keeps it waiting for ever (or, with ``daemon_threads``, is left running); and
it neither refuses a path a live server holds nor removes its socket file. Here the
listening socket is shut down to end ``accept`` at once, each client's connection is shut
down to end its thread, every thread is joined, and the file goes.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

log = logging.getLogger(__name__)

JOIN_S = 2.0
"""How long a stop waits for each client's thread once its connection is shut down."""


class SocketTaken(OSError):
    """The socket's path is held: a live server answers there, or it is no socket at all."""


def _check_free(path: Path) -> None:
    """Nothing live at ``path``: a socket file of a stopped process (stale) is removed;
    SocketTaken when a server still answers there or the path is something else."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise SocketTaken(errno.EEXIST, f"{path} is there and is not a socket: move it "
                                        "away, and the table makes its socket there")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.setblocking(False)
        refused = probe.connect_ex(str(path)) in (errno.ECONNREFUSED, errno.ENOENT)
    if not refused:  # accepted, or its backlog is full: someone serves there
        raise SocketTaken(errno.EADDRINUSE, f"another process already serves on {path}: "
                                            "stop it first (only one table runs on a "
                                            "state directory)")
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def listen(path: Path, backlog: int) -> socket.socket:
    """Listen on ``path``, readable and writable by its owner and group only (the page runs
    in the table's group). A socket file of a stopped process is replaced; SocketTaken when
    a live server holds the path; OSError as the kernel says it otherwise, with nothing left
    open."""
    _check_free(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        os.chmod(path, 0o660)
        server.listen(backlog)
    except OSError:
        server.close()
        raise
    return server


def read_lines(conn: socket.socket, longest: int) -> Iterator[bytes]:
    """Each line a client sends, newline and all, until it stops; a line longer than
    ``longest`` is given cut to ``longest + 1`` bytes, so the caller can tell it apart."""
    with conn.makefile("rb") as lines:
        yield from iter(lambda: lines.readline(longest + 1), b"")


class LocalServer:
    """Serves ``serve(conn)`` for each client of a Unix socket, each on a thread of its own.

    ``serve`` talks to its client until either stops; an OSError from it is the client gone.
    ``close`` stops listening, removes the socket file, lets the clients finish for up to
    ``drain_s``, then shuts down each connection left and joins every thread.
    """

    def __init__(self, path: str | Path, serve: Callable[[socket.socket], None], *,
                 name: str, backlog: int = 8) -> None:
        self.path = Path(path)
        self._serve = serve
        self._name = name
        self._backlog = backlog
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._inode: int | None = None  # the socket file made here, removed only if still it
        self._accepting: threading.Thread | None = None
        self._clients: dict[threading.Thread, socket.socket] = {}

    def open(self) -> LocalServer:
        """Start listening (see ``listen`` for a path already there)."""
        listener = listen(self.path, self._backlog)
        self._inode = self.path.stat().st_ino
        self._listener = listener
        self._accepting = threading.Thread(target=self._accept, args=(listener,),
                                           name=f"{self._name}-accept", daemon=True)
        self._accepting.start()
        return self

    def clients(self) -> int:
        """How many clients are connected now."""
        with self._lock:
            return len(self._clients)

    def close(self, drain_s: float = 0.0) -> None:
        """Stop: no new client, no socket file, and no thread left once it returns (a
        thread still busy after ``JOIN_S`` is named in the log)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
            listener.close()
            self._remove_file()
        if self._accepting is not None and self._accepting is not threading.current_thread():
            self._accepting.join(JOIN_S)
        with self._lock:
            clients = dict(self._clients)
        self._join(clients, drain_s)
        for conn in clients.values():
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._join(clients, JOIN_S)
        for thread in clients:
            if thread.is_alive():
                log.warning("%s: a client's thread did not stop within %g s", self._name,
                            JOIN_S)

    def __enter__(self) -> LocalServer:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _join(self, clients: dict[threading.Thread, socket.socket], within_s: float) -> None:
        deadline = time.monotonic() + within_s
        for thread in clients:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))

    def _remove_file(self) -> None:
        """The socket file, unless another server has made its own there since."""
        with contextlib.suppress(OSError):
            if self.path.lstat().st_ino == self._inode:
                self.path.unlink()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # shut down by close
            thread = threading.Thread(target=self._client, args=(conn,),
                                      name=f"{self._name}-client", daemon=True)
            with self._lock:
                if self._listener is None:  # closing: this one is turned away
                    conn.close()
                    return
                self._clients[thread] = conn
            thread.start()

    def _client(self, conn: socket.socket) -> None:
        try:
            with conn:
                self._serve(conn)
        except OSError:
            pass  # the client went away, or the server stopped
        finally:
            with self._lock:
                self._clients.pop(threading.current_thread(), None)
