"""Words a newcomer met in the sixth trial (issue 32, point 8): each refusal says what to
do, in the words of the rules and of the set, never a word the rules do not use."""

from __future__ import annotations

from engine.towers.blocks import Colour
from engine.towers.sensing import expected_towers
from engine.towers.tower import resting_placements
from firmware.service.screen import headline, seat_names
from firmware.service.solo import Computer, Solo
from tests.test_maze_table import Table as MazeHarness
from tests.test_towers_table import Table as TowersHarness
from tests.test_towers_table import _deal, _place_view


def test_a_block_on_a_tower_while_choosing_says_who_chooses_and_what_to_take_off(block_set,
                                                                                 tmp_path):
    """'wait: the passive player takes a block from the zone before anyone places', while
    nobody had put a block in the zone: the rules' word is the choice, and its player."""
    t = TowersHarness(block_set, tmp_path).start_play()
    active = t.pos.active
    bar = resting_placements(t.pos.tower(active), t.block_set["R01"])[0]
    t.see(_place_view(t, active, bar))
    assert t.table.state == "repair"
    said = t.table.problem
    assert "passive" not in said and "wait" not in said, said
    assert f"{active} first puts two blocks from the pile in the building zone" in said
    assert said.endswith(f"take the new block off tower {active.value}"), said


def test_a_black_block_on_a_zone_pad_says_black_blocks_are_earned_not_chosen(block_set,
                                                                              tmp_path):
    """'there is no black block left in the pile to choose' while the page showed four: a
    black block is never chosen from the pile; it goes back with the black blocks."""
    t = TowersHarness(block_set, tmp_path).start_play()
    t.see(t.towers(), (Colour.BLACK, None))
    said = t.table.problem
    assert "left in the pile" not in said, said
    assert "never chosen" in said and "put it back with the black blocks" in said


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


def test_a_computers_piece_lifted_says_its_button_is_pressed_for_the_computer(block_set,
                                                                             tmp_path):
    """'the Architect (computer, level 1): press your button to take it back': the computer
    presses no button. The person presses the computer's seat's button for it, and the
    offer says whose seat is the computer's as a value, for the page."""
    t = TowersHarness(block_set, tmp_path).start_play()
    active = t.pos.active
    pads = _deal(t, "B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    t.see(_place_view(t, active.other, bar), (pads[0], None))  # the passive player's bar
    t.table.solo = Computer(Solo(active.other, 1), "towers")  # ... that seat the computer's
    t.see(expected_towers(t.table.history[-2]), (pads[0], None))  # the bar lifted off
    assert t.table.offer is not None and t.table.offer.owners == {active.other}
    said = t.table.problem
    name = t.table.SEATS[active.other.value]
    assert "may press their button" not in said, said
    assert f"press {name}'s button for the computer" in said, said
    offer = t.of("offer", kind="takeback")[-1]
    assert offer["computer"] == active.other.value
    line = headline(offer, seat_names("towers"))  # the terminal says it too
    assert f"press {name}'s button for the computer" in line, line
