"""The maze table: segments, walls picked with the button, refusals, claims, the end."""

from __future__ import annotations

import pytest

from engine.core import parse_square as sq
from engine.maze.actions import Move, Orientation, Pass, PlaceSegment, PlaceWall
from engine.maze.game import MazeGame
from engine.maze.sensing import MazeSensingError, MazeView, read_view, sight
from engine.reading import Reading
from firmware.store.journal import Journal
from tests.support.tables import MazeHarness


@pytest.fixture
def t(tmp_path):
    return MazeHarness(tmp_path).ready()


def test_setup_takes_the_obelisk_then_four_segments(tmp_path):
    t = MazeHarness(tmp_path)
    assert t.table.state == "setup" and "Architect puts segment 1" in t.table.problem
    t.put("d4")                                    # the obelisk on the clear board begins
    assert t.table.state == "play" and t.table.position.obelisk == sq("d4")
    start = t.events[0]
    assert start["event"] == "start" and start["game"] == "maze" and start["first"] == "A"
    # begun: nothing more is said of setting up (an empty setup word blanked the page's turn)
    assert not [e for e in t.events if e["event"] == "setup"]
    assert start["players"] == {"A": "the Architect", "B": "the Maze Master"}
    assert t.last("accepted")["action"] == "segment d4"
    assert t.last("turn") == {"event": "turn", "player": "B", "doing": (
        "put segment 2 on a square of your choice (then 3, 4 and 5)")}
    assert [e["t"] for e in t.journal.read().entries] == ["start", "action"]
    t.wall("c3")                                   # no walls before the first turn
    assert t.table.state == "repair" and "no walls before the first turn" in t.table.problem
    assert t.last("refused")["where"] == [{"words": "c3", "square": "c3"}]
    t.walls.clear()
    t.settle()
    assert t.table.state == "play" and t.events[-1] == {"event": "repaired"}
    t.put("a8", "h8")                              # two at once is fine
    t.put("h1", "b1")
    assert t.table.state == "play" and t.table.position.segments == {
        sq("a8"), sq("h8"), sq("h1"), sq("b1")}
    assert t.last("turn")["doing"].startswith("stand a wall (10 left)")


def test_setup_waits_for_a_clear_board(tmp_path):
    t = MazeHarness(tmp_path)
    t.put("d4", "e5")                              # two pieces: the last game's, say
    assert t.table.state == "setup" and "clear the board first" in t.table.problem
    assert t.table.led_frame(t.now, 16)[("board", "", 4 * 8 + 4)] == (255, 0, 0)
    assert not t.journal.read().entries
    t.lift("e5")
    assert t.table.state == "play" and t.table.position.obelisk == sq("d4")


def test_a_button_on_the_clear_board_begins_too(tmp_path):
    t = MazeHarness(tmp_path)
    t.settle()  # the clear board is said (a setup event), then the press begins
    assert [e["event"] for e in t.events] == ["setup"]
    t.press("B")
    assert t.table.state == "play" and t.events[1]["event"] == "start"
    assert t.events[-1]["doing"] == "put segment 1, the obelisk, on any square"
    t.put("d4")
    assert t.table.position.obelisk == sq("d4")


def test_a_wall_is_turned_with_the_button_and_confirmed_by_holding(t):
    t.wall("d6")
    assert t.table.state == "choose"
    frame = t.table.led_frame(t.now, 16)
    (first,) = t.table.candidates[0]
    assert frame[("board", "", 5 * 8 + 3)] == (255, 255, 255)          # the wall's square
    for side in first.orientation.sides:                               # and what it shuts
        r, c = 5 + side.value[0], 3 + side.value[1]  # off: not in the red of a piece that
        assert frame[("board", "", r * 8 + c)] == (255, 200, 0)       # must come off
    t.press("A")                                   # not the Maze Master's button
    assert t.table.pick == 0
    t.pick("B", PlaceWall(sq("d6"), Orientation.SW))
    assert t.table.position.walls == (PlaceWall(sq("d6"), Orientation.SW),)
    offer = t.last("offer")
    assert offer["kind"] == "choose" and offer["players"] == ["B"]
    assert len(offer["candidates"]) == 4 and "wall on d6" in offer["candidates"][0]
    accepted = t.last("accepted")
    assert accepted["player"] == "B" and accepted["action"] == "wall d6 SW"
    assert accepted["observation"]["walls"] == [["d6", "SW"]]
    assert t.table.position.phase.value == "move"
    assert t.events[-1] == {"event": "turn", "player": "A",
                            "doing": "move the obelisk like a queen (turn 1 of 20)"}


def test_while_a_wall_s_facing_is_chosen_the_turn_says_so_and_after_it_the_turn_again(t):
    """A walk: the turn line kept "stand a wall (10 left) or press your button to pass" while
    the table asked which way the stood wall faces."""
    t.wall("d6")
    assert t.table.state == "choose"
    assert t.last("turn") == {"event": "turn", "player": "B", "doing": (
        "which way does the wall on d6 face? Press your button to turn the lit one, hold it "
        "when it is right")}
    assert t.table.problem.startswith("the Maze Master: which way does the wall on d6 face?")
    t.walls.clear()  # taken off again before it was chosen: the turn as it was
    t.settle()
    assert t.table.state == "play"
    assert t.last("turn")["doing"].startswith("stand a wall (10 left)")


