"""The towers page as a person meets it: the rods' lights drawn as the rods, blocks named by
colour and never by id, and the hands after a takeback.

The tests share one `obelisk play towers` and its page in Debian's chromium, each going on
from where the one before left the game; the acts go through the hands' socket.
"""

from __future__ import annotations

import re

import pytest

from tests.support.page import PlayPage
from tests.support.person import plan
from tests.support.towers import BLOCK_ID


@pytest.fixture(scope="module")
def towers(browser, tmp_path_factory):
    """Towers two-handed, shared by the towers tests (each goes on from the one before)."""
    table = PlayPage(browser, "towers", tmp_path_factory.mktemp("towers"))
    yield table
    table.stop()


def test_the_towers_rod_lights_are_drawn_on_the_rods_of_the_drawing(towers):
    """Each tower's nine rods have a light under them: the page draws each lit one on its own
    rod of the drawing, named, not as a separate grid of lights (issue 48's one board; the
    grid drew them as the 3x3 rods seen from above): a placed block's rods glow there."""
    _towers_until(towers, "place")
    last = next(e for e in reversed(towers.follow.events) if e["event"] == "accepted"
                and e["action"].startswith("place"))
    _, _, tower, *cells = last["action"].split()  # "place Y01 B a1:1 a2:1"
    rods = {cell.split(":")[0] for cell in cells}
    for rod in rods:
        towers.page.wait_for_selector(f'#drawing [data-lit="{tower}:{rod}"]', timeout=30_000)
    assert towers.page.is_hidden("#lights"), "the lights drawn twice"
    lit = towers.page.eval_on_selector_all(f'#drawing [data-lit^="{tower}:"]',
                                           "nodes => nodes.map((n) => n.dataset.lit)")
    assert {name.split(":")[1] for name in lit} >= rods, (lit, rods)


def _towers_until(table: PlayPage, phase: str) -> None:
    """The towers game started (once: the tests share the table), then played on as a
    person who plays legally and low until it is in ``phase``."""
    follow = table.follow
    if not any(e["event"] == "start" for e in follow.events):
        follow.start_game(lambda: table.act({"act": "press", "seat": "A"}))
    while follow.obs["phase"] != phase:
        before = follow.accepted()
        for act in plan(follow.obs, table.look()):
            table.act(act)
        follow.until(lambda b=before: follow.accepted() > b, 60, "the acts to count")


def test_no_words_on_the_towers_page_name_a_block_by_its_id(towers):
    """Towers: the moves said "chose the blue block B01" and later "placed the blue block
    B02", while the hands panel held "the blue block B01". The wooden blocks carry no labels
    and the table tells a block by its colour and shape only: the moves, the turn, the
    drawing's facts, the hands panel and what happened name a block by its colour (and
    where it is), and the block the active player got is the colour the facts show held."""
    table = towers
    page, follow = table.page, table.follow
    _towers_until(table, "place")
    page.wait_for_function("(n) => document.querySelectorAll('#moves li').length >= n",
                           arg=follow.accepted(), timeout=30_000)
    for where in ("#moves", "#turn", "#facts", "#hands", "#log"):
        text = page.text_content(where)
        assert not BLOCK_ID.search(text), (where, text)
    titles = page.eval_on_selector_all("#hands [title], #facts [title]",
                                       "nodes => nodes.map((n) => n.title)")
    assert not [t for t in titles if BLOCK_ID.search(t)], titles
    moves = table.moves()
    assert any(re.search(r"chose an? (yellow|red|green|blue) block", m) for m in moves), moves
    got = re.search(r"got the (?:other )?(\w+ block)", " ".join(moves))
    assert got and got[1] in page.text_content("#facts"), (moves, page.text_content("#facts"))


HANDS_RODS = """() => [...document.querySelectorAll('#drawing [data-tap^="rod-"]')].map((b) =>
  ({disabled: /stick out|empty/.test(b.getAttribute('aria-label') || ''),
    title: b.getAttribute('aria-label') || ''}))"""
"""The rods tapped on the drawing, each saying what a tap there does, or why it does nothing."""


def test_after_a_takeback_the_hands_say_where_the_block_is_and_why_a_rod_is_grey(towers):
    """Towers: the hands of whoever's turn it is lift the passive player's block off again
    and its owner takes it back; the turn goes back to the owner, whose hand is empty: the
    panel says who holds the block and offers to act with that hand, and every rod greyed
    out says why, in its title and in a line under the towers."""
    table = towers
    page, follow = table.page, table.follow
    _towers_until(table, "place")
    active = follow.obs["active"]
    passive = "B" if active == "A" else "A"
    block = follow.obs["towers"][passive][-1]["id"]
    colour = follow.obs["towers"][passive][-1]["colour"]
    page.wait_for_selector(f'#hands [data-hands-of="{active}"]')  # the turn's hands
    table.act({"act": "lift", "seat": active, "tower": "AB".index(passive),
               "block": block})
    follow.until(lambda: follow.offer and follow.offer["kind"] == "takeback", 60,
                 "the takeback offered")
    # an offer to take it back, not a refusal: no red "Not allowed"
    offered = page.wait_for_selector("#problem.offered:not([hidden])", timeout=30_000)
    assert offered.text_content().split()[:4] == ["A", "piece", "came", "off"], \
        offered.text_content()
    # ...and "what happened" says it as the offer it is, not in red as a broken rule
    line = page.wait_for_selector("#log li:has-text('came off')", timeout=30_000)
    assert line.text_content().startswith("a piece came off: "), line.text_content()
    assert line.get_attribute("class") != "refused"
    table.act({"act": "press", "seat": passive})
    follow.until(lambda: any(e["event"] == "takeback" for e in follow.events), 60,
                 "the takeback")
    page.wait_for_selector(f'#hands [data-hands-of="{passive}"]', timeout=30_000)
    told = page.wait_for_selector(f'#hands [data-holder="{active}"]', timeout=30_000)
    said = told.text_content()
    assert f"holds the {colour} block" in said and block not in said, said
    rods = page.evaluate(HANDS_RODS)
    assert rods and all(rod["title"] for rod in rods if rod["disabled"]), rods
    why = page.text_content("#hands .hands-why")
    assert "empty" in why, why
    page.click(f'#hands [data-holder="{active}"] button')  # act with the hand that holds it
    page.wait_for_selector(f'#hands [data-hands-of="{active}"] ~ * [data-held="{block}"]',
                           timeout=30_000)
