"""Wrong PINs are counted on disk: a restart of the page (forced or not) forgets none of them, and
a body too long for its endpoint is refused before it is read (no guest can exhaust memory)."""

from __future__ import annotations

import socket
import time

import pytest

from firmware.readers.web.controls import CLOSE_AFTER, PinGuard, Sessions
from firmware.readers.web.wrong_pins import FILE
from tests.support.http import raw, read_answer, request
from tests.support.web import Web

PIN = "1234"


def _post_pin(port: int, pin: str, source: str):
    return raw(port, request("POST", "/session", f'{{"pin": "{pin}"}}'.encode(), port=port),
               source=source)


@pytest.mark.processes
def test_a_restart_forgets_no_wrong_pin(tmp_path):
    (tmp_path / "pin").write_text(PIN + "\n")
    err = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    web = Web(tmp_path, stderr=err).start()
    try:
        assert _post_pin(web.port, "0000", "127.0.3.1").status == 403
    finally:
        web.stop()  # killed at once: as a crash, or memory run out, ends it
    kept = PinGuard(time.time, tmp_path / FILE)  # on disk before the answer went out
    assert kept.misses["127.0.3.1"][0] == 1 and kept.total == 1
    for _ in range(9):  # another address guessed long (as a day of restarts would let it)
        kept.missed("127.0.3.2")
    web = Web(tmp_path, port=web.port, stderr=err).start()
    try:
        answer = _post_pin(web.port, PIN, "127.0.3.2")  # even the right PIN waits its turn
        assert answer.status == 429 and int(answer.headers["retry-after"]) > 200
        assert _post_pin(web.port, PIN, "127.0.3.3").status == 200  # another address does not
        assert PinGuard(time.time, tmp_path / FILE).total == 10
    finally:
        web.stop()
    assert "Traceback" not in err.read_text()


def test_the_count_of_wrong_pins_in_all_outlives_the_process(tmp_path):
    now = [1000.0]
    first = Sessions(tmp_path, lambda: now[0])
    for n in range(CLOSE_AFTER):
        assert not first.guard.closed
        first.guard.missed(f"10.0.0.{n}")
    assert first.guard.closed
    again = Sessions(tmp_path, lambda: now[0])  # the page started again
    assert again.guard.closed and again.guard.wait("10.0.0.3") > 0
    again.guard.reopen()  # the menu button held at the table
    assert not Sessions(tmp_path, lambda: now[0]).guard.closed


def test_a_count_that_cannot_be_read_keeps_pin_entry_closed(tmp_path):
    guard = PinGuard(lambda: 0.0, tmp_path / "web" / "wrong-pins.json")
    guard.missed("10.0.0.1")
    (tmp_path / "web" / "wrong-pins.json").write_text("{half a fi")
    assert PinGuard(lambda: 0.0, tmp_path / "web" / "wrong-pins.json").closed


@pytest.mark.processes
def test_a_body_too_long_is_refused_before_it_is_read(tmp_path):
    (tmp_path / "pin").write_text(PIN + "\n")
    err = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    web = Web(tmp_path, stderr=err).start()
    try:
        for path in ("/session", "/control/status", "/hands", "/nothing", "/games"):
            head = request("POST", path, port=web.port, headers={"Content-Length": "90000000"})
            with socket.create_connection(("127.0.0.1", web.port), timeout=10) as conn:
                conn.sendall(head + b"{" * 1000)  # and nothing more: the answer comes anyway
                started = time.monotonic()
                answer = read_answer(conn)
            assert answer.status in (400, 413), (path, answer.status)
            assert time.monotonic() - started < 5, path
        assert web.process.poll() is None
    finally:
        web.stop()
    assert "Traceback" not in err.read_text()