def test_the_maze_master_passes_with_a_press(t):
    t.press("A")                                   # the Architect cannot pass for them
    assert t.table.position.phase.value == "wall"
    t.press("B")
    assert t.table.position.phase.value == "move"
    assert t.last("accepted")["action"] == "pass" and t.last("accepted")["player"] == "B"


def test_a_sealing_wall_is_refused_and_waited_out(t):
    t.wall("a1")
    t.pick("B", PlaceWall(sq("a1"), Orientation.NE))
    assert t.table.state == "repair" and "shut a1 off" in t.table.problem
    assert t.table.position.walls == ()
    assert t.last("refused")["where"] == [{"words": "a1", "square": "a1"}]
    assert [e["t"] for e in t.journal.read().entries].count("action") == 5  # the segments
    assert t.table.led_frame(t.now, 16)[("board", "", 0)] == (255, 0, 0)
    # the turn no longer says what the choice asked (which way the wall faces)
    assert t.last("turn")["doing"].startswith("stand a wall (10 left)")
    t.walls.clear()
    t.settle()
    assert t.table.state == "play" and t.table.position.phase.value == "wall"
    assert t.events[-1] == {"event": "repaired"}


def test_moving_out_of_turn_is_waited_out(t):
    t.lift("d4")
    t.put("d5")
    assert t.table.state == "repair" and "walls or passes first" in t.table.problem
    t.lift("d5")
    t.put("d4")
    assert t.table.state == "play"


def test_a_lifted_obelisk_lights_its_moves_and_a_move_is_played(t):
    t.press("B")
    t.lift("d4")
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", 7 * 8 + 3)] == (0, 0, 200)            # d8, straight up
    assert frame[("board", "", 4 * 8 + 4)] == (0, 0, 200)            # e5
    t.put("d7")
    assert t.table.position.obelisk == sq("d7") and t.table.position.turn == 1
    t.press("B")
    t.lift("d7")
    t.put("f6")                                    # not a queen move
    assert t.table.state == "repair" and "cannot go from d7 to f6" in t.table.problem


def test_a_claim_is_picked_with_the_architects_button(t):
    t.press("B")
    t.lift("d4")                                   # onto h8: only d4 empties
    assert t.table.state == "choose"
    assert t.table.candidates == ((Move(sq("h8")),),)  # the one segment in line with d4
    # one claim is no choice among several: hold if it stands there, else set it down
    assert t.table.problem == ("the Architect: put the obelisk down on a lit square; if it "
                               "stands on segment 3 on h8, hold your button")
    t.pick("A", Move(sq("h8")))
    pos = t.table.position
    accepted = t.last("accepted")
    assert pos.obelisk == sq("h8") and pos.claimed == 2
    assert accepted["text"] == ("moved the obelisk to h8, claiming segment 3 (the obelisk now "
                                "2 of 5 segments tall)")
    assert accepted["observation"]["claimed"] == 2


def test_the_architect_is_told_once_when_the_segments_are_out_of_reach(tmp_path):
    t = MazeHarness(tmp_path, turns=15).ready(obelisk="a1", segments=("h8", "a8", "h1", "d5"))
    for k in range(12):                            # dawdling on a1 and b1
        t.press("B")
        here, there = ("a1", "b1") if k % 2 == 0 else ("b1", "a1")
        t.lift(here)
        t.put(there)
    notices = [e for e in t.events if e["event"] == "notice"]
    assert len(notices) == 1 and notices[0]["player"] == "A"
    assert "more than the" in notices[0]["message"] and not t.table.plan.enough
    assert t.table.led_frame(t.now, 16)[("ring", "A", 0)] == (255, 0, 0)


def test_claiming_the_last_segment_on_the_last_turn_ends_the_game(tmp_path):
    t = MazeHarness(tmp_path, turns=15).ready(obelisk="a1", segments=("a3", "a5", "a7", "h7"))
    for k in range(11):
        t.press("B")
        here, there = ("a1", "b2") if k % 2 == 0 else ("b2", "a1")
        t.lift(here)
        t.put(there)
    for target in ("a3", "a5", "a7", "h7"):
        t.press("B")
        here = next(n for n in ("b2", "a3", "a5", "a7") if sq(n) == t.table.position.obelisk)
        t.lift(here)
        t.pick("A", Move(sq(target)))
    assert t.table.state == "over"
    over = t.events[-1]
    assert over["event"] == "game_over" and over["game"] == "maze"
    outcome = over["outcome"]
    assert outcome["winner"] == "A" and outcome["termination"] == "all_claimed"
    assert outcome["words"].startswith("the Architect wins")  # the role, not "player A"
    assert outcome["breakdown"] == {"A": ["Architect: claimed 5 of 5 segments in 15 turns"],
                                    "B": ["Maze Master: stood 0 of 10 walls"]}
    seen = over["observation"]
    assert (seen["claimed"], seen["turn"], seen["walls"]) == (5, 15, [])
    assert t.journal.read().entries[-1] == {"t": "over", "result": outcome}
    frame = t.table.led_frame(t.now, 16)
    assert frame[("ring", "A", 0)] == (0, 200, 0) and frame[("ring", "B", 0)] == (255, 0, 0)
    t.press("B")                                   # a new game: clear the board first
    assert t.table.state == "setup" and t.table.actions == []


