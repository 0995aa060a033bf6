"""Each maze segment named by the number its wooden piece carries (issue 32).

The rules number the obelisk's segments: the Architect puts segment 1, the
obelisk, on the board, and the Maze Master the others, which the table asks
for in turn, 2 to 5. What happened, the moves list, the turn, the computer's
asked moves and hints, the refusals and the board as text all name a segment by
that number, and the observation carries it as data for the page's drawing (what
the page shows is in ``tests/browser/test_maze.py``).
"""

from __future__ import annotations

import pytest

from engine.core import parse_square as sq
from engine.maze.actions import Move, Pass, PlaceSegment
from engine.maze.game import MazeError, MazeGame
from firmware.maze import solo
from firmware.maze.screen import draw
from tests.support.tables import MazeHarness as Table

LAID = ("b5", "e5", "e2", "g7")
"""Where the Maze Master puts segments 2, 3, 4 and 5, in that order."""


def _laid(tmp_path) -> Table:
    """The obelisk on d4, then segments 2 to 5 put down one at a time on ``LAID``."""
    t = Table(tmp_path)
    t.put("d4")
    for name in LAID:
        t.put(name)
    return t


def _said(t: Table) -> list[str]:
    return [e["text"] for e in t.events if e["event"] == "accepted"]


def test_what_happened_and_the_moves_list_name_each_segment_by_its_number(tmp_path):
    """"put a segment on b5 (2 of 5 on the board)": the wooden segment there says 2, and so
    does what happened, and the moves list of a page that joins later."""
    t = _laid(tmp_path)
    want = ["put the obelisk, segment 1, on d4", "put segment 2 on b5", "put segment 3 on e5",
            "put segment 4 on e2", "put segment 5 on g7"]
    assert _said(t) == want
    assert [m["text"] for m in t.table.moves()] == want


def test_the_turn_asks_for_the_next_segment_by_its_number(tmp_path):
    """The Maze Master is told which segment goes down next, so that the number the table
    gives each one is the one its wooden piece carries."""
    t = Table(tmp_path)
    t.put("d4")
    doing = [t.last("turn")["doing"]]
    for name in LAID[:3]:
        t.put(name)
        doing.append(t.last("turn")["doing"])
    assert doing == ["put segment 2 on a square of your choice (then 3, 4 and 5)",
                     "put segment 3 on a square of your choice (then 4 and 5)",
                     "put segment 4 on a square of your choice (then 5)",
                     "put segment 5 on a square of your choice"]


def test_a_claim_names_the_segment_the_obelisk_claims(tmp_path):
    """"claiming the segment there": the claim says which segment the obelisk now stands
    on, when asked to pick it and once made, in what happened and the moves list."""
    t = _laid(tmp_path)
    t.press("B")                                   # the Maze Master passes
    t.lift("d4")                                   # in line: e5 (3) and g7 (5), over e5
    assert t.table.state == "choose"
    t.pick("A", Move(sq("g7")))
    said = "moved the obelisk to g7, claiming segment 5 (the obelisk now 2 of 5 segments tall)"
    assert _said(t)[-1] == said and t.table.moves()[-1]["text"] == said
    t.press("B")
    t.lift("g7")                                   # one claim in line: e5, segment 3
    assert t.table.problem == ("the Architect: put the obelisk down on a lit square; if it "
                               "stands on segment 3 on e5, hold your button")


def test_the_observation_carries_each_segments_number_as_data(tmp_path):
    """The page draws each segment with its number: the observation says it, by square,
    for the segments still out (a claimed one is the obelisk's)."""
    t = _laid(tmp_path)
    seen = t.table.position.observation()
    assert seen["numbers"] == {"b5": 2, "e5": 3, "e2": 4, "g7": 5}
    t.press("B")
    t.lift("d4")
    t.pick("A", Move(sq("g7")))
    assert t.table.position.observation()["numbers"] == {"b5": 2, "e5": 3, "e2": 4}


def test_two_segments_put_down_at_once_are_numbered_in_the_order_they_are_recorded(tmp_path):
    """The switches cannot read a label: segments that go down together are numbered as
    the table records them, and what happened and the observation agree."""
    t = Table(tmp_path)
    t.put("d4")
    t.put("h8", "a8")
    assert _said(t)[1:] == ["put segment 2 on a8", "put segment 3 on h8"]
    assert t.table.position.observation()["numbers"] == {"a8": 2, "h8": 3}


def test_refusals_name_the_segment(tmp_path):
    """A segment moved once it is down, a second one on its square: the refusal names the
    segment by its number."""
    t = Table(tmp_path)
    t.put("d4")
    t.put("b5")
    t.put("e5")
    t.lift("b5")                                   # no position had e5 without b5
    assert t.table.state == "repair"
    assert "put segment 2 back on b5" in t.table.problem, t.table.problem
    t.put("b5")
    t.put("e2", "g7")
    t.press("B")                                   # the Maze Master passes
    t.lift("e5")                                   # a segment moved, not the obelisk
    t.lift("d4")
    t.put("d5")
    assert t.table.state == "repair"
    assert "put segment 3 back on e5" in t.table.problem, t.table.problem
    pos = MazeGame().new_initial_state()
    for name in ("d4", "b5"):
        pos = pos.apply_action(PlaceSegment(sq(name)))
    with pytest.raises(MazeError, match="b5 already holds segment 2"):
        pos.apply_action(PlaceSegment(sq("b5")))
    with pytest.raises(MazeError, match="d4 already holds the obelisk"):
        pos.apply_action(PlaceSegment(sq("d4")))


def test_the_computers_asked_claim_and_a_hint_name_the_segment():
    """The computer's asked move (and a hint, in the same words) onto a segment says which
    one the obelisk claims there, as the claim says once made."""
    pos = MazeGame().new_initial_state()
    for name in ("d4", *LAID):
        pos = pos.apply_action(PlaceSegment(sq(name)))
    pos = pos.apply_action(Pass())
    assert solo.words(pos, (Move(sq("e5")),)) == "the obelisk from d4 to e5, claiming segment 3"
    assert solo.words(pos, (Move(sq("d7")),)) == "the obelisk from d4 to d7"
    assert "this is the obelisk from d4 to g7, claiming segment 5" in solo.differs(
        pos, (Move(sq("e5")),), Move(sq("g7")))


def test_the_board_as_text_shows_each_segments_number(tmp_path):
    """The terminal's board marked each segment "s": it shows the number instead."""
    t = _laid(tmp_path)
    rows = draw(t.table.position.observation()).splitlines()
    by_row = {line[0]: line for line in rows if line[:1].isdigit()}
    assert by_row["5"].split()[1:] == [".", "2", ".", ".", "3", ".", ".", "."], rows
    assert by_row["4"].split()[4] == "O" and by_row["7"].split()[7] == "5", rows
    assert by_row["2"].split()[5] == "4", rows
