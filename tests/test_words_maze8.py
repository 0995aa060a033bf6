"""Maze snags a newcomer's trial of `obelisk play maze` found (issue 32, never a dead end):
the obelisk set on a segment it cannot reach got no word at all; alone against the
computer, merely lifting the obelisk offered claims nobody asked for; and the claim
offers read "if it was obelisk to f6"."""

from __future__ import annotations

from engine.maze.actions import Move
from engine.players import Player
from firmware.service.screen import headline
from firmware.service.solo import Computer, Solo
from tests.test_maze import sq
from tests.test_maze_table import Table as MazeHarness

OUT_OF_LINE = ("e6", "g8", "h1", "b1")
"""Segments none of which is in a straight or diagonal line from d4: the obelisk lifted
off d4 can claim none of them."""


def _turn(t: MazeHarness) -> str:
    return t.last("turn")["doing"]


def test_the_obelisk_on_a_segment_it_cannot_reach_is_answered(tmp_path):
    """Lifted off d4 and set on segment 2 on e6 (out of its reach): the switches see only d4
    emptied, as if the obelisk were in the hand, and the table said nothing; the turn line
    still read "move the obelisk like a queen". Whatever the obelisk stands on, the table
    says what to do, and names the segment out of reach in the rules' words."""
    t = MazeHarness(tmp_path).ready("d4", OUT_OF_LINE)
    t.press("B")                                   # the Maze Master passes
    assert _turn(t) == "move the obelisk like a queen (turn 1 of 20)"
    t.lift("d4")                                   # on e6: only d4 emptied
    assert t.table.state == "play"
    said = _turn(t)
    assert said.startswith("the obelisk is off d4: put it down on a lit square"), said
    assert said.endswith("; it cannot reach segment 2 on e6, segment 3 on g8, segment 4 on h1 "
                         "or segment 5 on b1: if it stands on one, put it back on d4 (turn 1 "
                         "of 20)"), said
    assert t.table.public_state()["doing"] == said
    line = headline(t.last("turn"), t.table.SEATS)
    assert line.startswith("the Architect's turn: the obelisk is off d4"), line
    t.put("d4")                                    # put back: the turn as it was
    assert _turn(t) == "move the obelisk like a queen (turn 1 of 20)"


def test_a_wall_between_is_said_so(tmp_path):
    """The trial's own case: a segment in line with the obelisk, a wall between them (the
    one segment out of reach is said with why, in the rules' words)."""
    from engine.maze.actions import Orientation, PlaceWall

    t = MazeHarness(tmp_path).ready("d4", ("d6", "h8", "a1", "a7"))
    t.wall("d5")
    t.pick("B", PlaceWall(sq("d5"), Orientation.NE))
    t.lift("d4")
    said = _turn(t)
    assert ("it cannot reach segment 2 on d6 (a wall stands between d4 and d6): if it "
            "stands there, put it back on d4") in said, said


def test_a_claim_choice_says_why_it_stands_with_the_obelisk_off_the_board(tmp_path):
    """The obelisk beside the board: the switches cannot tell it from the obelisk on a
    segment, so the claims are offered. The words say so, not only "hold to pick"."""
    t = MazeHarness(tmp_path).ready()              # d4; segments a8, h8, h1, b1
    t.press("B")
    t.lift("d4")
    assert t.table.state == "choose"
    said = _turn(t)
    assert said.startswith("the obelisk is off d4: put it down on a lit square; if it "
                           "stands on a lit segment, hold your button"), said


def test_a_claim_offer_reads_the_obelisk_to(tmp_path):
    """"hold your button if it was obelisk to h8": the candidates read as the set shows
    them, "the obelisk to h8", on the page's box and in what happened."""
    t = MazeHarness(tmp_path).ready()
    t.press("B")
    t.lift("d4")
    offer = t.last("offer")
    assert offer["candidates"] == ["the obelisk to h8, claiming segment 3 (the obelisk now 2 "
                                   "of 5 segments tall)"], offer
    line = headline(offer, t.table.SEATS)
    assert line.startswith("the Architect: hold your button if it was the obelisk to h8"), line
    t.pick("A", Move(sq("h8")))
    assert t.last("accepted")["text"].startswith("moved the obelisk to h8, claiming")


def test_lifting_the_obelisk_for_the_computers_move_offers_no_claim(tmp_path):
    """Alone, the computer the Architect, its move the obelisk from d4 to d5: each lift of
    the obelisk asked "hold your button if it was obelisk to h8, claiming segment 3". Only
    the asked move counts for the computer: no choice is offered for another."""
    t = MazeHarness(tmp_path)
    t.table.solo = Computer(Solo(Player.A, 1), "maze")
    t.ready()
    t.press("B")                                   # the person, the Maze Master, passes
    computer = t.table.solo
    assert computer.asked, "the computer's move is asked"
    computer.asked = (Move(sq("d5")),)             # an empty square, not a claim
    offers = len([e for e in t.events if e["event"] == "offer"])
    t.lift("d4")
    assert t.table.state == "play" and t.table.candidates == (), t.table.candidates
    assert len([e for e in t.events if e["event"] == "offer"]) == offers
    t.put("d5")
    assert t.table.position.obelisk == sq("d5"), t.table.problem


def test_after_a_claim_picked_in_the_hand_the_next_turn_reads_as_usual(tmp_path):
    """Trial 9: the obelisk lifted off d4, the claim of h8 held, the Maze Master's pass:
    the Architect's next turn still read "the obelisk is off d4: ... put it back on d4",
    with the obelisk standing on h8 (the lift was the last reading, from a position gone)."""
    t = MazeHarness(tmp_path).ready()
    t.press("B")
    t.lift("d4")
    t.pick("A", Move(sq("h8")))
    assert t.table.position.obelisk == sq("h8")
    t.press("B")                                   # the Maze Master passes again
    said = _turn(t)
    assert said == "move the obelisk like a queen (turn 2 of 20)", said
    assert t.table.public_state()["doing"] == said
