"""The stones table: moves from square switches, the button for the unseen."""

from __future__ import annotations

import pytest

from engine.players import Player
from engine.stones.game import EndReason, StonesGame, StonesOptions, StonesState
from engine.stones.sensing import BoardView, sight, sight_after
from firmware.core.settle import QUICK_S
from firmware.stones.table import StonesTable
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent
from tests.support.stones import mv, position, sq
from tests.support.tables import StonesHarness

A, B = Player.A, Player.B


@pytest.fixture
def t(tmp_path):
    return StonesHarness(tmp_path).started()


def test_setup_waits_for_the_start_position_and_a_button(tmp_path):
    t = StonesHarness(tmp_path)
    t.see({sq("a1")})
    t.press(A)
    assert t.table.state == "setup" and "set the stones out" in t.table.problem
    t.see(sight(t.table.position))
    t.press(B)
    assert t.table.state == "play"
    assert t.journal.read().entries[0]["t"] == "start"


def test_a_step_is_played_from_what_the_switches_see(t):
    t.see(t.after("-c1", "+b2"))
    assert t.table.actions == [mv("c1", "b2")] and t.table.position.to_play is B
    accepted = [e for e in t.events if e["event"] == "accepted"]
    assert accepted[-1]["text"] == "moved the cornerstone c1-b2 (step)"
    assert accepted[-1]["action"] == "c1-b2" and accepted[-1]["observation"]["to_play"] == "B"
    assert [e["t"] for e in t.journal.read().entries] == ["start", "action"]


def test_an_illegal_move_is_waited_out(t):
    t.see(t.after("-c1", "+c2"))
    assert t.table.state == "repair" and "empties c1 and fills c2" in t.table.problem
    assert t.table.actions == []
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", 1 * 4 + 2)] == (255, 0, 0)      # c2: take it off
    t.see(sight(t.table.position))
    assert t.table.state == "play" and t.events[-1]["event"] == "repaired"


def test_a_lifted_stone_lights_its_destinations(t):
    t.see(t.after("-c1"))
    assert t.table.state == "play" and t.table.lifted == sq("c1")
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", 1 * 4 + 1)] == (0, 0, 200)      # b2
    t.see(t.after("-c1", "+b2"))
    assert t.table.actions == [mv("c1", "b2")]


def test_one_stacking_that_may_be_is_asked_as_one_not_as_a_choice(tmp_path):
    """A capstone lifted next to one opposing stone may be in the air or on it: the player
    is asked to hold their button if it stands there, never "which was it?" of one."""
    state = position({"b2": "Ap", "c3": "Bc", "a1": "Ac", "d1": "Ak", "a6": "Bp", "d6": "Bk"})
    t = StonesHarness(tmp_path, state=state).started()
    t.see(t.after("-b2"))
    assert t.table.candidates == ((mv("b2", "c3"),),) and t.table.lifted == sq("b2")
    words = state.move_to_string(mv("b2", "c3"))
    assert t.table.problem == (f"player A: set the piece down on a lit square; if it already "
                               f"stands as {words}, hold your button")
    assert "more than one" not in t.table.problem


def test_an_ambiguous_stacking_is_resolved_with_the_button(tmp_path):
    state = position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak", "a6": "Bp"})
    t = StonesHarness(tmp_path, state=state).started()
    t.see(t.after("-b2"))
    assert t.table.state == "choose"
    assert set(t.table.candidates) == {(mv("b2", "a3"),), (mv("b2", "c3"),)}
    (first,) = t.table.candidates[0]
    t.press(B)                                   # not B's move: nothing
    assert t.table.pick == 0
    t.press(A)                                   # next candidate
    (chosen,) = t.table.candidates[1]
    assert t.events[-1]["event"] == "offer" and t.events[-1]["pick"] == 1  # the page follows
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", chosen.to[0] * 4 + chosen.to[1])] == (255, 255, 255)
    assert frame[("board", "", first.to[0] * 4 + first.to[1])] == (0, 0, 200)
    t.press(A, "hold")                           # this one
    assert t.table.state == "play" and t.table.actions == [chosen]
    accepted = [e for e in t.events if e["event"] == "accepted"]
    assert len(accepted) == 1 and "(pillar)" in accepted[0]["text"]
    # B moves; then A is told the capstone must come off.
    b_move = t.table.position.legal_actions()[0]
    t.see(sight_after(t.table.position, b_move))
    assert {"event": "notice", "player": "A",
            "message": "your capstone must come off this turn"} in t.events


