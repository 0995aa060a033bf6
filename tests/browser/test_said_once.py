"""Each thing said once, and the cards the same however the page came (issue 32, trial 7).

A newcomer's trial of `obelisk play` at a phone's width found the computer's
move said two or three times at once (the turn line, a banner repeating it,
High Rise's words under the ring repeating both), and a towers card keeping
"29 s stopped" or "0 s expired" through the next turn, gone after a reload.
Each test opens the page of a running `obelisk play` in Debian's chromium
(``tests.browser.test_played_pages.Playing``); the acts go through the hands'
socket.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from engine.core import square_name
from tests.support.page import PlayPage, high_rise_asked, high_rise_places, high_rise_started
from tests.support.person import plan

SHOWN = """() => [...document.querySelectorAll(
  '#turn, #notice, #link, #offer, #problem, .card .ring-says')]
  .filter((el) => el.offsetParent !== null).map((el) => el.textContent)"""
"""The lines of words shown around the board and on the cards (none hidden)."""

SIZE = re.compile(r"\b(small|medium|large) pyramid \(\d pips?\)")


def _said(page) -> list[str]:
    return page.evaluate(SHOWN)


def _once(lines: list[str], words: str) -> None:
    """``words`` stand in exactly one of the lines shown, once."""
    assert sum(line.count(words) for line in lines) == 1, (words, lines)


def _ring_says(page, seat: str) -> str:
    return page.wait_for_selector(f'#players [data-player="{seat}"] .ring-says',
                                  timeout=30_000).text_content()


@pytest.fixture
def high_rise_alone(browser, tmp_path):
    state = tmp_path / "highrise"
    state.mkdir()
    table = PlayPage(browser, "highrise", state, "--solo", "B")
    try:
        high_rise_started(table)
        yield table
    finally:
        table.stop()


def _computer_asked(table: PlayPage, n: int) -> str:
    """The ``n``th asked move's square, once the page draws it on the board (the ghost)."""
    table.follow.until(lambda: sum(e["event"] == "asked" for e in table.follow.events) >= n,
                       60, f"the computer's move {n} asked")
    square = square_name(high_rise_asked(table).square)
    table.page.wait_for_selector(f"#drawing [data-ask='ask'][data-square='{square}']",
                                 timeout=30_000)
    table.page.wait_for_function(
        "(sq) => document.getElementById('turn').textContent.includes(`on ${sq}`)",
        arg=square, timeout=30_000)
    return square


def test_high_rise_alone_says_the_computers_move_and_a_hint_once(high_rise_alone):
    """The computer's pyramid was said three times at once: the turn line ("make the
    computer's move: put a pyramid on b2, of the size the ring shows"), a banner "the
    computer (player B) asks: " the same, and the words under its ring ("the computer asks
    for a small pyramid (1 pip) on b2"); a hint twice. Now the turn line says the move, the
    words under the ring its size (where the ring is drawn), the banner only a hint (which
    no turn line says); the asked square stays drawn on the board, and while a wrong
    pyramid is refused the ask stays said."""
    table = high_rise_alone
    page, follow = table.page, table.follow
    asks = 0
    if follow.obs["to_play"] == "B":  # the computer begins: its pyramid made first
        asks += 1
        _computer_asked(table, asks)
        place = high_rise_asked(table)
        high_rise_places(table, square_name(place.square), place.size.label)
    # a hold of the person's button asks for a hint
    table.act({"act": "press", "seat": "A", "hold": True})
    hint = follow.until(lambda: next((e for e in follow.events if e["event"] == "hint"), None),
                        60, "the hint")
    hinted = hint["where"][0]["square"]
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('a hint for')",
        timeout=30_000)
    card = _ring_says(page, "A")
    assert SIZE.search(card) and hinted not in card, card
    lines = _said(page)
    _once(lines, f"on {hinted}")
    _once(lines, "a hint")
    # the person's pyramid, then the computer's asked
    high_rise_places(table, hinted, SIZE.search(card)[1])
    asks += 1
    square = _computer_asked(table, asks)
    card = _ring_says(page, "B")
    size = high_rise_asked(table).size
    assert SIZE.search(card)[1] == size.label and square not in card, card
    lines = _said(page)
    _once(lines, f"on {square}")
    _once(lines, "computer's move")
    assert not [line for line in lines if "asks" in line], lines
    # a pyramid of another size there is refused: the move asked is still said, its size
    # still beside the ring, and still drawn on the board
    wrong = next(s for s in ("small", "medium", "large") if s != size.label)
    table.act({"act": "set", "seat": "B", "square": square, "size": wrong})
    page.wait_for_selector("#problem:not([hidden])", timeout=30_000)
    lines = _said(page)
    assert any(f"make the computer's move: put a pyramid on {square}" in line
               for line in lines), lines
    assert SIZE.search(_ring_says(page, "B"))[1] == size.label
    assert page.query_selector(f"#drawing [data-ask='ask'][data-square='{square}']")


