"""The controls in a real browser: guests only watch, wrong PINs wait, the PIN runs the table.

``obelisk run`` plays on the simulated table (nothing moves its pieces) with
``obelisk web`` beside it; a guest's page (a laptop's size) and a person's
phone open the page. Same browser setup as ``tests/test_browser.py``.
"""

from __future__ import annotations

import subprocess

import pytest

from firmware.journal import Journal
from firmware.pin import read_pin
from tests.browser_support import LAPTOP, OBELISK, PHONE, Web, stop, until
from tests.test_browser import browser  # noqa: F401  (the shared chromium)

WAIT_S = 30


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    state = tmp_path_factory.mktemp("browser-controls") / "state"
    state.mkdir()
    service = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    web = None
    try:
        until(lambda: (state / "control.sock").exists(), WAIT_S, "the table's command socket")
        web = Web(state).start()
        yield state, web.url
    finally:
        if web is not None:
            web.stop()
        stop(service)


def _open(browser, url, size):  # noqa: F811
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#controls-guest", state="visible")
    return context, page


def _said(page) -> str:
    return page.locator("#controls-said").inner_text()


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def test_a_guest_sees_no_working_controls_and_a_forged_post_is_refused(browser, table):  # noqa: F811
    state, url = table
    context, page = _open(browser, url, LAPTOP)
    try:
        assert "guests watch only" in page.locator("#controls-guest").inner_text()
        assert page.locator("#controls-buttons").is_hidden()
        assert page.locator("#controls button[id^=ctl-]").count() == 0
        status, words = page.evaluate("""async () => {
            const r = await fetch('/control/start', {method: 'POST'});
            return [r.status, (await r.json()).error]; }""")
        assert status == 403 and "guests watch only" in words
        assert not Journal(state).read().entries  # no game started: nothing reached the table
    finally:
        context.close()


def test_with_the_pin_a_person_runs_the_table_and_wrong_pins_wait(browser, table):  # noqa: F811
    state, url = table
    pin = read_pin(state)
    context, page = _open(browser, url, PHONE)
    try:
        page.fill("#pin", _wrong(pin))
        page.click("#pin-enter")
        until(lambda: "not the table's PIN" in _said(page), WAIT_S, "the wrong PIN refused")
        page.fill("#pin", _wrong(pin))
        page.click("#pin-enter")
        until(lambda: "too many wrong PINs: wait" in _said(page), WAIT_S, "a wait asked for")
        assert page.locator("#controls-buttons").is_hidden()

        def enter() -> bool:  # the right PIN too waits out the delay the wrong ones earned
            if page.locator("#controls").get_attribute("data-session") == "yes":
                return True
            page.fill("#pin", pin)
            page.click("#pin-enter")
            return page.locator("#controls").get_attribute("data-session") == "yes"

        until(enter, WAIT_S, "a session for the right PIN", every=0.5)
        # the cookie alone is not enough: a post without the page's token is refused
        status = page.evaluate("""async () =>
            (await fetch('/control/pause', {method: 'POST'})).status""")
        assert status == 403

        page.click("#ctl-start", timeout=WAIT_S * 1000)
        page.wait_for_selector("#ctl-pause", timeout=WAIT_S * 1000)  # after the toss
        page.click("#ctl-pause")
        page.wait_for_selector("#ctl-resume", timeout=WAIT_S * 1000)
        until(lambda: page.locator("#status").inner_text().startswith("paused"), WAIT_S,
              "the page to say the table is paused")
        page.click("#ctl-resume")
        page.wait_for_selector("#ctl-pause", timeout=WAIT_S * 1000)
        assert not page.locator("#status").inner_text().startswith("paused")

        page.click("#ctl-end")
        page.click("#ctl-end-yes")
        page.wait_for_selector("#new-game-form", timeout=WAIT_S * 1000)
        assert list(state.glob("journal-*.jsonl"))  # the ended game is kept
        page.select_option("#new-game", "stones")
        page.wait_for_selector("#opt-size")
        page.fill("#opt-size", "5x5")
        page.select_option("#opt-mode", "bounded")
        page.click("#ctl-new")
        until(lambda: page.locator("#title").inner_text() == "Obelisk Table · stones", WAIT_S,
              "the page to show the new stones table")

        def refused() -> bool:  # the simulated board has no stones set out
            if "set the stones out" in _said(page):
                return True
            page.click("#ctl-start")  # again, while the new table still reads the board
            return "set the stones out" in _said(page)

        until(refused, WAIT_S, "the table's reason", every=0.5)
        page.select_option("#new-game", "towers")
        page.wait_for_selector("#opt-hourglass")
        page.fill("#opt-hourglass", "90")
        page.click("#ctl-new")
        until(lambda: page.locator("#title").inner_text() == "Obelisk Table · towers", WAIT_S,
              "the page to show the new towers table")

        def started() -> bool:
            if page.locator("#ctl-start").count():
                page.click("#ctl-start")
            return Journal(state).path.exists() and bool(Journal(state).unfinished())

        until(started, WAIT_S, "the new game to start", every=0.5)
        start = Journal(state).unfinished().start
        assert start["game"] == "towers" and start["options"]["hourglass_s"] == 90
        page.wait_for_selector("#ctl-pause", timeout=WAIT_S * 1000)
    finally:
        context.close()
