"""Fail closed: with no PIN no guest changes the table or sees more than the public page, and
every request that changes something is checked for its Host and Origin by one check.

Issue 45: with the state directory's ``pin`` missing (as in the moment of a first start
before the service writes it), ``POST /hands {"press": "A"}`` from ``Host: evil.example``
and ``Origin: http://evil.example`` pressed the button, and ``GET /hands`` showed each High
Rise player's pieces left by size; ``/session`` said "start the table" to a table running.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import tornado.web

from firmware.readers.web.hands import BUTTONS, HANDS
from firmware.readers.web.safe import JsonHandler
from firmware.readers.web.server import make_app
from firmware.service.stream import SOCKET
from hardware.local_socket import listen
from hardware.sim.line_socket import LineServer
from tests.support.http import Phone, raw, request
from tests.support.processes import until
from tests.support.web import Web

SECRET = {"left": {"A": {"small": 5, "medium": 9, "large": 10}}}
"""What the hands' view holds and the page hides before the end (High Rise)."""


class FakeHands:
    """The simulated table's hands and buttons, as sockets that note every request."""

    def __init__(self, state: Path) -> None:
        self.asked: list[dict] = []
        self.servers = [LineServer(state / HANDS, self._answer).open(),
                        LineServer(state / BUTTONS, self._answer).open()]

    def _answer(self, got: dict) -> dict:
        self.asked.append(got)
        return {"ok": True, "table": {"A1": "S"}, **SECRET}

    def close(self) -> None:
        for server in self.servers:
            server.close()


class FakeTable:
    """A table's event stream that says the table is there (its whole state), then waits."""

    def __init__(self, state: Path) -> None:
        self.server = listen(state / SOCKET, 8)
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self.server.accept()
                self.conns.append(conn)
                conn.sendall(json.dumps({"event": "table", "game": "towers",
                                         "state": "setup"}).encode() + b"\n")

    def close(self) -> None:
        for conn in [*self.conns, self.server]:
            with contextlib.suppress(OSError):
                conn.close()


@pytest.fixture
def no_pin(tmp_path) -> Iterator[tuple[Web, FakeHands, Path]]:
    """``obelisk web`` beside a simulated table running with no ``pin`` file."""
    table, hands = FakeTable(tmp_path), FakeHands(tmp_path)
    err = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    web = Web(tmp_path, stderr=err).start()
    try:
        yield web, hands, err
    finally:
        web.stop()
        hands.close()
        table.close()


def _foreign(port: int) -> dict:
    return {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}


@pytest.mark.processes
def test_with_no_pin_no_guest_moves_or_looks_at_the_hands(no_pin):
    web, hands, err = no_pin
    port = web.port
    press = json.dumps({"press": "A"}).encode()
    asked = {
        "a look": request("GET", "/hands", port=port),
        "a press from another site": request("POST", "/hands", press, port=port,
                                             headers=_foreign(port)),
        "a press from another Origin": request("POST", "/hands", press, port=port,
                                               headers={"Origin": "http://evil.example"}),
        "a press": request("POST", "/hands", press, port=port),
        "an act": request("POST", "/hands", b'{"act": "take", "seat": "A"}', port=port),
        "a command": request("POST", "/control/new", b"{}", port=port),
    }
    for what, data in asked.items():
        answer = raw(port, data)
        assert answer.status in (403, 421), (what, answer.status, answer.body[:300])
        assert b"small" not in answer.body and b"Traceback" not in answer.body, what
        assert len(answer.json()["error"]) > 20, what
    assert hands.asked == [], "a guest reached the simulated table's hands"
    words = raw(port, asked["a press"]).json()["error"]
    assert "no PIN" in words and "obelisk pin" in words, words
    assert "Traceback" not in err.read_text()


@pytest.mark.processes
def test_with_no_pin_the_session_says_so_in_words_while_the_table_runs(no_pin):
    web, _, _ = no_pin
    phone = Phone(web.url)
    until(lambda: "no PIN" in phone.call("GET", "/session")[1].get("closed", ""), 20,
          "the page to say the running table has no PIN")
    status, answer, _ = phone.enter("1234")
    assert status == 503, answer
    assert "no PIN" in answer["error"] and "start the table" not in answer["error"], answer
    assert "obelisk pin" in answer["error"], answer


@pytest.mark.processes
def test_every_request_that_changes_something_is_checked_for_host_and_origin(tmp_path):
    """With a PIN and a session: another Host, another Origin or a form is refused by every
    endpoint that acts, before it acts."""
    (tmp_path / "pin").write_text("1234\n")
    hands = FakeHands(tmp_path)
    web = Web(tmp_path).start()
    try:
        phone = Phone(web.url)
        assert phone.enter("1234")[0] == 200
        port = web.port
        bodies = {"/hands": {"press": "A"}, "/control/status": {}, "/session": {"pin": "1234"}}
        for path, body in bodies.items():
            for headers, status in (({"Host": f"evil.example:{port}"}, 421),
                                    ({"Origin": "http://evil.example"}, 403),
                                    ({"Origin": "null"}, 403),
                                    ({"Content-Type": "text/plain"}, 415)):
                got = phone.call("POST", path, body, headers=headers)
                assert got[0] == status, (path, headers, got[:2])
                assert len(got[1]["error"]) > 20, (path, headers)
        assert hands.asked == [], "a request from another site reached the hands"
        assert phone.call("POST", "/hands", {"press": "A"})[0] == 200  # from the page: it acts
        assert hands.asked == [{"button": "A", "hold": False}]
    finally:
        web.stop()
        hands.close()


def test_one_check_guards_every_handler_that_changes_something(tmp_path):
    """Every handler of the page's server that takes a POST, PUT, PATCH or DELETE is a
    ``JsonHandler`` and keeps its ``prepare`` (length, Host, Origin, JSON), none its own."""
    app = make_app(tmp_path)
    acting = []
    for rule in app.default_router.rules[0].target.rules:
        handler = rule.target
        if not isinstance(handler, type) or not issubclass(handler, tornado.web.RequestHandler):
            continue
        changes = [m for m in ("post", "put", "patch", "delete")
                   if getattr(handler, m) is not getattr(tornado.web.RequestHandler, m)]
        if changes:
            acting.append(handler.__name__)
            assert issubclass(handler, JsonHandler), handler
            assert handler.prepare is JsonHandler.prepare, f"{handler.__name__} checks alone"
    assert {"SessionHandler", "CommandHandler", "HandsPanel"} <= set(acting), acting
