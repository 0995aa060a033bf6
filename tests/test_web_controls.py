"""The page's controls on the server: sessions for the PIN, tokens, guests refused, slow guesses."""

from __future__ import annotations

import http.cookiejar
import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from firmware.pin import read_pin
from firmware.web.controls import GLOBAL_MAX, HEADER, MAX_WAIT_S, PinGuard
from tests.browser_support import OBELISK, Web, stop, until


class Phone:
    """A browser's cookies and the token its page keeps."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = ""

    def call(self, method: str, path: str, body: object = None, *, token: bool = True,
             raw: bytes | None = None) -> tuple[int, dict, dict]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None
                                            else b"" if method == "POST" else None)
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token and self.token:
            request.add_header(HEADER, self.token)
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


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """``obelisk run`` on the simulated table and ``obelisk web`` beside it."""
    state = tmp_path_factory.mktemp("controls") / "state"
    state.mkdir()
    service = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    web = None
    try:
        until(lambda: (state / "control.sock").exists(), 30, "the table's command socket")
        web = Web(state).start()
        yield state, web.url
    finally:
        if web is not None:
            web.stop()
        stop(service)


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def test_a_guest_watches_only_and_a_forged_post_is_refused(table):
    _, url = table
    guest = Phone(url)
    assert guest.call("GET", "/session")[:2] == (200, {"session": False})
    status, answer, headers = guest.call("POST", "/control/pause")
    assert status == 403 and "guests watch only" in answer["error"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    guest.token = "made-up"  # a token without a session is no better
    assert guest.call("POST", "/control/pause")[0] == 403


def test_wrong_pins_wait_longer_and_the_right_one_gives_a_session(table):
    state, url = table
    pin = read_pin(state)
    phone = Phone(url)
    status, answer, _ = phone.enter(_wrong(pin))
    assert status == 403 and "not the table's PIN" in answer["error"]
    status, answer, headers = phone.enter(pin)  # even the right PIN waits its turn
    assert status == 429 and "wait 1 s" in answer["error"] and headers["Retry-After"] == "1"
    assert not phone.token
    entered = until(lambda: (got := phone.enter(pin))[0] == 200 and got, 10,
                    "the wait after one wrong PIN to end")
    set_cookie = entered[2]["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    assert set_cookie.split("=")[1].split(";")[0] not in json.dumps(entered[1])  # not shown
    assert phone.call("GET", "/session")[1] == {"session": True, "token": phone.token}
    # the cookie alone (a post from another site would carry no token) is refused
    status, answer, _ = phone.call("POST", "/control/status", token=False)
    assert status == 403 and "did not come from the table's page" in answer["error"]
    status, answer, _ = phone.call("POST", "/control/status")
    assert status == 200 and answer["game"] == "towers" and answer["can"]["start"] is True
    assert phone.call("POST", "/control/explode")[0] == 404
    assert phone.call("POST", "/control/pause", raw=b"not json")[0] == 400
    assert phone.call("POST", "/control/pause", raw=b"x" * 5000)[0] == 413
    status, answer, _ = phone.call("GET", "/control/pause")
    assert status == 405 and answer["error"] == "use POST to run the table"
    status, answer, _ = phone.call("POST", "/control/pause")  # nothing to pause in setup
    assert status == 409 and answer["error"] == "there is no game in play to pause"
    assert phone.call("DELETE", "/session")[1] == {"ok": True, "session": False}
    assert phone.call("POST", "/control/status")[0] == 403


def test_a_table_that_takes_no_commands_says_so(tmp_path):
    (tmp_path / "pin").write_text("1234\n")
    web = Web(tmp_path).start()
    try:
        phone = Phone(web.url)
        assert phone.enter("1234")[0] == 200
        status, answer, _ = phone.call("POST", "/control/status")
        assert status == 503 and "no table is running" in answer["error"]
    finally:
        web.stop()
    empty = Path(tmp_path / "nothing")
    empty.mkdir()
    web = Web(empty).start()
    try:
        status, answer, _ = Phone(web.url).enter("1234")
        assert status == 503 and "no PIN yet" in answer["error"]
    finally:
        web.stop()


def test_wrong_pins_wait_longer_each_time_and_in_all():
    now = [0.0]
    guard = PinGuard(lambda: now[0])
    waits = []
    for _ in range(5):
        guard.missed("10.0.0.1")
        waits.append(guard.wait("10.0.0.1"))
    assert waits == [1, 2, 4, 8, 16] and guard.wait("10.0.0.2") == 0
    for _ in range(12):
        guard.missed("10.0.0.1")
    assert guard.wait("10.0.0.1") == MAX_WAIT_S
    guard.passed("10.0.0.1")
    assert guard.wait("10.0.0.1") == 0
    for n in range(GLOBAL_MAX - 17):  # many addresses, one wrong PIN each
        guard.missed(f"10.0.1.{n}")
    assert guard.wait("10.0.2.1") == pytest.approx(60.0)  # everyone waits for the minute
    now[0] = 60.0
    assert guard.wait("10.0.2.1") == 0
