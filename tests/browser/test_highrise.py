"""High Rise's page as a person meets it: the moves after a restart, the computer's ring
put in words, the board's lights drawn on the board, one action counted as one.

Each test opens the page of a running `obelisk play highrise` in Debian's chromium; the
acts go through the hands' socket (the same acts the hands panel sends), so each test
spends its time on what the page shows. Each table's command starts while the test
before the one that opens it runs (``support.page.Tables``).
"""

from __future__ import annotations

import pytest

from engine.core import square_name
from tests.support.ahead import wanted
from tests.support.page import (
    PlayPage,
    Tables,
    high_rise_asked,
    high_rise_places,
    high_rise_started,
    moves_shown,
)

GLOWS = """() => [...document.querySelectorAll('#drawing [data-lit]')].map((glow) => {
  const square = document.querySelector(`#drawing rect.square[data-square="${glow.dataset.lit}"]`)
    .getBBox();
  const box = glow.getBBox();
  return { lit: glow.dataset.lit, colour: glow.dataset.colour,
    inside: box.x >= square.x && box.y >= square.y && box.x + box.width <= square.x + square.width
      && box.y + box.height <= square.y + square.height };
})"""
"""Each light drawn on the drawing: its square, its colour, and whether it lies inside it."""

TABLES = {"restarted": ("highrise",), "high_rise_alone": ("highrise", "--solo", "B"),
          "counted": ("highrise",)}
"""The module's `obelisk play GAME ARGS...`, each a fixture of the same name, in the order
the tests use them."""


@pytest.fixture(scope="module")
def tables(request, browser, tmp_path_factory):
    opened = Tables(browser, tmp_path_factory, TABLES, wanted(request, list(TABLES)))
    yield opened
    opened.close()


@pytest.fixture
def restarted(tables) -> PlayPage:
    """High Rise two-handed, for a test that restarts it."""
    return tables.open("restarted")


@pytest.fixture
def counted(tables) -> PlayPage:
    """High Rise two-handed, for counting its first action."""
    return tables.open("counted")


def test_the_moves_so_far_come_back_when_obelisk_play_starts_again(restarted):
    """Ctrl-C and the same command resume the game from the journal: the page's moves list
    shows every move since the start again, on the page left open and on a reload."""
    table = restarted
    high_rise_started(table)
    for square in ("b2", "c3"):
        high_rise_places(table, square)
    moves_shown(table, 2)
    before = table.moves()
    table.restart()
    high_rise_places(table, "a1")  # told after the restarted table's whole state
    moves_shown(table, 3)
    assert table.moves()[:2] == before, table.moves()
    assert table.page.text_content("#moves-count") == "3"
    table.page.reload()
    moves_shown(table, 3)
    assert table.moves()[:2] == before and "a1" in table.moves()[2], table.moves()
    # "what happened" on the reloaded page goes back to the first move too, oldest last
    told = table.page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    placed = [line for line in told if any(f" {sq}" in line for sq in ("b2", "c3", "a1"))]
    assert [sq for line in placed for sq in ("a1", "c3", "b2") if f" {sq}" in line] \
        == ["a1", "c3", "b2"], told


@pytest.fixture(scope="module")
def high_rise_alone(tables):
    """High Rise against the computer (it plays B), started, with the computer's first
    pyramid asked of the person."""
    table = tables.open("high_rise_alone")
    high_rise_started(table)
    follow = table.follow
    if follow.obs["to_play"] == "A":
        high_rise_places(table, "b2")
    follow.until(lambda: any(e["event"] == "asked" for e in follow.events), 60,
                 "the computer's pyramid asked")
    return table


def test_the_size_the_computers_ring_shows_is_said_in_words_beside_it(high_rise_alone):
    """High Rise alone: the computer's ring shows the size of the pyramid it asks for as a
    count of lights; the page says it in words beside the ring too (only the size: the turn
    line says the square, tests/browser/test_said_once.py)."""
    table = high_rise_alone
    place = high_rise_asked(table)
    said = table.page.wait_for_selector('#players [data-player="B"] .ring-says',
                                        timeout=30_000).text_content()
    size = place.size
    assert said == f"the ring shows a {size.label} pyramid ({size.value} " \
        f"pip{'s' if size.value > 1 else ''})", said


def test_the_high_rise_lights_are_drawn_as_its_board_each_on_its_square(high_rise_alone):
    """High Rise's board LEDs are on the physical board's 8-wide strip; the page draws them on
    the game's own 3x3 drawing (its one board, issue 48: no separate grid of lights), the
    computer's asked square lit on its own square and no other."""
    table = high_rise_alone
    page = table.page
    page.wait_for_selector("#drawing [data-lit]", timeout=30_000)
    assert page.is_hidden("#lights"), "the lights drawn twice"
    asked = square_name(high_rise_asked(table).square)
    page.wait_for_selector(f'#drawing [data-lit="{asked}"]', timeout=30_000)
    glows = page.evaluate(GLOWS)
    lit = {g["lit"] for g in glows if g["colour"] == "#a000ff"}  # palette.ASK
    assert lit == {asked}, (lit, asked)
    assert all(g["inside"] for g in glows), glows  # each light on its own square


def test_one_action_is_said_as_one_on_the_page_and_the_terminal(counted):
    """The page's status line and the terminal's words count one action as one."""
    from firmware.readers.terminal.screen import headline

    assert headline({"event": "takeback", "undone": 1, "actions": 3, "why": "confirmed",
                     "observation": {}}) == "1 action taken back"
    assert "1 action played" in headline({
        "event": "table", "game": "stones", "state": "play", "actions": 1, "turn": None,
        "doing": "", "problem": "", "observation": {}, "options": {}, "players": {}})
    high_rise_started(counted)
    high_rise_places(counted, "b2")
    counted.page.wait_for_function(
        "() => document.getElementById('status').textContent === '1 action played'",
        timeout=30_000)
