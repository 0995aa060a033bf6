"""The towers table's words: blocks told by their colour (the table cannot tell two of a
colour apart), the moves list saying what each player did, the hourglass in whole seconds,
a lost turn said once, and each refusal saying what to do in the rules' and the set's words.
"""

from __future__ import annotations

import pytest

from engine.towers.blocks import Colour
from engine.towers.sensing import expected_towers
from engine.towers.tower import resting_placements
from firmware.readers.terminal.screen import headline, seat_names
from firmware.seats.solo import Computer, Solo
from tests.support.service import Pressed
from tests.support.tables import TowersHarness, harness, made
from tests.support.towers import BLOCK_ID


@pytest.mark.parametrize(("left", "said"), [(52.4, "53 s"), (52.0, "52 s"), (59.999, "60 s"),
                                            (0.4, "1 s"), (0.0, "0 s")])
def test_an_hourglass_says_its_whole_seconds_rounded_up(left, said):
    """A player's card showed "53 s stopped" while what happened said "(52 s left)": the
    seconds left are whole ones rounded up, as a countdown shows them (0.4 s left is 1 s
    until it is 0), in what happened as on the card (``tests/browser/test_words.py``)."""
    event = {"event": "timer", "player": "A", "state": "stopped", "seconds": 60, "left": left}
    assert headline(event) == f"player A's hourglass stopped ({said} left)"


def test_a_lost_turn_is_said_once(block_set, tmp_path):
    """"player B ran out of time: the turn is lost", then "player B's hourglass expired
    (0 s left)": the hourglass running out is said by the lost turn alone; its expiry has
    no words (the page logs none, the terminal shows no line for it)."""
    from firmware.readers.terminal.screen import Screen, seat_names
    from firmware.readers.web.follow import dressed
    from firmware.towers.screen import draw
    from tests.support.tables import TowersHarness

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


def test_the_turn_after_a_lost_one_says_so_until_the_next_block(block_set, tmp_path):
    """A newcomer's trial: the hourglass ran out with the zone empty, and the bar moved to
    the other player without a word. The next turn's line says whose time ran out, until
    that player's first block is in the zone."""
    from tests.support.tables import TowersHarness

    t = TowersHarness(block_set, tmp_path).start_play()
    first = t.pos.active
    t.wait(60.0)  # the hourglass runs out, the zone empty
    turn = t.of("turn")[-1]
    assert turn["player"] == first.other.value
    assert turn["doing"] == ("put two blocks from the pile in the building zone "
                             f"({first} ran out of time: the turn passed)")
    t.see(t.towers(), t.zone_of("G01"))
    assert t.pos.zone == ("G01",)
    assert t.of("turn")[-1]["doing"] == "put one more block from the pile in the building zone"


def test_a_block_on_a_tower_while_choosing_says_who_chooses_and_what_to_take_off(block_set,
                                                                                 tmp_path):
    """'wait: the passive player takes a block from the zone before anyone places', while
    nobody had put a block in the zone: the rules' word is the choice, and its player."""
    t = TowersHarness(block_set, tmp_path).start_play()
    active = t.pos.active
    bar = resting_placements(t.pos.tower(active), t.block_set["R01"])[0]
    t.see(t.place_view(active, bar))
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


def test_a_computers_piece_lifted_says_its_button_is_pressed_for_the_computer(block_set,
                                                                             tmp_path):
    """'the Architect (computer, level 1): press your button to take it back': the computer
    presses no button. The person presses the computer's seat's button for it, and the
    offer says whose seat is the computer's as a value, for the page."""
    t = TowersHarness(block_set, tmp_path).start_play()
    active = t.pos.active
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    t.see(t.place_view(active.other, bar), (pads[0], None))  # the passive player's bar
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


def test_pausing_towers_says_its_hourglass_stopped(block_set, tmp_path):
    towers = Pressed(TowersHarness(block_set, tmp_path).start_play())
    assert "hourglass" in towers.do("pause")["message"]


def test_the_turn_line_after_one_block_asks_for_the_other(block_set, tmp_path):
    """"put two blocks from the pile in the building zone" still, with one on its pad."""
    t = TowersHarness(block_set, tmp_path).start_play()
    t.see(t.towers(), t.zone_of("G01"))
    assert len(t.table.actions) == 1
    doing = t.of("turn")[-1]["doing"]
    assert "two blocks" not in doing and "one more block" in doing, doing
    assert t.table.public_state()["doing"] == doing


def test_the_turn_line_follows_the_block_taken_off_the_zone(block_set, tmp_path):
    """Issue 48: "take one of the two blocks in the building zone" no longer holds once the
    passive player has lifted one off its pad: the line says to place that block, and
    asks again for the take if it goes back on its pad."""
    t = TowersHarness(block_set, tmp_path).start_play()
    t.see(t.towers(), t.zone_of("G01"))
    t.see(t.towers(), t.zone_of("G01", "R01"))
    taking = t.of("turn")[-1]["doing"]
    assert taking.startswith("take one of the two blocks"), taking
    t.see(t.towers(), t.zone_of("G01"))  # the red block in a hand
    doing = t.of("turn")[-1]["doing"]
    assert doing.startswith("place the red block on your tower"), doing
    assert t.table.public_state()["doing"] == doing
    t.see(t.towers(), t.zone_of("G01", "R01"))  # back on its pad
    assert t.of("turn")[-1]["doing"] == taking


