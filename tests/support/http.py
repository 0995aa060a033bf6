"""Requests to ``obelisk web`` as bytes on a socket, for what a browser would never send."""

from __future__ import annotations

import http.cookiejar
import json
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass

from firmware.readers.web.controls import (
    HEADER,
)


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


class Phone:
    """A browser's cookies and the token its page keeps."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = ""

    def call(self, method: str, path: str, body: object = None, *, token: bool = True,
             raw: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, dict]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None
                                            else b"" if method == "POST" else None)
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token and self.token:
            request.add_header(HEADER, self.token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read()), dict(answer.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read()), dict(exc.headers)

    def enter(self, pin: str) -> tuple[int, dict, dict]:
        got = self.call("POST", "/session", {"pin": pin})
        if got[0] == 200:
            self.token = got[1]["token"]
        return got
