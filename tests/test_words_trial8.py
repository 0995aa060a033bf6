"""Words a newcomer met in the eighth trial (issue 32, point 8: the words of the rules and
of the set, each thing said once)."""

from __future__ import annotations

from engine.players import Player
from firmware.service.solo import Computer, Solo
from tests.test_control import Pressed
from tests.test_stones_table import Table as StonesHarness
from tests.test_towers_table import Table as TowersHarness
from tests.test_towers_table import _zone_of


def test_pausing_stones_says_nothing_of_an_hourglass(tmp_path):
    """"paused: the hourglass is stopped" on a stones table, which has none."""
    stones = Pressed(StonesHarness(tmp_path).started())
    said = stones.do("pause")["message"]
    assert "paused" in said and "hourglass" not in said, said


def test_pausing_towers_says_its_hourglass_stopped(block_set, tmp_path):
    towers = Pressed(TowersHarness(block_set, tmp_path).start_play())
    assert "hourglass" in towers.do("pause")["message"]


def test_the_turn_line_after_one_block_asks_for_the_other(block_set, tmp_path):
    """"put two blocks from the pile in the building zone" still, with one on its pad."""
    t = TowersHarness(block_set, tmp_path).start_play()
    t.see(t.towers(), _zone_of(t, "G01"))
    assert len(t.table.actions) == 1
    doing = t.of("turn")[-1]["doing"]
    assert "two blocks" not in doing and "one more block" in doing, doing
    assert t.table.public_state()["doing"] == doing


def test_a_hint_asked_from_the_page_is_said_once(tmp_path):
    """The hint stood under the turn line (the ``hint`` event) and again under the Hint
    button, in the same words: the button's answer says it is lit, not the move again."""
    helper = StonesHarness(tmp_path)
    helper.table.solo = Computer(Solo(Player.B, 1), "stones")  # the person plays A, first
    stones = Pressed(helper.started())
    said = stones.do("hint")["message"]
    hint = [e for e in helper.events if e["event"] == "hint"][-1]["text"]
    assert hint not in said and "hint" in said, said


def test_the_computers_move_is_logged_once_by_its_turn(tmp_path):
    """"What happened" and the terminal said each computer move twice: "the computer (player
    B) asks: ..." and "player B's turn: make the computer's move: ...". The turn says it."""
    from engine.stones.sensing import sight
    from firmware.service.screen import headline, seat_names

    helper = StonesHarness(tmp_path)
    helper.table.solo = Computer(Solo(Player.B, 1), "stones")
    helper.started()
    move = helper.table.position.legal_actions()[0]
    helper.see(sight(helper.table.position.apply_action(move)))  # the person's move
    names = seat_names("stones")
    lines = [headline(e, names) for e in helper.events]
    asked = [e for e in helper.events if e["event"] == "asked"][-1]["text"]
    assert sum(asked in line for line in lines) == 1, [ln for ln in lines if asked in ln]
    assert any(line.startswith("player B's turn: make the computer's move") and asked in line
               for line in lines), lines


def test_a_press_through_a_choice_logs_the_lit_one_not_the_question_again(block_set,
                                                                          tmp_path):
    """Trial 9: each press of the chooser's button logged the whole question again ("more
    than one move fits; which was it? (1) ...; or (2) ..."). A press says which is lit."""
    from firmware.service.screen import headline, seat_names

    offer = {"event": "offer", "kind": "choose", "players": ["B"], "pick": 0,
             "candidates": ["wall on e5 (north and east sides)", "wall on e5 (south and west "
                            "sides)"]}
    names = seat_names("maze")
    first = headline(offer, names)
    assert "which was it?" in first, first
    pressed = headline({**offer, "pick": 1}, names)
    assert "which was it?" not in pressed and "(1)" not in pressed, pressed
    assert "(2) wall on e5 (south and west sides)" in pressed and "hold" in pressed, pressed