def test_a_restart_resumes_from_the_journal(tmp_path):
    t = MazeHarness(tmp_path).ready()
    t.wall("d6")
    t.pick("B", PlaceWall(sq("d6"), Orientation.SW))
    t.lift("d4")
    t.put("c4")
    again = MazeHarness(tmp_path)
    assert again.table.state == "play" and again.table.position == t.table.position
    resumed = again.events[0]
    assert resumed["event"] == "resumed" and resumed["game"] == "maze"
    assert resumed["actions"] == 7 and resumed["observation"]["obelisk"] == "c4"


def test_a_journal_from_before_the_seed_resumes(tmp_path):
    journal = Journal(tmp_path)
    journal.append({"t": "start", "game": "maze", "options": {"turns": 15}})
    for n, name in enumerate(("d4", "a8", "h8", "h1", "b1"), 1):
        journal.append({"t": "action", "n": n, "action": {"a": "segment",
                                                          "square": list(sq(name))}})
    again = MazeHarness(tmp_path)
    pos = again.table.position
    assert again.table.state == "play" and pos.options.turns == 15
    assert pos.phase.value == "wall" and pos.obelisk == sq("d4")


def test_pause_holds_the_board_until_the_menu_is_pressed_again(t):
    t.press("menu")
    assert t.table.state == "paused" and t.events[-1] == {"event": "pause", "state": "paused"}
    t.press("B")                                   # no pass while paused
    t.wall("d6")                                   # nor a wall
    assert t.table.state == "paused" and t.table.position.phase.value == "wall"
    assert t.table.led_frame(t.now, 16)[("ring", "B", 0)] == (20, 20, 20)
    t.press("menu")
    t.settle()                                     # the wall is looked at afresh
    assert t.table.state == "choose"


def test_reading_a_view_names_what_is_wrong():
    pos = MazeGame().new_initial_state()
    assert read_view(pos, sight(pos)) == Reading()  # nothing changed: nothing to do
    for name in ("d4", "a8", "h8", "h1", "b1"):
        pos = pos.apply_action(PlaceSegment(sq(name)))
    moving = pos.apply_action(Pass())
    seen = sight(moving)
    with pytest.raises(MazeSensingError, match="only at the start of a turn") as caught:
        read_view(moving, MazeView(seen.pieces, seen.walls | {sq("c6")}))
    assert caught.value.squares == (sq("c6"),)
    with pytest.raises(MazeSensingError, match="only the obelisk moves"):
        read_view(moving, MazeView(seen.pieces - {sq("a8")}, seen.walls))


def test_the_obelisk_put_back_offers_the_move_back_to_the_architect(t):
    t.press("B")
    t.lift("d4")
    t.put("d7")
    assert t.table.position.obelisk == sq("d7") and t.table.position.phase.value == "wall"
    t.lift("d7")                                   # the Maze Master's turn: refused...
    assert t.table.state == "repair"
    t.put("d4")                                    # ...but back where it was: a takeback
    offer = t.last("offer")
    assert offer["kind"] == "takeback" and offer["players"] == ["A"]
    t.press("B")                                   # not the Maze Master's to confirm
    assert t.table.position.obelisk == sq("d7")
    t.press("A")
    pos = t.table.position
    assert pos.obelisk == sq("d4") and pos.phase.value == "move" and pos.turn == 0
    back = t.last("takeback")
    assert back["undone"] == 1 and back["why"] == "confirmed" and back["actions"] == 6
    assert [e["t"] for e in t.journal.read().entries][-1] == "takeback"
    t.settle()
    assert t.table.state == "play"
    t.put("d7")                                    # the move again, set down before lifted:
    t.lift("d4")                                   # played once the board shows it
    assert t.table.position.obelisk == sq("d7") and t.table.position.turn == 1


def test_a_wall_taken_off_again_is_offered_back_and_put_back_is_kept(t):
    t.wall("d6")
    t.pick("B", PlaceWall(sq("d6"), Orientation.SW))
    t.walls.clear()
    t.settle()
    assert t.table.state == "repair" and t.last("offer")["players"] == ["B"]
    t.wall("d6")                                   # changed their mind: the wall stays
    assert t.table.state == "play" and t.table.offer is None
    assert t.table.position.walls == (PlaceWall(sq("d6"), Orientation.SW),)
    t.press("B")                                   # no offer stands: nothing taken back
    assert len(t.table.actions) == 6
