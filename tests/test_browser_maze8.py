"""The maze at a phone's width, as a newcomer's trial of `obelisk play maze` found it
(issue 32): the obelisk set on a segment it cannot reach got no word at all; the page now
says what to do, and the claim offered reads "the obelisk to h8"."""

from __future__ import annotations

from tests.test_browser_leftovers import Playing
from tests.test_browser_maze7 import _tap
from tests.test_browser_maze_segments import set_out_and_pass

TURN = "() => document.getElementById('turn').textContent"
OFFER = "() => document.getElementById('offer').textContent"


def test_the_obelisk_on_a_segment_out_of_reach_is_answered_on_the_page(browser, tmp_path):
    """Tap d4 (the obelisk lifted), then e6 (set on segment 2, out of its reach): the turn
    line kept "move the obelisk like a queen" and nothing else was said. Now the turn says
    to put it back on d4, why the claim on h8 is offered, and the box reads "the obelisk to
    h8"; put back on d4, the turn is as it was."""
    table = Playing(browser, "maze", tmp_path)
    page = table.page
    try:
        set_out_and_pass(table, "d4", {"e6": 2, "h8": 3, "h1": 4, "b1": 5})
        _tap(table, "d4")
        _tap(table, "e6")
        page.wait_for_function(f"() => ({TURN})().includes('put it back on d4')",
                               timeout=30_000)
        said = page.evaluate(TURN)
        assert "the obelisk is off d4: put it down on a lit square; if it stands on a lit " \
               "segment, hold your button" in said, said
        assert "it cannot reach segment 2 on e6, segment 4 on h1 or segment 5 on b1" in said, \
            said
        page.wait_for_function(f"() => ({OFFER})().includes('the obelisk to h8')",
                               timeout=30_000)
        _tap(table, "e6")
        _tap(table, "d4")
        page.wait_for_function(f"() => ({TURN})().includes('move the obelisk like a queen')",
                               timeout=30_000)
    finally:
        table.stop()
