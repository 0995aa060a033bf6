"""Each game's page on a phone while a person plays with its hands (issue 32, point 4).

At a phone's width (360 to 414 px, 640 to 844 tall) nothing scrolls sideways,
and whichever of the hands' controls a move needs the person scrolls to, the
board drawing is in view with it: they never scroll between the board and the
hands for a move (nor on a laptop), and the line saying whose turn it is and what to do
is in view with them. The panel shows as soon as the table PIN is accepted, not at
the hands' next look, and goes when the phone only watches again.

The four games run side by side, one page each, for the whole module.
"""

from __future__ import annotations

import pytest

from tests.browser_support import PHONE
from tests.test_browser_play import Played

PLAYS = [("towers",), ("stones", "--size", "8x8"), ("highrise",), ("maze",)]
"""The `obelisk play GAME ARGS...` the module runs (the stones on the whole 8x8 board)."""

HELD = """
// The page's polls (every second or more) held until the test lets them go: until then
// only an answer of the page itself can show the hands panel.
window.pollsHeld = true;
const every = window.setInterval;
window.setInterval = (tick, ms, ...rest) => ms < 1000 ? every(tick, ms, ...rest)
  : every(() => { if (!window.pollsHeld) tick(); }, ms, ...rest);
"""

SHOWN = "#hands:not([hidden]) [data-press]"
"""The hands panel, drawn."""

MOVE = ('[data-block], [data-take-pad], [data-set-pad], [data-act="turn"], '
        "[data-tower][data-at], .hands-board button, [data-piece], [data-size], [data-press]")
"""The hands' controls a move needs: the towers' pile, zone pads, the block in hand and
both towers' rods; the square boards' squares and what is beside them; the table's
buttons."""

IN_VIEW = """(selector) => {
  // each control scrolled into view as a person scrolls down to it (it comes up from the
  // bottom of the screen): is it there to touch, and how much of the board is in view with it
  const seen = [];
  for (const control of document.querySelectorAll(selector)) {
    control.scrollIntoView({ block: "end" });
    const c = control.getBoundingClientRect();
    const board = document.querySelector("#drawing svg").getBoundingClientRect();
    const shown = Math.min(board.bottom, innerHeight) - Math.max(board.top, 0);
    const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    // and what the table asks now (whose turn, what to do) is read with it
    const said = document.querySelector("#turn").getBoundingClientRect();
    seen.push({ control: control.title || control.textContent.trim(),
      touch: c.top >= -1 && c.bottom <= innerHeight + 1 && control.contains(hit),
      turn: said.height > 0 && said.top >= -1 && said.bottom <= innerHeight + 1,
      said: document.querySelector("#turn").textContent,
      board: Math.max(0, shown) / board.height,
      wide: board.left >= -1 && board.right <= innerWidth + 1 });
  }
  return seen;
}"""


@pytest.fixture(scope="module")
def plays(browser, tmp_path_factory):
    """The four games, their commands started at once, then their pages, every PIN typed
    before any is waited on; the hands' polls held."""
    started: list[Played] = []
    try:
        for game, *args in PLAYS:
            started.append(Played(browser, game, tmp_path_factory.mktemp(game), *args,
                                  opened=False, script=HELD))
        for played in started:
            played._open()
        for played in started:
            played.page.wait_for_selector('#controls[data-session="yes"]', timeout=30_000)
        yield {key[0]: played for key, played in zip(PLAYS, started, strict=True)}
    finally:
        for played in started:
            played.stop()


def _within(page, selector: str, state: str, seconds: float) -> bool:
    """Whether ``selector`` comes to ``state`` ("visible", "hidden") within ``seconds``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(selector, state=state, timeout=seconds * 1000)
    except PlaywrightTimeout:
        return False
    return True


def _let_polls_go(played: Played) -> None:
    played.page.evaluate("() => { window.pollsHeld = false; }")


def test_the_hands_show_as_soon_as_the_pin_is_accepted(plays):
    """Not at the hands' next look (every 2 s, held here): the PIN's answer shows them."""
    try:
        for game, played in plays.items():
            assert _within(played.page, SHOWN, "visible", 3), \
                f"{game}: no hands panel 3 s after the PIN was accepted"
    finally:
        for played in plays.values():
            _let_polls_go(played)


@pytest.mark.parametrize("viewport", [PHONE, {"width": 360, "height": 640},
                                      {"width": 1280, "height": 800}])
def test_the_board_is_in_view_with_each_control_of_the_hands(plays, viewport):
    """At 390 x 844 and 360 x 640 (and on a laptop's 1280 x 800), for each game, with a
    block in the towers' hand (its "turn it" and both towers' rods then at work): each
    control a move needs, scrolled to, is there to touch with the whole width of the board
    and most of its height in view;
    nothing scrolls sideways."""
    towers = plays["towers"]
    for played in plays.values():
        _let_polls_go(played)
        played.page.wait_for_selector(SHOWN, timeout=30_000)
    if not towers.page.query_selector("#hands [data-held]"):
        towers.person.click("#hands [data-block]")
    towers.page.wait_for_selector('#hands [data-act="turn"]')
    wrong = []
    for game, played in plays.items():
        page = played.page
        page.set_viewport_size(viewport)
        wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        if wide[0] > wide[1]:
            wrong.append(f"{game} scrolls sideways: {wide}")
        for seen in page.evaluate(IN_VIEW, MOVE):
            if not seen["touch"] or seen["board"] < 0.6 or not seen["wide"] or not seen["turn"]:
                wrong.append(f"{game}: {seen}")
        page.evaluate("() => window.scrollTo(0, 0)")
    assert not wrong, f"at {viewport}: {len(wrong)} out of view, first {wrong[:6]}"


def test_the_hands_go_when_the_phone_only_watches(plays):
    """"Only watch on this phone" ends its session: the hands panel goes with it (a guest
    moves nothing and sees no hands)."""
    page = plays["maze"].page
    page.wait_for_selector(SHOWN, timeout=30_000)
    page.click("#controls-leave")
    page.wait_for_selector('#controls[data-session="no"]', timeout=30_000)
    assert _within(page, "#hands", "hidden", 3), \
        "the hands panel stays 3 s after the phone only watches"


def test_after_an_act_what_the_hands_hold_comes_into_view_below_the_board(plays):
    """A block taken from the pile (at the panel's foot): the block now held, its "turn it"
    and the rods it goes on come into view below the board, not hidden under it."""
    towers = plays["towers"]
    page = towers.page
    _let_polls_go(towers)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(SHOWN, timeout=30_000)
    if page.query_selector("#hands [data-held]"):   # (a block in hand: set it on a pad first)
        towers.person.click("#hands [data-set-pad]")
        page.wait_for_selector("#hands:not([data-busy]) [data-block]")
    acts = page.get_attribute("#hands", "data-acts")
    towers.person.click("#hands [data-block]")
    page.wait_for_function("(n) => document.querySelector('#hands').dataset.acts !== n",
                           arg=acts)
    page.wait_for_selector('#hands [data-act="turn"]')
    seen = page.evaluate("""() => {
      const band = document.querySelector("#board-view").getBoundingClientRect();
      const turn = document.querySelector('#hands [data-act="turn"]').getBoundingClientRect();
      return { band: band.bottom, turn: turn.top, bottom: turn.bottom, screen: innerHeight };
    }""")
    assert seen["turn"] >= seen["band"] - 1 and seen["bottom"] <= seen["screen"], seen