# ---------------------------------------------------------------- the towers hourglass

GLASSES = """() => Object.fromEntries([...document.querySelectorAll('#players .card')].map(
  (card) => [card.dataset.player, card.querySelector('.hourglass .seconds')?.textContent
    ?? null]))"""
"""Each card's hourglass words ("56 s", "29 s stopped"), null for a card without one."""


def _glasses(page) -> dict:
    return page.evaluate(GLASSES)


def _shown_running_only(page) -> dict:
    """The cards show only running glasses ("56 s"), no stopped or expired one."""
    page.wait_for_function(f"""() => {{
        const shown = ({GLASSES})();
        return Object.values(shown).every((w) => w === null || /^\\d+ s$/.test(w));
      }}""", timeout=10_000)
    return _glasses(page)


def test_a_towers_card_keeps_no_finished_hourglass_live_or_reloaded(browser, tmp_path):
    """After a timeout A's card read "0 s expired" all through B's turn, and after B's
    choosing "29 s stopped"; a reload showed neither (a joining page is told only a glass
    running or paused). Now a glass shows while it runs (or is paused) and goes when its
    turn ends, on a page there all along as on one reloaded; a glass frozen by the page
    when the table stops still shows its seconds, "stopped"."""
    state = tmp_path / "towers"
    state.mkdir()
    table = PlayPage(browser, "towers", state, "--hourglass", "10")
    page, follow = table.page, table.follow
    try:
        follow.start_game(lambda: table.act({"act": "press", "seat": "A"}))
        first = follow.obs["active"]
        other = "B" if first == "A" else "A"
        # the table stopped while the glass runs: the page freezes it, its seconds said
        page.wait_for_function(f"(p) => /^\\d+ s$/.test(({GLASSES})()[p])", arg=first,
                               timeout=10_000)
        url = table.url
        table.play.stop()  # Ctrl-C
        page.wait_for_function(f"(p) => / stopped$/.test(({GLASSES})()[p])", arg=first,
                               timeout=30_000)
        assert table.play.start().url == url  # the same command again
        follow.until(lambda: any(e["event"] == "timer" and e["state"] == "expired"
                                 for e in follow.events), 30, "the first hourglass run out")
        follow.until(lambda: any(e["event"] == "timer" and e["state"] == "started"
                                 and e["player"] == other for e in follow.events), 30,
                     "the next turn's hourglass")
        # the page draws the next glass once the table's event reaches it (the follower
        # here may hear it first): until then both cards are without one
        with contextlib.suppress(Exception):  # (the cards as they stand say more than a
            page.wait_for_function(f"([a, b]) => {{ const shown = ({GLASSES})();"  # timeout)
                                   " return shown[a] === null && shown[b] !== null; }",
                                   arg=[first, other], timeout=10_000)
        shown = _shown_running_only(page)
        assert shown[first] is None and shown[other], shown
        # the next chooser chooses two blocks: their glass stops, and goes
        for _ in range(2):
            before = follow.accepted()
            for act in plan(follow.obs, table.look()):
                table.act(act)
            follow.until(lambda b=before: follow.accepted() > b, 30, "a block chosen")
        follow.until(lambda: any(e["event"] == "timer" and e["state"] == "stopped"
                                 for e in follow.events), 30, "the chooser's glass stopped")
        page.wait_for_function(f"() => Object.values(({GLASSES})()).every((w) => w === null)",
                               timeout=10_000)
        page.reload()
        page.wait_for_selector("#players .card", timeout=30_000)
        assert all(w is None for w in _glasses(page).values()), _glasses(page)
    finally:
        table.stop()

