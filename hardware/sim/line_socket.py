"""A small local socket that answers one JSON object a line: the simulated table's hands.

The simulated board process serves ``hands.sock`` and the simulated
service ``buttons.sock`` with it, in the state directory, for their owner
and group only (as ``events.sock``). A request is one JSON object on a
line; the answer is one JSON object on a line. Anything that is not a JSON
object gets ``{"ok": false, "error": ...}``; nothing a client sends can stop
the server.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

from hardware.local_socket import LocalServer, read_lines

MAX_LINE = 64 * 1024
"""A request longer than this is no act of a hand: the connection is closed."""
JsonObject = dict[str, object]
"""A request or an answer: one JSON object, its values whatever JSON holds."""


class LineSocketError(OSError):
    """Nothing answers on that socket (the simulated table is not running there)."""


class LineServer:
    """Serves ``answer(request) -> reply`` on a Unix socket (``LocalServer``: a thread per
    connection)."""

    def __init__(self, path: str | Path, answer: Callable[[JsonObject], JsonObject]) -> None:
        self.path = Path(path)
        self._answer = answer
        self._server = LocalServer(self.path, self._serve, name=self.path.name)

    def open(self) -> LineServer:
        """Start listening (a stale socket file of a stopped process is replaced)."""
        self._server.open()
        return self

    def close(self) -> None:
        self._server.close()

    def __enter__(self) -> LineServer:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _serve(self, conn: socket.socket) -> None:
        for raw in read_lines(conn, MAX_LINE):
            if len(raw) > MAX_LINE:
                return
            conn.sendall(json.dumps(self._reply(raw)).encode() + b"\n")

    def _reply(self, raw: bytes) -> JsonObject:
        try:
            request = json.loads(raw)
        except ValueError:
            return {"ok": False, "error": "each request is one JSON object on a line"}
        if not isinstance(request, dict):
            return {"ok": False, "error": "each request is one JSON object on a line"}
        return self._answer(request)


def ask(path: str | Path, request: JsonObject, timeout: float = 10.0) -> JsonObject:
    """Send one request and wait for its answer; LineSocketError when nothing serves there."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(str(path))
            conn.sendall(json.dumps(request).encode() + b"\n")
            with conn.makefile("rb") as lines:
                line = lines.readline(MAX_LINE * 16)
    except OSError as exc:
        raise LineSocketError(f"nothing answers on {path} ({exc.strerror or exc}): is the "
                              "simulated table running there?") from None
    try:
        answer = json.loads(line)
    except ValueError:
        raise LineSocketError(f"{path} answered something that is not JSON") from None
    if not isinstance(answer, dict):  # a LineServer answers objects only
        raise LineSocketError(f"{path} answered something that is not a JSON object")
    return answer
