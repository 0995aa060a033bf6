"""Lines of a match's page that stay true (a person's walk through a match, issue 48 point 3):
once the person pressed for a takeback the offer box no longer asks for the press; "the other
table is back" goes once the game moves on, and how the link stands is said again.

The page is fed the table's events as a match's table tells them (its stream routed in the
browser: no second table or broker is needed to say what the page then shows).
"""

from __future__ import annotations

from tests.support.browser import PHONE
from tests.support.fed_page import OBSERVATION, TABLE, seen

OFFER = {"event": "offer", "kind": "takeback", "players": ["A"], "afar": True,
         "candidates": ["take back the last action"]}
ASK = {"game": 1, "seat": "A", "number": 1, "kind": "takeback", "takebacks": 0,
       "actions": 1, "to": 0}


def _seen(browser, tmp_path, *events: dict, where: str = "#offer") -> str | None:
    """The words at ``where`` once the page drew the match's table and ``events``."""
    return seen(browser, tmp_path / "table", TABLE, *events, where=where, shown="player B")


def test_a_takeback_on_offer_at_a_match_says_the_press_asks_the_other_table(browser, tmp_path):
    said = _seen(browser, tmp_path, OFFER)
    assert said is not None and "asks the other table" in said, said


def test_once_pressed_the_offer_box_asks_for_the_press_no_more(browser, tmp_path):
    asked = {"event": "match", "state": "asked", "ask": ASK,
             "message": "asked the other table to take back the last action"}
    assert _seen(browser, tmp_path, OFFER, asked) is None


def test_the_other_table_back_is_said_until_the_game_moves_on(browser, tmp_path):
    """The walk: "the other table (player A) is back" stayed in the header through the moves
    after it."""
    playing = {"event": "remote", "state": "linked", "message": "playing the table 'ta' (seat A)"}
    back = {"event": "remote", "state": "back", "message": "the other table (player A) is back"}
    moved = {"event": "accepted", "player": "B", "text": "put a stone", "observation": OBSERVATION}
    assert _seen(browser, tmp_path, playing, back, where="#link") == back["message"]
    assert _seen(browser, tmp_path / "2", playing, back, moved, where="#link") == \
        playing["message"]


def test_before_the_start_a_match_s_hands_are_the_person_s_own(browser, broker, tmp_path):
    """The walk: before the start, the page of B's table titled its hands "Player A's hands"
    (no turn yet, so the panel fell back to seat A), though the person there plays B."""
    from tests.support.page import PlayPage

    state = tmp_path / "tb"
    state.mkdir()
    table = PlayPage(browser, "towers", state, "--remote", "derby", "--seat", "B",
                     "--broker", broker.url, "--table", "tb", viewport=PHONE)
    try:
        head = table.page.wait_for_selector("#hands h2[data-hands-of]", timeout=30_000)
        assert head.get_attribute("data-hands-of") == "B", head.text_content()
        assert (head.text_content() or "").startswith("Player B's hands")
    finally:
        table.stop()
