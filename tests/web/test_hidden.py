"""High Rise on the page: nothing the web server sends tells a hidden value before the reveal.

Two games are played with the same squares but other sizes and other hidden
values (the setting of ``test_highrise_table.test_nothing_hidden_leaks_before_the_end``).
Each has its table's stream and an ``obelisk web`` in front of it; a reader of
``/events`` is open from the start, another opens mid-game, and every file the
page is made of is fetched. Every byte must be the same for both games up to
the first reveal, and must differ after it (so the comparison can see a leak).
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from firmware.readers.web.server import STATIC
from firmware.service.stream import serve_table
from tests.support.highrise import L, M, S, same_first_other_values
from tests.support.tables import HighriseHarness as Table
from tests.support.web import Web

pytestmark = pytest.mark.processes

PLIES = 50
KEY = re.compile(rb', "table_key": "[0-9a-f]{16}"')
"""Which table a page follows (a digest of its state directory, for a page moved to another
table to start afresh): two tables differ in it by nature, and it is made of no game."""


class Capture:
    """Every byte of one ``/events`` answer's body, read on a thread of its own.

    Asked in HTTP/1.0, so the body comes as it is, not in chunks whose sizes
    would depend on timing; the headers (a date among them) are left out.
    """

    def __init__(self, url: str) -> None:
        self.data = b""
        self._lock = threading.Lock()
        host, port = urllib.parse.urlsplit(url).netloc.split(":")
        self._conn = socket.create_connection((host, int(port)), timeout=30)
        self._conn.sendall(b"GET /events HTTP/1.0\r\n\r\n")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        raw = b""
        try:
            while chunk := self._conn.recv(65536):
                raw += chunk
                head, blank, body = raw.partition(b"\r\n\r\n")
                if blank:
                    assert head.startswith(b"HTTP/1.") and b" 200 " in head, head
                    with self._lock:
                        self.data = body
        except OSError:
            pass  # closed by the test

    def until(self, needle: bytes, count: int = 1, timeout: float = 30) -> bytes:
        """The bytes so far, once ``needle`` is in them ``count`` times."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.data.count(needle) >= count:
                    return self.data
            time.sleep(0.01)
        raise AssertionError(f"{needle!r} x{count} not served in {timeout} s: {self.data[-400:]!r}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.shutdown(socket.SHUT_RDWR)
        self._conn.close()


def _files(url: str) -> dict[str, bytes]:
    """The page and everything it is made of, as the server sends them."""
    paths = ["/"] + [f"/static/{p.relative_to(STATIC)}" for p in sorted(STATIC.rglob("*"))
                     if p.is_file()]
    return {path: urllib.request.urlopen(url + path, timeout=30).read() for path in paths}


def _serve_game(state_dir: Path, seed: int, sizes: list) -> dict[str, bytes]:
    """One High Rise game behind a page; what the page got before the reveal and after."""
    state_dir.mkdir()
    t = Table(state_dir, seed=seed)
    stream = serve_table(t.table, state_dir)
    served = Web(state_dir).start()
    web, url = served.process, served.url
    try:
        start = Capture(url)
        start.until(b"event: table")
        t.covers()
        for ply in range(PLIES - 1):
            t.put((ply * 4) % 9, sizes[ply])
        start.until(b"event: accepted", PLIES - 1)
        late = Capture(url)                       # a page opened with one placement to go
        late_bytes = late.until(b"event: table")
        files = _files(url)
        t.put(((PLIES - 1) * 4) % 9, sizes[PLIES - 1])
        assert t.table.state == "over"
        after = start.until(b"event: game_over")
        start.close()
        late.close()
        before, reveal, rest = after.partition(b"event: reveal")
        assert reveal, "the end of the game was not revealed on the page"
        assert len(KEY.findall(before)) == 1 and len(KEY.findall(late_bytes)) == 1
        return {"stream before the reveal": KEY.sub(b"", before),
                "a page opened late": KEY.sub(b"", late_bytes), **files,
                "the reveal": reveal + rest}
    finally:
        web.kill()
        web.wait(10)
        stream.close()


def test_nothing_served_tells_a_hidden_value_before_the_reveal(tmp_path):
    seed1, seed2 = same_first_other_values()
    one = _serve_game(tmp_path / "one", seed1, [S] * 10 + [M] * 20 + [L] * 20)
    two = _serve_game(tmp_path / "two", seed2, [L] * 20 + [M] * 20 + [S] * 10)
    assert one["stream before the reveal"].count(b"event: accepted") == PLIES
    for what in one:
        if what != "the reveal":
            assert one[what] == two[what], f"{what} differs between the two games"
    assert one["the reveal"] != two["the reveal"]  # the end tells them apart