def test_a_silent_move_is_announced_with_the_button(tmp_path):
    state = position({"b2": "BkAp", "c3": "Bc", "a1": "Ac", "d1": "Ak", "a6": "Bp"})
    t = StonesHarness(tmp_path, state=state).started()
    said = [e for e in t.events if e["event"] == "turn"][-1]["doing"]  # the button plays it
    assert "press your button" in said and state.move_to_string(mv("b2", "c3")) in said, said
    t.press(A)
    assert t.table.state == "choose" and (mv("b2", "c3"),) in t.table.candidates
    while t.table.candidates[t.table.pick] != (mv("b2", "c3"),):
        t.press(A)
    t.press(A, "hold")
    assert t.table.actions == [mv("b2", "c3")]


def test_a_clear_move_counts_after_the_short_window_and_a_lifted_stone_waits(t):
    """A stone down on a square only one move can mean counts after the short window
    (``QUICK_S``); a stone in the air (it could go to several squares) waits out the whole
    0.3 s."""
    start, quick = t.now, t.table.settler.quick_s
    assert quick == QUICK_S < 0.3
    t.table.on_view(BoardView.of((s, 1) for s in t.after("-c1")), start)
    t.table.tick(start + 0.15)
    assert t.table.lifted is None and t.table.actions == []   # still settling
    t.table.on_view(BoardView.of((s, 1) for s in t.after("-c1", "+b2")), start + 0.2)
    t.table.tick(start + 0.2 + quick - 0.01)
    assert t.table.actions == []
    t.table.tick(start + 0.2 + quick)
    assert t.table.actions == [mv("c1", "b2")]


def test_a_slide_replaces_the_tentative_move(tmp_path):
    # The keystone on b2 may go to a3 or c3. It settles on a3 for a moment, then
    # slides on to c3: still a legal move of the same stone from before.
    state = position({"b2": "Ak", "a1": "Ac", "d1": "Ap", "a6": "Bp", "a5": "Bk", "b6": "Bc"})
    t = StonesHarness(tmp_path, state=state).started()
    t.see(t.after("-b2", "+a3"))
    assert t.table.actions == [mv("b2", "a3")]
    seen = set(sight(state).squares) - {sq("b2")} | {sq("c3")}
    t.see(seen)
    assert t.table.actions == [mv("b2", "c3")] and t.table.position.to_play is B
    assert any(e["event"] == "takeback" and e["why"] == "slide" and e["undone"] == 1
               for e in t.events)
    assert [e["t"] for e in t.journal.read().entries][-2:] == ["takeback", "action"]


def test_the_obelisk_ends_the_game_with_the_result_line(tmp_path):
    state = position({"d2": "AcAk", "c1": "Ap", "a4": "Bp", "a6": "Bk", "b6": "Bc"},
                     to_play=A)
    t = StonesHarness(tmp_path, state=state).started()
    t.see(t.after("-c1"))                        # the capstone goes onto the foundation
    assert t.table.state == "choose"
    t.press(A, "hold")
    assert t.table.state == "over"
    over = t.events[-1]
    assert over["event"] == "game_over" and over["game"] == "stones"
    assert over["outcome"]["winner"] == "A" and over["outcome"]["termination"] == "obelisk"
    assert t.journal.read().entries[-1] == {"t": "over", "result": over["outcome"]}
    assert t.table.position.outcome().termination == EndReason.OBELISK.value


def test_a_restart_resumes_the_game(tmp_path):
    t = StonesHarness(tmp_path).started()
    t.see(t.after("-c1", "+b2"))
    again = StonesHarness(tmp_path)
    assert again.table.state == "play" and again.table.actions == [mv("c1", "b2")]
    resumed = again.events[0]
    assert resumed["event"] == "resumed" and resumed["game"] == "stones"
    assert resumed["actions"] == 1 and resumed["observation"]["plies"] == 1


