"""Maze words a newcomer's trial of `obelisk play maze` tripped on (issue 32): what starts
the game once the board is clear, alone or two-handed, and a piece named once."""

from __future__ import annotations

from engine.players import Player
from firmware.service.solo import Computer, Solo
from tests.test_maze_table import Table as MazeHarness


def test_a_clear_board_says_who_puts_the_obelisk_down_to_start(tmp_path):
    """The board cleared, the words still said "clear the board of pieces and walls; then
    ...": once it is clear they say what starts the game, and who does it."""
    t = MazeHarness(tmp_path)
    t.settle()  # nothing on the board
    said = t.table.problem
    assert said == ("the board is clear: the Architect puts segment 1, the obelisk, on any "
                    "square to start the game"), said
    assert t.last("setup")["problem"] == said


def test_a_clear_board_alone_says_the_person_puts_the_computers_obelisk_down(tmp_path):
    """Alone against the computer as the Architect, the person puts the obelisk down for it
    (the computer leaves that square to them): the words say so before the game starts."""
    t = MazeHarness(tmp_path)
    t.table.solo = Computer(Solo(Player.A, 1), "maze")
    t.settle()
    said = t.table.problem
    assert said == ("the board is clear: put segment 1, the obelisk, on any square for the "
                    "Architect (computer, level 1) to start the game (the computer leaves "
                    "this one to you)"), said
    t = MazeHarness(tmp_path / "person")  # the person is the Architect
    t.table.solo = Computer(Solo(Player.B, 1), "maze")
    t.settle()
    assert t.table.problem.startswith("the board is clear: the Architect puts segment 1"), \
        t.table.problem


def test_the_obelisk_moved_before_the_maze_master_walls_is_named_once(tmp_path):
    """"put the obelisk back on d4 and take the piece off d5": the piece on d5 IS the
    obelisk. Moved whole from one square to another, a piece is named once, where it is
    and where it goes back."""
    t = MazeHarness(tmp_path).ready()
    t.lift("d4")
    t.put("d5")
    assert t.table.problem == ("the Maze Master walls or passes first: put the obelisk on d5 "
                               "back on d4"), t.table.problem
    t.put("e5")  # a second piece more: which one is where, the table cannot say
    assert "take the piece off" in t.table.problem, t.table.problem


def test_a_segment_moved_while_setting_out_is_named_once(tmp_path):
    """The same class while the segments go down: segment 2 moved from b5 to c5."""
    t = MazeHarness(tmp_path)
    t.put("d4")
    t.put("b5")
    t.put("e5")
    t.lift("b5")
    t.put("c5")
    assert t.table.problem == ("segments stay where they were put: put segment 2 on c5 back "
                               "on b5"), t.table.problem


def test_the_maze_as_text_counts_the_turns_played_once_it_is_over():
    """"turn 6 of 15" beside "10 turns left" after the end: no turn is under way once the
    game is over; the turns played are counted."""
    from firmware.maze.screen import turn_words

    seen = {"phase": "over", "turn": 5, "turns_left": 10}
    assert turn_words(seen) == "5 of 15 turns played"
    assert turn_words({**seen, "phase": "move"}) == "turn 6 of 15"


def test_a_segment_on_top_of_another_comes_off_alone():
    """The wooden set: a hand lifts the segment on top of a square, not the one under it."""
    from firmware.maze.hands import MazeHands
    from tests.test_hands_games import _sim

    hands = MazeHands(_sim("sim-maze"))
    for piece in ("segment 2", "segment 3"):
        hands.act({"act": "take", "seat": "B", "piece": piece})
        hands.act({"act": "put", "seat": "B", "square": "c3"})
    hands.act({"act": "lift", "seat": "B", "square": "c3"})
    assert hands.look()["held"]["B"] == ["segment 3"]
    assert hands.look()["squares"]["c3"] == ["segment 2"]