def test_the_towers_moves_say_what_each_player_did_the_hourglass_and_a_bonus_too(tmp_path):
    from engine.players import Player
    from engine.towers.actions import Choose, Decline, Place, Take, Timeout

    table = harness("towers", tmp_path, start=False, seed=3).table
    active = table.position.active
    green, blue = "G01", "B01"
    said = made(table, Choose(green), Choose(blue))
    assert said == [f"{active} chose a green block for the building zone",
                    f"{active} chose a blue block for the building zone"]
    taken = table.position.apply_action(Take(green))  # the table reads a take as its place
    take = next(a for a in taken.legal_actions(active.other) if isinstance(a, Place))
    said = made(table, take)
    assert said[-1].startswith(f"{active.other} placed the green block on tower "
                               f"{active.other.value} at ")
    assert said[-1].endswith(f"; {active} got the blue block"), said[-1]
    place = table.position.legal_actions()[0]
    said = made(table, place)
    assert said[-1].startswith(f"{active} placed the blue block on tower {active.value} at ")
    said = made(table, Timeout())
    assert said[-1] == f"{active.other} ran out of time: the turn is lost"
    assert table.position.done_words(Decline(Player.B)) == "declined the black block"


def test_the_towers_moves_name_a_block_by_its_colour_when_it_was_another_of_that_colour(
        tmp_path):
    """A newcomer read "chose the blue block B01 for the building zone", then "placed the
    blue block B02": the zone pads weigh a block's colour only, so the table guesses which
    block it is and corrects the record once the rods see its shape. No entry of the moves
    list, no headline and no turn's words name a block by its id, and each block placed is
    the colour that was chosen."""
    from engine.towers.actions import Choose, Place
    from engine.towers.tower import cells_text, resting_placements

    table = harness("towers", tmp_path, start=False, seed=3).table
    active = table.position.active
    passive = active.other
    made(table, Choose("B01"), Choose("G01"))

    def placed(player, block_id):  # the rods see this block's shape, not the one guessed
        pos = table.position
        cells = resting_placements(pos.tower(player), pos.block(block_id))[0]
        return Place(player, block_id, cells)

    blue = placed(passive, "B03")  # another shape than B01's
    made(table, blue)
    doing = table.turn.doing()  # the turn's words: the active player is to place
    green = placed(active, "G05")  # another shape than G01's
    said = made(table, green)
    assert said == [f"{active} chose a blue block for the building zone",
                    f"{active} chose a green block for the building zone",
                    f"{passive} placed the blue block on tower {passive.value} at "
                    f"{cells_text(blue.cells)}; {active} got the green block",
                    f"{active} placed the green block on tower {active.value} at "
                    f"{cells_text(green.cells)}"]
    names = seat_names("towers")
    for move in table.public_state()["moves"]:
        line = headline({"event": "accepted", "player": move["player"], "action": "",
                         "text": move["text"], "observation": {}}, names)
        assert not BLOCK_ID.search(line), line
    assert not BLOCK_ID.search(doing) and "green block" in doing, doing


def test_both_zone_blocks_of_one_colour_are_a_block_and_the_other(tmp_path):
    """Two blue blocks in the building zone: the passive player placed "a blue block", and
    the active player got "the other blue block", not the same words for both."""
    from engine.towers.actions import Choose, Place
    from engine.towers.tower import resting_placements

    table = harness("towers", tmp_path, start=False, seed=3).table
    active = table.position.active
    pos = table.position.apply_action(Choose("B01")).apply_action(Choose("B03"))
    cells = resting_placements(pos.tower(active.other), pos.block("B03"))[0]
    said = made(table, Choose("B01"), Choose("B03"), Place(active.other, "B03", cells))
    assert said[-1].startswith(f"{active.other} placed a blue block on tower "), said
    assert said[-1].endswith(f"; {active} got the other blue block"), said


def test_the_towers_terminal_names_each_block_by_its_colour(tmp_path):
    """`obelisk watch` drew "zone: blue block B01, green block G01" and "player A places the
    blue block B01": the terminal says what the table can tell, the blocks' colours."""
    from engine.towers.actions import Choose, Take
    from firmware.towers.screen import draw

    table = harness("towers", tmp_path, start=False, seed=3).table
    pos = table.position.apply_action(Choose("B01")).apply_action(Choose("G01"))
    drawn = draw(pos.observation())
    assert "zone: blue block, green block" in drawn, drawn
    dealt = pos.apply_action(Take("G01"))
    drawn += draw(dealt.observation())
    assert f"player {dealt.active.value} places the blue block" in drawn, drawn
    assert f"{dealt.passive.value} holds the green block" in drawn, drawn
    assert not BLOCK_ID.search(drawn), drawn


def test_the_computers_asked_take_is_said_no_more_once_its_block_is_in_the_hand(block_set,
                                                                                tmp_path):
    """Issue 48: the computer's turn kept "take the yellow block from the zone; place ..."
    while the person held that block for it: the line says only what is left to do, and the
    whole move again once the block is back on its pad."""
    from engine.towers.actions import Take

    t = TowersHarness(block_set, tmp_path).start_play()
    t.table.solo = Computer(Solo(t.pos.active.other, 1), "towers")  # the passive takes
    t.see(t.towers(), t.zone_of("G01"))
    t.see(t.towers(), t.zone_of("G01", "R01"))
    taking = t.of("turn")[-1]["doing"]
    take = t.table.solo.asked[0]
    assert isinstance(take, Take) and "from the zone" in taking, taking
    left = "R01" if take.block == "G01" else "G01"
    t.see(t.towers(), t.zone_of(left))  # the asked block in the person's hand
    doing = t.of("turn")[-1]["doing"]
    assert "from the zone" not in doing and "make the computer's move: place the " in doing, \
        doing
    t.see(t.towers(), t.zone_of("G01", "R01"))  # back on its pad
    assert t.of("turn")[-1]["doing"] == taking
