"""The words a newcomer met in a fourth trial of `obelisk play` (issue 32), away from a page.

The maze's computer names each segment it asks for as the set labels it; the
maze's board as text counts the turn under way, as the turn line does; an
hourglass's seconds are rounded one way (up) wherever they are said; a lost turn
is said once in what happened; the stones setup claims no symmetry before a
game is under way. What the page's own scripts say is in
``tests/test_browser_words.py``.
"""

from __future__ import annotations

import pytest

from firmware.service.screen import headline
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


def _maze_at(turn: int, tmp_path):
    """A maze table whose Architect has made ``turn`` moves (walls passed)."""
    from engine.maze.game import Phase

    t = MazeHarness(tmp_path).ready()
    for _ in range(turn):
        t.press("B")  # the Maze Master passes
        to = next(a.to for a in t.table.position.legal_actions() if a.to not in
                  t.table.position.segments)
        t.lift("abcdefgh"[t.table.position.obelisk[1]] + str(t.table.position.obelisk[0] + 1))
        t.put("abcdefgh"[to[1]] + str(to[0] + 1))
    assert t.table.position.turn == turn and t.table.position.phase is Phase.WALL
    return t


def test_the_maze_board_as_text_counts_the_turn_under_way_as_the_turn_line_does(tmp_path):
    """"turn 2 of 20" under a turn line that says "(turn 3 of 20)": after two Architect
    moves the third turn is under way (the rules count the turns the Architect moves in),
    and the board as text says so too; with none left, it says none is left."""
    from firmware.maze.screen import draw

    t = _maze_at(2, tmp_path)
    seen = t.table.position.observation()
    t.press("B")
    assert "(turn 3 of 20)" in t.table.public_state()["doing"]
    assert "turn 3 of 20," in draw(seen), draw(seen)
    over = {**seen, "turn": 20, "turns_left": 0}
    assert "no turns left," in draw(over) and "turn 20" not in draw(over), draw(over)


@pytest.mark.parametrize(("left", "said"), [(52.4, "53 s"), (52.0, "52 s"), (59.999, "60 s"),
                                            (0.4, "1 s"), (0.0, "0 s")])
def test_an_hourglass_says_its_whole_seconds_rounded_up(left, said):
    """A player's card showed "53 s stopped" while what happened said "(52 s left)": the
    seconds left are whole ones rounded up, as a countdown shows them (0.4 s left is 1 s
    until it is 0), in what happened as on the card (``tests/test_browser_words.py``)."""
    event = {"event": "timer", "player": "A", "state": "stopped", "seconds": 60, "left": left}
    assert headline(event) == f"player A's hourglass stopped ({said} left)"


def test_a_lost_turn_is_said_once(block_set, tmp_path):
    """"player B ran out of time: the turn is lost", then "player B's hourglass expired
    (0 s left)": the hourglass running out is said by the lost turn alone; its expiry has
    no words (the page logs none, the terminal shows no line for it)."""
    from firmware.readers.web.follow import dressed
    from firmware.service.screen import Screen, seat_names
    from firmware.towers.screen import draw
    from tests.test_towers_table import Table as TowersHarness

    t = TowersHarness(block_set, tmp_path).start_play()
    t.wait(60.0)  # the hourglass runs out
    told = [e for e in t.events if e["event"] in ("timer", "accepted")]
    expired = next(e for e in told if e["event"] == "timer" and e["state"] == "expired")
    lost = next(e for e in told if e["event"] == "accepted")
    names = seat_names("towers")
    assert headline(expired, names) == ""
    assert dressed(expired, draw, names)["words"] == ""  # the page logs an event's words
    assert headline(lost, names).endswith("ran out of time: the turn is lost")
    screen = Screen(draw, names)
    assert screen.show(expired) is None
    assert "ran out of time" in screen.show(lost)


def test_the_stones_setup_claims_no_symmetry_before_a_game_is_under_way(tmp_path):
    """Player A's card said "symmetry: colour ✓, ..." while the stones were still being
    set out: the setup's board (what the page draws then) holds no symmetry yet, since the
    rules check it after each move; the start of the game shows the start's."""
    from engine.stones.game import StonesGame
    from firmware.stones.table import StonesTable
    from firmware.store.journal import Journal

    table = StonesTable(StonesGame(), Journal(tmp_path), seed=1)
    table.start(0.0)
    assert table.state == "setup"
    assert table.setup_seen(None)["symmetry"] == {}
    assert table.position.observation()["symmetry"]["A"] == [True, False]
