"""The maze table's words: what starts the game once the board is clear (alone or
two-handed), a piece named once, the computer's segments as the set labels them, the turn
counted alike everywhere, and the obelisk lifted or set where it cannot go answered in the
rules' words, never with a claim nobody asked for."""

from __future__ import annotations

from engine.core import parse_square as sq
from engine.maze.actions import Move
from engine.players import Player
from firmware.readers.terminal.screen import headline
from firmware.seats.solo import Computer, Solo
from tests.support.hands import sim_table
from tests.support.tables import MazeHarness


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

    hands = MazeHands(sim_table("sim-maze"))
    for piece in ("segment 2", "segment 3"):
        hands.act({"act": "take", "seat": "B", "piece": piece})
        hands.act({"act": "put", "seat": "B", "square": "c3"})
    hands.act({"act": "lift", "seat": "B", "square": "c3"})
    assert hands.look()["held"]["B"] == ["segment 3"]
    assert hands.look()["squares"]["c3"] == ["segment 2"]


def test_the_maze_computer_names_each_segment_it_asks_for_as_the_set_labels_it(tmp_path):
    """"segment on e4; segment on g7; ...": the Maze Master playing alone asks for its four
    segments each by its label (2 to 5, as the wooden segments and the hands' buttons say),
    and once one is down, for the rest by theirs."""
    from engine.players import Player
    from firmware.seats.solo import Computer, Solo

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


def test_lifting_a_piece_before_the_maze_master_walls_says_where_it_goes_back(tmp_path):
    """'the Maze Master walls or passes first: put the obelisk back': back where? The
    person read it as the square it had come from."""
    t = MazeHarness(tmp_path).ready()
    t.lift("d4")
    assert t.table.problem == "the Maze Master walls or passes first: put the obelisk back on d4"
    t.put("d5")
    assert t.table.problem == ("the Maze Master walls or passes first: put the obelisk on d5 "
                               "back on d4")  # the same piece, named once (tests/test_words_maze7)


def test_the_computers_architect_leaves_the_obelisks_square_to_the_person_and_says_so(tmp_path):
    """"the Architect (computer, level 1): put segment 1, the obelisk, on any square", and
    the computer named no square: it leaves this one to the person, and the turn says so."""
    from engine.maze.game import Phase
    from engine.players import Player

    t = MazeHarness(tmp_path)
    t.table.solo = Computer(Solo(Player.A, 1), "maze")
    pos = t.table.position
    assert pos.phase is Phase.FIRST_SEGMENT and pos.current_player() is Player.A
    said = t.table.solo.doing(t.table, "put segment 1, the obelisk, on any square")
    assert said == ("put segment 1, the obelisk, on any square (the computer leaves this one "
                    "to you)")
    t.table.solo = Computer(Solo(Player.B, 1), "maze")  # the person's own turn: as it is
    assert t.table.solo.doing(t.table, "put it down") == "put it down"


def test_a_press_through_a_choice_logs_the_lit_one_not_the_question_again(block_set,
                                                                          tmp_path):
    """Trial 9: each press of the chooser's button logged the whole question again ("more
    than one move fits; which was it? (1) ...; or (2) ..."). A press says which is lit."""
    from firmware.readers.terminal.screen import headline, seat_names

    offer = {"event": "offer", "kind": "choose", "players": ["B"], "pick": 0,
             "candidates": ["wall on e5 (north and east sides)", "wall on e5 (south and west "
                            "sides)"]}
    names = seat_names("maze")
    first = headline(offer, names)
    assert "which was it?" in first, first
    pressed = headline({**offer, "pick": 1}, names)
    assert "which was it?" not in pressed and "(1)" not in pressed, pressed
    assert "(2) wall on e5 (south and west sides)" in pressed and "hold" in pressed, pressed


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


def test_the_obelisk_set_down_where_it_may_not_go_is_no_longer_said_off_its_square(tmp_path):
    """Lifted off d4, the turn line said "the obelisk is off d4: put it down ..."; set down
    on d6 beyond a wall and refused, it still said so while the obelisk stood on d6 (issue
    48: "off a2" while it stood on a5). A line naming a place names where things stand now:
    once the table reads the obelisk put down, the turn says the move again, as a page
    opened then says it."""
    from engine.maze.actions import Orientation, PlaceWall

    t = MazeHarness(tmp_path).ready("d4", ("c6", "h8", "a1", "a7"))
    t.wall("d5")
    t.pick("B", PlaceWall(sq("d5"), Orientation.NE))
    t.lift("d4")
    assert _turn(t).startswith("the obelisk is off d4"), _turn(t)
    t.put("d6")                                    # beyond the wall: refused
    assert t.table.state == "repair", t.table.state
    assert _turn(t) == "move the obelisk like a queen (turn 1 of 20)", _turn(t)
    assert t.table.public_state()["doing"] == _turn(t)


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
