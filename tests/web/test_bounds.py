"""Idle connections cannot take the page down: they are bounded, they time out, and the log says
each problem in a line, never a traceback."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request

import pytest

from tests.support.http import raw, read_answer, request
from tests.support.processes import until
from tests.support.web import Web

pytestmark = pytest.mark.processes


def _idle(port: int, count: int, sources: list[str]) -> list[socket.socket]:
    """``count`` connections that never send a byte, spread over ``sources``."""
    opened = []
    for n in range(count):
        conn = socket.socket()
        conn.bind((sources[n % len(sources)], 0))
        conn.setblocking(False)
        conn.connect_ex(("127.0.0.1", port))  # the kernel finishes it, or the server refuses
        opened.append(conn)
    return opened


def _page_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=5) as answer:
            return answer.status == 200 and b"Obelisk Table" in answer.read()
    except OSError:
        return False


def test_many_idle_connections_leave_the_page_up_and_the_log_quiet(tmp_path):
    err = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    web = Web(tmp_path, stderr=err, files=160).start()  # a small file limit, as a unit sets
    idle: list[socket.socket] = []
    try:
        idle += _idle(web.port, 300, [f"127.0.4.{n}" for n in range(1, 31)])  # many guests
        idle += _idle(web.port, 200, ["127.0.5.1"])  # and one greedy one
        until(lambda: _page_answers(web.url), 20, "the page to answer among idle connections")
        for _ in range(5):
            assert _page_answers(web.url)
        idle += _idle(web.port, 200, [f"127.0.6.{n}" for n in range(1, 201)])
        until(lambda: _page_answers(web.url), 20, "the page to answer again")
        assert web.process.poll() is None
    finally:
        for conn in idle:
            conn.close()
        web.stop()
    said = err.read_text()
    assert "Traceback" not in said, said[:2000]
    assert len(said.splitlines()) < 40, said[:2000]  # one line per problem, not per connection


def test_a_connection_that_says_nothing_is_closed_after_the_idle_time(tmp_path):
    web = Web(tmp_path, args=("--idle-timeout", "1")).start()
    try:
        host = f"Host: 127.0.0.1:{web.port}\r\n".encode()
        for said in (b"", b"GET / HTTP/1.1\r\n" + host, b"POST /session HTTP/1.1\r\n" + host
                     + b"Content-Type: application/json\r\nContent-Length: 20\r\n\r\n{"):
            with socket.create_connection(("127.0.0.1", web.port), timeout=60) as conn:
                conn.sendall(said)
                started = time.monotonic()
                answer = read_answer(conn)  # the server closes it (a timeout here: it did not)
                assert answer.status == 0 and time.monotonic() - started < 30, (said, answer)
        assert _page_answers(web.url)
    finally:
        web.stop()


def test_live_pages_are_bounded_and_the_one_too_many_is_told_in_words(tmp_path):
    web = Web(tmp_path, args=("--max-connections", "20")).start()  # 10 live pages at most
    readers = []
    try:
        for n in range(10):
            conn = socket.create_connection(("127.0.0.1", web.port), timeout=10,
                                            source_address=(f"127.0.7.{n + 1}", 0))
            conn.sendall(request("GET", "/events", port=web.port))
            assert read_answer_head(conn) == 200
            readers.append(conn)
        # another address of the same network, as every reader holds one: as much as any
        answer = raw(web.port, request("GET", "/events", port=web.port), source="127.0.7.11")
        assert answer.status == 503 and b"too many" in answer.body
        assert answer.headers["retry-after"]
        assert _page_answers(web.url)
        readers.pop().close()
        until(lambda: _reader_gets_in(web.port), 10, "a place for a live page once one left")
    finally:
        for conn in readers:
            with contextlib.suppress(OSError):
                conn.close()
        web.stop()


def read_answer_head(conn: socket.socket) -> int:
    """The status of an answer whose body does not end (live events)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = conn.recv(4096)
        if not chunk:
            return 0
        got += chunk
    return int(got.split(b" ", 2)[1])


def _reader_gets_in(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request("GET", "/events", port=port))
        return read_answer_head(conn) == 200


def test_one_address_holds_only_so_many_connections(tmp_path):
    from firmware.readers.web.bounds import Limits

    most = Limits().per_address
    web = Web(tmp_path).start()  # idle connections wait 10 s before they are closed
    held = []
    try:
        for _ in range(most):
            held.append(socket.create_connection(("127.0.0.1", web.port), timeout=10,
                                                 source_address=("127.0.8.1", 0)))
        held[-1].sendall(request("GET", "/session", port=web.port,
                                 headers={"Connection": "keep-alive"}))
        assert read_answer(held[-1]).status == 200  # the last one was taken, and stays open
        with socket.create_connection(("127.0.0.1", web.port), timeout=10,
                                      source_address=("127.0.8.1", 0)) as extra:
            started = time.monotonic()
            extra.sendall(request("GET", "/session", port=web.port))
            assert read_answer(extra).status == 0  # closed unanswered: one too many
            assert time.monotonic() - started < 9  # at once, not at the idle time (10 s)
        answer = raw(web.port, request("GET", "/session", port=web.port), source="127.0.8.2")
        assert answer.status == 200  # another address is served meanwhile
    finally:
        for conn in held:
            conn.close()
        web.stop()
