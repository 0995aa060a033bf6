"""Requests to ``obelisk web`` as bytes on a socket, for what a browser would never send."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


def raw(port: int, data: bytes, source: str = "127.0.0.1", timeout: float = 30.0) -> Answer:
    """Send ``data`` as it is and read the answer until the server closes (0: none came)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                  source_address=(source, 0)) as conn:
        conn.sendall(data)
        return read_answer(conn)


def read_answer(conn: socket.socket) -> Answer:
    """One answer from ``conn``: its head, then its body (as long as it says, or to the end)."""
    got = b""
    while b"\r\n\r\n" not in got:
        try:
            chunk = conn.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return Answer(0, {}, got)
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", -1))
    while length < 0 or len(body) < length:
        try:
            chunk = conn.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        body += chunk
    return Answer(int(lines[0].split()[1]), headers, body)


def request(method: str, path: str, body: bytes = b"", headers: dict | None = None,
            port: int = 0) -> bytes:
    """An HTTP/1.1 request as bytes (``Connection: close``), JSON unless told otherwise."""
    given = {"Host": f"127.0.0.1:{port}", "Connection": "close",
             "Content-Type": "application/json", **(headers or {})}
    if body or method in ("POST", "PUT", "DELETE"):
        given.setdefault("Content-Length", str(len(body)))
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in given.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
