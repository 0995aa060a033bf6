"""What the table shows as "wrong" is of four kinds, told as a value (issue 32, point 8).

A newcomer read "not allowed: a piece came off ..." and, after a lost turn,
"Not allowed: put the zone blocks back in the pile": an offer and a thing to
do, shown as refusals in red. The ``refused`` event says its ``kind``: a rule
broken (``rule``), a piece lifted off that may be taken back (``takeback``),
something to put right before play goes on (``task``), or the table's own
trouble (``fault``, a full disk). The terminal and the page word and colour each
kind from that value, never from the message's text.
"""

from __future__ import annotations

from engine.towers.sensing import expected_towers
from engine.towers.tower import resting_placements
from firmware.core import events
from firmware.readers.terminal.screen import headline, seat_names
from tests.support.tables import MazeHarness, TowersHarness

NAMES = seat_names("towers")


def _refusals(t) -> list[dict]:
    return [e for e in t.events if e["event"] == "refused"]


def test_a_lost_turn_asks_the_zone_blocks_back_as_a_task_not_a_refusal(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path).start_play()
    t.see(t.towers(), t.zone_of("G01"))
    t.wait(60.0)  # the hourglass runs out with a block on its pad
    told = _refusals(t)[-1]
    assert told["kind"] == "task" and "back in the pile" in told["message"]
    said = headline(told, NAMES)
    assert not said.startswith("not allowed"), said
    assert said.startswith("to do: ")
    t.see(t.towers(), t.zone_of("G01"))  # the next reading of the block still there
    assert _refusals(t)[-1]["kind"] == "task"


def test_a_piece_lifted_off_is_an_offer_and_a_broken_rule_a_refusal(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path).start_play()
    passive = t.pos.active.other
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(passive), t.block_set["R01"])[0]
    t.see(t.place_view(passive, bar), (pads[0], None))
    t.see(expected_towers(t.table.history[-2]), (pads[0], None))  # lifted off again
    offered = _refusals(t)[-1]
    assert offered["kind"] == "takeback"
    assert headline(offered, NAMES).startswith("a piece came off: ")
    # the same after a page joins: the table's opening says the offer's kind too
    opened = [e for e in t.table.opening(t.now) if e["event"] == "refused"]
    assert [e["kind"] for e in opened] == ["takeback"]
    floating = frozenset({(0, 0, 4)})  # a cube four levels up: it floats
    t.see((expected_towers(t.pos)[0] | floating, expected_towers(t.pos)[1]), (pads[0], None))
    broken = _refusals(t)[-1]
    assert broken["kind"] == "rule" and headline(broken, NAMES).startswith("not allowed: ")


def test_a_full_disk_is_the_tables_trouble_not_the_players(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path).start_play()
    t.table.cannot_record("not recorded: the disk holding /x is full: free some space")
    told = _refusals(t)[-1]
    assert told["kind"] == "fault"
    assert headline(told, NAMES).startswith("the table cannot record: ")


def test_the_maze_setup_asks_the_board_cleared_as_a_task(tmp_path):
    t = MazeHarness(tmp_path)
    t.walls.add((0, 0))
    t.put("d4")  # a wall and a piece: not a start
    told = _refusals(t)[-1]
    events.check(told)
    assert told["kind"] == "task" and "clear the board first" in told["message"]


def test_every_kind_is_in_the_vocabulary():
    assert events.WORDS["refused"] == {"rule", "takeback", "task", "fault"}


def test_the_maze_offers_a_takeback_to_the_role_by_its_name(tmp_path):
    """'a piece came off: player B may press ...' in a game whose seats are the Architect
    and the Maze Master: the offer names the role, as every other line of the maze does."""
    t = MazeHarness(tmp_path).ready()
    t.wall("c3")  # the Maze Master stands a wall...
    if t.table.state == "choose":
        t.press("B", "hold")
    t.walls.discard((2, 2))
    t.settle()  # ...and lifts it off again
    offered = _refusals(t)[-1]
    assert offered["kind"] == "takeback", t.events[-3:]
    assert "the Maze Master may press" in offered["message"], offered["message"]