def test_options_reach_the_journal(tmp_path):
    game = StonesGame(StonesOptions(rows=8, cols=4, ply_limit=50))
    t = StonesHarness(tmp_path, game=game).started()
    assert t.journal.read().entries[0]["options"]["rows"] == 8


def test_height_sensors_play_a_stacking_without_the_button(tmp_path):
    state = position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak", "a6": "Bp"})
    t = StonesHarness(tmp_path, state=state, levels=3).started()
    held = sight(state, 3).heights - {(sq("b2"), 1)}
    t.see(BoardView(held, 3))                    # the capstone in the air
    assert t.table.state == "play" and t.table.lifted == sq("b2")
    t.see(sight_after(state, mv("b2", "c3"), 3))  # onto the cornerstone on c3
    assert t.table.state == "play" and t.table.actions == [mv("b2", "c3")]
    assert not any(e["event"] == "offer" for e in t.events)


def test_height_sensors_show_which_stack_is_wrong(tmp_path):
    state = position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak", "a6": "Bp"})
    t = StonesHarness(tmp_path, state=state, levels=3).started()
    heights = dict(sight(state, 3).heights)
    heights[sq("a1")] = 2                        # a stone dropped on A's own cornerstone
    heights.pop(sq("a6"))                        # ... and B's capstone taken away
    t.see(BoardView.of(heights.items(), 3))
    assert t.table.state == "repair" and "changes the stack on a1" in t.table.problem
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", 0 * 4 + 0)] == (255, 0, 0)      # a1 first: one too many


def test_the_leds_light_each_square_where_it_lies_on_the_physical_board(tmp_path):
    """The board's pixels run as wide as the physical board (8 on the reference table), as
    its switches do: a 6x4 game lights c2's own pixel, not the one a 4-wide count picks, and
    the page is told which square each pixel lights (issue 32)."""
    from firmware.core.surroundings import Surroundings
    from hardware.profile import load_profile

    events: list[dict] = []
    table = StonesTable.for_service(StonesGame(), Journal(tmp_path), load_profile("sim"),
                                    seed=1, around=Surroundings(listeners=[events.append]))
    table.start(0.0)
    start = sight(table.position)
    table.on_view(start, 0.0)
    table.tick(0.31)
    table.on_button(ButtonEvent("A", "press"), 0.31)
    assert table.state == "play"
    wrong = set(start.squares) - {sq("c1")} | {sq("c2")}
    table.on_view(BoardView.of((square, 1) for square in wrong), 0.4)
    table.tick(0.71)
    assert table.state == "repair"
    frame = table.led_frame(0.71, 16)
    assert frame[("board", "", 1 * 8 + 2)] == (255, 0, 0)      # c2: take it off
    assert frame.get(("board", "", 1 * 4 + 2)) in (None, (0, 0, 0))  # not g1's pixel
    table.tell_lights(frame)
    (board,) = [s for s in table.lights["strips"] if s["strip"] == "board"]
    assert board["places"][1 * 8 + 2] == "c2" and board["places"][1 * 4 + 2] == ""


def test_a_sure_move_is_worked_out_before_its_window_closes(t, monkeypatch):
    """What the accepted event says of a sure move (its words, the board after) is worked
    out as the reading arrives, not between the window's end and the LEDs; it is the same."""
    start = t.now
    t.table.on_view(BoardView.of((s, 1) for s in t.after("-c1", "+b2")), start)
    asked: list[StonesState] = []
    observation = StonesState.observation
    monkeypatch.setattr(StonesState, "observation",
                        lambda self: asked.append(self) or observation(self))
    t.table.tick(start + t.table.settler.quick_s)
    assert t.table.actions == [mv("c1", "b2")] and asked == []
    accepted = [e for e in t.events if e["event"] == "accepted"][-1]
    assert accepted["observation"] == observation(t.table.position)
    assert accepted["text"] == "moved the " + t.table.history[-2].move_to_string(mv("c1", "b2"))
