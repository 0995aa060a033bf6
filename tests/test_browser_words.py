"""The words and pictures a newcomer met on `obelisk play`'s page (issue 32, point 8).

Each test opens the page of a running `obelisk play` in Debian's chromium, at a
phone's width (``tests.test_browser_leftovers.Playing``), and checks what a
person reads there: a towers block that looks the same every way it turns is
not "turned 1 of 1 ways"; and before the first stones game the drawing and
the hands panel show the board as the switches read it.
"""

from __future__ import annotations

from tests.test_browser_leftovers import Playing

HELD = ".hands-held[data-held] p"


def _held_words(page, block: str) -> str:
    page.wait_for_selector(f'.hands-held[data-held="{block}"]', timeout=30_000)
    return page.text_content(HELD)


def test_a_block_the_same_every_way_it_turns_is_not_turned_1_of_1_ways(browser, tmp_path):
    """The towers hands say how a held block is turned, of how many ways; a block that looks
    the same whichever way it turns (G01, a single column) is said so, with no count."""
    table = Playing(browser, "towers", tmp_path)
    page = table.page
    try:
        page.click('#hands button[data-block="G01"]', timeout=30_000)
        said = _held_words(page, "G01")
        assert "1 of 1" not in said and "the same whichever way it turns" in said, said
        page.click('#hands button[data-act="back"]')
        page.click('#hands button[data-block="Y01"]', timeout=30_000)
        said = _held_words(page, "Y01")
        assert "turned 1 of 2 ways" in said, said
    finally:
        table.stop()
