"""The controls in a real browser: guests only watch, wrong PINs wait, the PIN runs the table.

``obelisk run`` plays on the simulated table (nothing moves its pieces) with
``obelisk web`` beside it; a guest's page (a laptop's size) and a person's
phone open the page. Same browser setup as ``tests/browser/test_demo_pages.py``.
"""

from __future__ import annotations

import contextlib
import subprocess

import pytest

from firmware.service.pin import read_pin
from firmware.store.journal import Journal
from tests.support.browser import LAPTOP, PHONE
from tests.support.demo import Demo
from tests.support.http import Phone
from tests.support.processes import OBELISK, stop, until
from tests.support.web import Web


def _tap_start(page) -> None:
    """The start button tapped if it is there: gone meanwhile (the game it starts begun, the
    buttons drawn again without it) is no failure, the caller's check says what came of it
    (a click waits 30 s for a button that went)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # none on a Pi

    with contextlib.suppress(PlaywrightTimeout):
        page.locator("#ctl-start").click(timeout=1000)

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


def _open(browser, url, size):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#controls-guest", state="visible")
    return context, page


def _said(page) -> str:
    return page.locator("#controls-said").inner_text()


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def test_a_guest_sees_no_working_controls_and_a_forged_post_is_refused(browser, table):
    state, url = table
    context, page = _open(browser, url, LAPTOP)
    try:
        assert "guests watch only" in page.locator("#controls-guest").inner_text()
        assert page.locator("#controls-buttons").is_hidden()
        assert page.locator("#controls button[id^=ctl-]").count() == 0
        status, words = page.evaluate("""async () => {
            const r = await fetch('/control/start', {method: 'POST',
                headers: {'Content-Type': 'application/json'}});
            return [r.status, (await r.json()).error]; }""")
        assert status == 403 and "guests watch only" in words
        status = page.evaluate("""async () => (await fetch('/session', {method: 'POST',
            headers: {'Content-Type': 'text/plain'}, body: '{"pin": "0000"}'})).status""")
        assert status == 415  # what a form can send is not even read
        assert not Journal(state).read().entries  # no game started: nothing reached the table
    finally:
        context.close()


def test_a_page_of_another_site_cannot_even_send_a_guess(browser, table):
    state, url = table
    pin = read_pin(state)
    other = url.replace("127.0.0.1", "localhost")  # another origin, as another site is
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    try:
        page.goto(other + "/")
        page.evaluate("""async ([url, pin]) => {
            for (const type of ['text/plain', 'application/json']) {
                try {
                    await fetch(url + '/session', {method: 'POST', mode: 'no-cors',
                        headers: {'Content-Type': type}, body: JSON.stringify({pin})});
                } catch (e) { /* refused by the browser: as good */ }
            }}""", [url, _wrong(pin)])
        # had either guess counted, this address would wait now before its next try
        status, answer, _ = Phone(url).enter(pin)
        assert status == 200, answer
    finally:
        context.close()


def test_with_the_pin_a_person_runs_the_table_and_wrong_pins_wait(browser, table):
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
        status = page.evaluate("""async () => (await fetch('/control/pause', {method: 'POST',
            headers: {'Content-Type': 'application/json'}})).status""")
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

        def not_ready() -> str:  # the simulated board has no stones set out
            return " ".join(page.locator("#ctl-not-ready").all_inner_texts())

        until(lambda: "set the stones out" in not_ready(), WAIT_S,
              "the table's reason where its start would be")
        assert not page.locator("#ctl-start").count()
        assert "hands" not in not_ready()  # this page has none: the table is wooden
        page.select_option("#new-game", "towers")
        page.wait_for_selector("#opt-hourglass")
        page.fill("#opt-hourglass", "90")
        page.click("#ctl-new")
        until(lambda: page.locator("#title").inner_text() == "Obelisk Table · towers", WAIT_S,
              "the page to show the new towers table")

        def started() -> bool:
            _tap_start(page)
            return Journal(state).path.exists() and bool(Journal(state).unfinished())

        until(started, WAIT_S, "the new game to start", every=0.5)
        start = Journal(state).unfinished().start
        assert start["game"] == "towers" and start["options"]["hourglass_s"] == 90
        page.wait_for_selector("#ctl-pause", timeout=WAIT_S * 1000)
    finally:
        context.close()


@pytest.fixture
def lone_table(tmp_path):
    state = tmp_path / "state"
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


def test_a_solo_game_set_up_from_the_page_lights_a_hint(browser, lone_table):
    state, url = lone_table
    context, page = _open(browser, url, PHONE)
    try:
        page.fill("#pin", read_pin(state))
        page.click("#pin-enter")
        page.wait_for_selector("#new-game-form", timeout=WAIT_S * 1000)
        page.select_option("#opt-solo", "A")  # the computer plays A; this phone plays B
        page.select_option("#opt-level", "2")
        page.click("#ctl-new")
        until(lambda: page.locator("#opt-solo").input_value() == "A"
              and page.locator("#opt-level").input_value() == "2", WAIT_S,
              "the form to show the table set up for one person")

        def start() -> bool:  # again, while a fresh table still reads the board
            _tap_start(page)
            return bool(page.locator("#ctl-pause").count())

        def whose_turn() -> str:
            if page.locator("#ctl-hint").count():
                return "mine"
            return "computer" if "make the computer's move" in \
                page.locator("#turn").inner_text() else ""

        for _ in range(20):  # the toss decides who begins: the person's turn is wanted
            until(start, WAIT_S, "the game to start", every=0.5)
            if until(whose_turn, WAIT_S, "the first turn") == "mine":
                break
            page.click("#ctl-end")  # the computer begins: end it, one alone again
            page.click("#ctl-end-yes")
            page.wait_for_selector("#ctl-start", timeout=WAIT_S * 1000)
            assert not page.locator("#ctl-hint").count()
        else:
            raise AssertionError("the computer began twenty times")
        assert len(list(state.glob("journal-*.jsonl"))) == _  # each ended game kept
        page.click("#ctl-hint")
        until(lambda: page.locator("#notice").inner_text().startswith("a hint for player B"),
              WAIT_S, "the page to show the hint")
        # the command's answer, under the controls, says it is lit, not the move again
        until(lambda: _said(page).startswith("the hint is lit"), WAIT_S,
              "the hint's answer said")
        assert page.locator("#notice").inner_text().split(": ", 1)[1] not in _said(page)
        assert page.locator("#notice").is_visible()
    finally:
        context.close()


def test_playing_towers_alone_the_page_draws_the_computers_blocks(browser, tmp_path):
    """The computer's towers move on the page, not only on the LEDs: the shape of each block
    it wants fetched, drawn on its empty zone pad, and the cubes its block fills on its
    tower, turned as they go (the asked event's where), outlined in violet."""
    state_dir = tmp_path / "solo"
    state_dir.mkdir()
    web = Web(state_dir).start()
    demo = Demo("towers", state_dir, seed=3, speed=2, extra=("--solo", "A"))
    seen: dict = {}
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(web.url + "/")
        demo.start()
        while not ("shape" in seen and "cubes" in seen):
            got = page.wait_for_function("""() => {
                // read at once: the demo's hand makes the asked move soon after it is asked
                const turn = document.getElementById("turn").textContent;
                const notice = document.getElementById("notice").textContent;
                const shapes = [...document.querySelectorAll("#facts svg[data-ask='ask']")];
                const cubes = [...document.querySelectorAll("#drawing [data-ask='ask']")];
                if (!turn.includes("make the computer's move: ")
                    || !(shapes.length || cubes.length)) return null;
                return { turn, notice,
                  shapes: shapes.map((s) => [s.dataset.colour, s.dataset.cells]),
                  cubes: cubes.map((c) => [c.closest("[data-player]").dataset.player,
                    c.dataset.cell]) };
            }""", timeout=90_000).json_value()
            asked = [e for e in demo.events() if e.get("event") == "asked"]
            assert asked and all(e["player"] == "A" for e in asked)
            marks = [m for e in asked for m in e["where"]]
            wanted = {(m["zone"], _cells(m["cells"])) for m in marks if m.get("cells")
                      and m.get("zone")}
            for colour, cells in got["shapes"]:  # each shape drawn is one the computer asked
                assert (colour, _cells(cells.split(" "))) in wanted, (colour, cells, marks)
                seen["shape"] = got
            if got["cubes"]:
                placed = {(m["tower"], _cells(m["cells"])) for m in marks if m.get("tower")}
                player = {p for p, _ in got["cubes"]}
                assert len(player) == 1
                drawn = _cells([c for _, c in got["cubes"]])
                assert (player.pop(), drawn) in placed, (got, marks)
                seen["cubes"] = got
            # said once: the turn line says the move, no notice says it again
            assert "asks" not in got["notice"], got
            page.wait_for_function("(n) => document.getElementById('turn').textContent !== n",
                                   arg=got["turn"], timeout=90_000)
        # the words once: where the block goes is drawn, not said again in brackets
        said = {f"player A: make the computer's move: {e['text']}"
                for e in asked}
        assert seen["cubes"]["turn"] in said, (seen["cubes"]["turn"], said)
    finally:
        demo.stop()
        web.stop()


def _cells(cells: list) -> frozenset[tuple[int, ...]]:
    """Cubes as a set, from the page's "x,y,z" or an event's [x, y, z]."""
    return frozenset(tuple(int(v) for v in (c.split(",") if isinstance(c, str) else c))
                     for c in cells)
