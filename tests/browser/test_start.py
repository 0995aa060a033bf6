"""Before a game, the page's "Run the table" panel at a phone's width (issue 32).

A newcomer's `obelisk play stones` on a fresh state directory: the stones are
not set out, so the table cannot start. The panel says so where its start
would be, with what to do; a command the table refuses is said beside the
button that sent it; a new game refused keeps its form as typed, and the
form names the seats as the game does.
Each test has its own `obelisk play` (``tests.browser.test_play.Played``).
"""

from __future__ import annotations

import json

import pytest

from firmware.service.command_socket import send
from firmware.store.journal import Journal
from tests.support.page import PlayPage
from tests.support.processes import until

WAIT_S = 30
NEAR_PX = 60
"""How far under a button its answer may stand: in view with it, nothing between."""


@pytest.fixture
def stones(browser, tmp_path):
    state = tmp_path / "stones"
    state.mkdir()
    played = PlayPage(browser, "stones", state)
    played.page.wait_for_selector("#new-game-form", timeout=WAIT_S * 1000)
    yield played
    played.stop()


def _box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def _said(page) -> str:
    return page.locator("#controls-said").inner_text()


def _under(page, answer: str, button: str) -> float:
    """How far under ``button``'s bottom ``answer``'s top stands, in pixels."""
    return _box(page, answer)["y"] - (_box(page, button)["y"] + _box(page, button)["height"])


def test_a_table_not_set_out_says_what_to_do_before_it_can_start(stones):
    """No start that does nothing: where it would be, the table's words for what to set out,
    and the hands' act that does it; once set out, the start is there and begins the game."""
    page = stones.page
    line = page.locator("#ctl-not-ready")
    until(lambda: line.count() and "set the stones out as at the start" in line.inner_text(),
          WAIT_S, "the panel to say what stands before the start")
    words = line.inner_text()
    assert '"set it up for a new game"' in words, words  # the hands panel's act for it
    assert page.locator("#ctl-start").count() == 0
    # at the panel's top, above the new-game form
    assert _box(page, "#ctl-not-ready")["y"] < _box(page, "#new-game-form")["y"]
    page.click('[data-act="setup"]')  # the hands set the stones out
    page.click("#ctl-start", timeout=WAIT_S * 1000)
    page.wait_for_selector("#ctl-pause", timeout=WAIT_S * 1000)
    assert Journal(stones.dir).unfinished() is not None
    assert line.count() == 0


def test_a_refused_start_is_said_beside_its_button(stones):
    """The start tapped just as the board changed (the page had not heard yet): the table's
    refusal, why and what to do, stands right under the button, not under the form."""
    page = stones.page
    page.click('[data-act="setup"]')
    page.wait_for_selector("#ctl-start", timeout=WAIT_S * 1000)
    stale = send(stones.dir, {"command": "status"})
    assert stale["can"]["start"]
    # the page keeps hearing the table as it was: the start stays offered
    page.route("**/control/status", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(stale)))
    stones.act({"act": "clear"})
    until(lambda: send(stones.dir, {"command": "status"})["problem"].startswith(
        "set the stones out"), WAIT_S, "the table to see the stones gone")
    page.click("#ctl-start")
    until(lambda: "set the stones out as at the start" in _said(page), WAIT_S,
          "the refusal said")
    assert 0 <= _under(page, "#controls-said", "#ctl-start") <= NEAR_PX
    assert page.locator("#controls-said").get_attribute("class") == "wrong"
    page.unroute("**/control/status")


def test_a_refused_new_game_is_said_under_its_form_which_keeps_what_was_typed(stones):
    page = stones.page
    page.fill("#opt-size", "9x9")
    page.select_option("#opt-mode", "bounded")
    page.click("#ctl-new")
    until(lambda: "8x8" in _said(page), WAIT_S, "the refusal said, with the sizes it takes")
    assert 0 <= _under(page, "#controls-said", "#ctl-new") <= NEAR_PX
    # nothing typed is lost: the person corrects it
    assert page.locator("#opt-size").input_value() == "9x9"
    assert page.locator("#opt-mode").input_value() == "bounded"


def _players(page) -> list[str]:
    return page.locator("#opt-solo option").all_inner_texts()


def test_the_players_choices_name_the_seats_as_the_game_does(stones):
    page = stones.page
    assert _players(page) == [
        "two people", "the computer plays player A", "the computer plays player B",
        "a friend at another table; player A here", "a friend at another table; player B here"]
    page.select_option("#new-game", "maze")
    until(lambda: "the computer plays the Architect" in _players(page), WAIT_S,
          "the maze's roles in the form")
    assert _players(page) == [
        "two people", "the computer plays the Architect",
        "the computer plays the Maze Master", "a friend at another table; the Architect here",
        "a friend at another table; the Maze Master here"]


def test_what_is_typed_in_the_new_game_form_stays_while_the_table_changes(stones):
    """The form was drawn again at each change of the table's status (a piece set out, a
    move), and what was half typed in it was gone: it keeps what the person typed or chose,
    and the field they were in."""
    page = stones.page
    page.fill("#opt-size", "5x5")
    page.select_option("#opt-mode", "balanced")
    page.select_option("#opt-solo", "B")
    page.focus("#opt-size")
    before = send(stones.dir, {"command": "status"})
    stones.act({"act": "setup"})  # the hands set the stones out: the status changes
    page.wait_for_selector("#ctl-start", timeout=WAIT_S * 1000)  # the panel was drawn again
    assert send(stones.dir, {"command": "status"}) != before
    assert page.locator("#opt-size").input_value() == "5x5"
    assert page.locator("#opt-mode").input_value() == "balanced"
    assert page.locator("#opt-solo").input_value() == "B"
    assert page.evaluate("document.activeElement?.id") == "opt-size"
