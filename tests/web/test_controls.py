"""The page's controls on the server: sessions for the PIN, tokens, guests refused, slow guesses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from firmware.readers.web.controls import (
    CLOSE_AFTER,
    MAX_WAIT_S,
    SESSION_S,
    PinGuard,
    Sessions,
)
from firmware.service.pin import read_pin
from tests.support.http import Phone
from tests.support.processes import OBELISK, stop, until
from tests.support.web import PageInProcess, Web


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """``obelisk run`` on the simulated table and ``obelisk web`` beside it."""
    state = tmp_path_factory.mktemp("controls") / "state"
    state.mkdir()
    running = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    web = None
    try:
        until(lambda: (state / "control.sock").exists(), 30, "the table's command socket")
        web = Web(state).start()
        yield state, web.url
    finally:
        if web is not None:
            web.stop()
        stop(running)


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


@pytest.mark.processes
def test_a_guest_watches_only_and_a_forged_post_is_refused(table):
    _, url = table
    guest = Phone(url)
    assert guest.call("GET", "/session")[:2] == (200, {"session": False})
    status, answer, headers = guest.call("POST", "/control/pause")
    assert status == 403 and "guests watch only" in answer["error"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    guest.token = "made-up"  # a token without a session is no better
    assert guest.call("POST", "/control/pause")[0] == 403


@pytest.mark.processes
def test_wrong_pins_wait_longer_and_the_right_one_gives_a_session(table):
    state, url = table
    pin = read_pin(state)
    now = [1000.0]  # the page's clocks, moved by the test (the machine may be slow)
    with PageInProcess(state, lambda: now[0]) as page:
        guesser = Phone(page.url)
        status, answer, _ = guesser.enter(_wrong(pin))
        assert status == 403 and "not the table's PIN" in answer["error"]
        now[0] += 0.9
        status, answer, headers = guesser.enter(pin)  # even the right PIN waits its turn
        assert status == 429 and "wait 1 s" in answer["error"] and headers["Retry-After"] == "1"
        assert not guesser.token
        now[0] += 0.1
        assert guesser.enter(pin)[0] == 200, "the wait after one wrong PIN did not end"
    phone = Phone(url)  # and the page's own process gives a session
    entered = phone.enter(pin)
    assert entered[0] == 200, entered
    set_cookie = entered[2]["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    # kept as long as the session lasts, a browser closed and opened again too (a phone's
    # browser drops a cookie with no end when it is closed: the PIN asked again)
    assert f"Max-Age={int(SESSION_S)}" in set_cookie, set_cookie
    assert set_cookie.split("=")[1].split(";")[0] not in json.dumps(entered[1])  # not shown
    assert phone.call("GET", "/session")[1] == {"session": True, "token": phone.token}
    # the cookie alone (a post from another site would carry no token) is refused
    status, answer, _ = phone.call("POST", "/control/status", token=False)
    assert status == 403 and "did not come from the table's page" in answer["error"]
    status, answer, _ = phone.call("POST", "/control/status")
    assert status == 200 and answer["game"] == "towers" and answer["state"] == "setup"
    assert answer["can"]["new"] is True  # (its start is offered once the board is read)
    assert phone.call("POST", "/control/explode")[0] == 404
    assert phone.call("POST", "/control/diag", {"led": 0})[0] == 404  # the Pi's own, never a page's
    assert phone.call("POST", "/control/pause", raw=b"not json")[0] == 400
    assert phone.call("POST", "/control/pause", raw=b"x" * 5000)[0] == 413
    status, answer, _ = phone.call("GET", "/control/pause")
    assert status == 405 and answer["error"] == "use POST to run the table"
    status, answer, _ = phone.call("POST", "/control/pause")  # nothing to pause in setup
    assert status == 409 and answer["error"] == "there is no game in play to pause"
    assert phone.call("DELETE", "/session")[1] == {"ok": True, "session": False}
    assert phone.call("POST", "/control/status")[0] == 403


@pytest.mark.processes
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


def test_wrong_pins_wait_longer_each_time_and_close_pin_entry_in_all():
    now = [0.0]
    guard = PinGuard(lambda: now[0], steady=lambda: now[0])
    waits = []
    for _ in range(5):
        guard.missed("10.0.0.1")
        waits.append(guard.wait("10.0.0.1"))
    assert waits == [1, 2, 4, 8, 16] and guard.wait("10.0.0.2") == 0
    for _ in range(12):
        guard.missed("10.0.0.1")
    assert guard.wait("10.0.0.1") == MAX_WAIT_S
    guard.passed("10.0.0.1")
    assert guard.wait("10.0.0.1") == 0 and not guard.closed
    for n in range(CLOSE_AFTER - 18):  # many addresses, one wrong PIN each
        guard.missed(f"10.0.1.{n}")
    assert not guard.closed and guard.wait("10.0.2.1") == 0  # the others are not slowed
    guard.missed("10.0.3.1")
    assert guard.closed  # and stays so, however long one waits
    now[0] = 10 ** 6
    assert guard.closed
    guard.reopen()
    assert not guard.closed and guard.wait("10.0.3.1") == 0


def test_a_session_lasts_twelve_hours_from_its_pin_used_or_not_and_one_pin_generation(tmp_path):
    from firmware.service.pin import new_pin, table_pin

    table_pin(tmp_path)
    now = [0.0]
    controls = Sessions(tmp_path, lambda: now[0], steady=lambda: now[0])
    cookie, made = controls.open(0)
    while now[0] < SESSION_S - 60:  # a page polls all along
        assert controls.session(cookie) is made
        now[0] += 3600
    now[0] = SESSION_S + 1
    assert controls.session(cookie) is None and cookie not in controls.sessions
    now[0] = 0.0
    cookie, made = controls.open(0)
    assert controls.session(cookie) is made
    assert new_pin(tmp_path).generation == 1
    assert controls.session(cookie) is None  # a new PIN ends every session of the old one


@pytest.mark.processes
def test_a_request_from_another_site_or_name_is_refused_before_anything(table):
    state, url = table
    phone = Phone(url)
    port = url.rsplit(":", 1)[1]
    pin = read_pin(state)
    # a form of another site posts text/plain: refused, and it counts as no guess at all
    status, answer, _ = phone.call("POST", "/session", raw=json.dumps({"pin": pin}).encode(),
                                   headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in answer["error"] and not phone.jar
    status, answer, _ = phone.call("POST", "/session", {"pin": _wrong(pin)},
                                   headers={"Origin": "http://evil.example"})
    assert status == 403 and "did not come from the table's page" in answer["error"]
    # a name rebound to this table's address: the Host is not this server's
    status, answer, _ = phone.call("POST", "/session", {"pin": pin},
                                   headers={"Host": f"evil.example:{port}"})
    assert status == 421 and "only at its own address" in answer["error"]
    assert phone.call("POST", "/session", {"pin": pin},
                      headers={"Host": f"127.0.0.1:{int(port) + 1}"})[0] == 421
    assert phone.call("GET", "/session", headers={"Host": "evil.example"})[0] == 421
    # none of these was a wrong PIN: the right one, from this page, gets in at once
    status, _, _ = phone.call("POST", "/session", {"pin": pin},
                              headers={"Origin": f"http://localhost:{port}",
                                       "Host": f"localhost:{port}"})
    assert status == 200
    phone.enter(pin)
    for headers in ({"Content-Type": "text/plain"}, {"Origin": "null"},
                    {"Host": f"evil.example:{port}"}):
        assert phone.call("POST", "/control/status", headers=headers)[0] in (415, 403, 421)
    assert phone.call("POST", "/control/status")[0] == 200


@pytest.mark.processes
def test_a_new_pin_ends_every_session_made_with_the_old_one(table):
    state, url = table
    phone = Phone(url)
    assert until(lambda: phone.enter(read_pin(state))[0] == 200, 10, "a session")
    assert phone.call("POST", "/control/status")[0] == 200
    said = subprocess.run([OBELISK, "pin", "--new", "--state-dir", str(state)],
                          capture_output=True, text=True, timeout=60)
    assert said.returncode == 0 and "the new table PIN is" in said.stdout
    new = read_pin(state)
    assert new in said.stdout
    status, answer, _ = phone.call("POST", "/control/status")
    assert status == 403 and "session has ended" in answer["error"]
    assert phone.call("GET", "/session")[1]["session"] is False
    assert phone.enter(new)[0] == 200


def test_many_wrong_pins_close_pin_entry_until_the_menu_is_held_at_the_table(service):
    now = [0.0]
    pin = read_pin(service.dir)
    with PageInProcess(service.dir, lambda: now[0]) as page:
        owner = Phone(page.url)
        assert owner.enter(pin)[0] == 200  # an owner's phone, before the guessing
        guesser = Phone(page.url)
        for n in range(CLOSE_AFTER - 1):
            now[0] += MAX_WAIT_S + 1  # past the wait each wrong PIN earns
            status, answer, _ = guesser.enter(_wrong(pin))
            assert status == 403 and "not the table's PIN" in answer["error"], n
        now[0] += MAX_WAIT_S + 1
        status, answer, _ = guesser.enter(_wrong(pin))
        closed = ("PIN entry is closed after too many wrong PINs: hold the menu button at the "
                  "table to open it again")
        assert (status, answer["error"]) == (423, closed)
        for _ in range(3):  # however long one waits, even the right PIN
            now[0] += 3600
            assert guesser.enter(pin)[:2] == (423, {"ok": False, "error": closed})
        assert guesser.call("GET", "/session")[1] == {"session": False, "closed": closed}
        assert owner.call("POST", "/control/status")[0] == 200  # owners play on meanwhile
        service.devices.buttons.press("menu", hold=True)  # at the table: the PIN shows
        now[0] += 2

        def opened() -> bool:
            now[0] += 2  # past the pause between two questions to the table
            return guesser.call("GET", "/session")[1] == {"session": False}

        until(opened, 20, "PIN entry to open after the hold")
        assert guesser.enter(pin)[0] == 200
