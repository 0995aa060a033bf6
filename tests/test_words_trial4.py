"""The words a newcomer met in a fourth trial of `obelisk play` (issue 32), away from a page.

The maze's computer names each segment it asks for as the set labels it; the
maze's board as text counts the turn under way, as the turn line does; an
hourglass's seconds are rounded one way (up) wherever they are said; a lost turn
is said once in what happened; the stones setup claims no symmetry before a
game is under way. What the page's own scripts say is in
``tests/test_browser_words.py``.
"""

from __future__ import annotations

from tests.test_maze_table import Table as MazeHarness


def test_the_maze_computer_names_each_segment_it_asks_for_as_the_set_labels_it(tmp_path):
    """"segment on e4; segment on g7; ...": the Maze Master playing alone asks for its four
    segments each by its label (2 to 5, as the wooden segments and the hands' buttons say),
    and once one is down, for the rest by theirs."""
    from engine.players import Player
    from firmware.service.solo import Computer, Solo

    t = MazeHarness(tmp_path)
    t.table.solo = Computer(Solo(Player.B, 1), "maze")
    t.put("d4")  # the Architect's obelisk: the computer asks for the four segments
    asked = [e for e in t.events if e["event"] == "asked"]
    assert len(asked) == 1, asked
    squares = [a.square for a in t.table.solo.asked]
    names = ["abcdefgh"[c] + str(r + 1) for r, c in squares]
    assert asked[0]["text"] == "; ".join(f"segment {n} on {square}"
                                         for n, square in zip(range(2, 6), names, strict=True))
    t.put(names[0])  # segment 2 down where asked: the turn line asks for 3, 4 and 5
    words = t.table.solo.doing(t.table, "")
    assert words == ("make the computer's move: " + "; ".join(
        f"segment {n} on {square}" for n, square in zip(range(3, 6), names[1:], strict=True)))
