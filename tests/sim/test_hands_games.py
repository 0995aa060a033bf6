"""The simulated hands of stones, High Rise and the maze: each act changes only the sensors."""

from __future__ import annotations

import pytest

from engine.highrise.sensing import Calibration
from firmware.highrise.hands import HighriseHands
from firmware.maze.hands import MazeHands
from firmware.sim.hands import HandsError
from firmware.stones.hands import StonesHands
from hardware.sim.table import COVER_GRAMS, GRAMS_TO_COUNTS, LOAD_OFFSET, PYRAMID_GRAMS
from tests.support.hands import sim_table


def test_stones_are_set_out_moved_stacked_lifted_and_knocked():
    hands = StonesHands(sim_table())
    for piece, square in (("A corner", "c1"), ("A key", "d2")):
        hands.act({"act": "take", "seat": "A", "piece": piece})
        hands.act({"act": "put", "seat": "A", "square": square})
    assert hands.sim.stacks == {((0, 2), 1), ((1, 3), 1)}
    hands.act({"act": "lift", "seat": "A", "square": "d2"})  # the keystone onto its cornerstone
    assert hands.sim.pieces == {(0, 2)}
    hands.act({"act": "put", "seat": "A", "square": "c1"})
    assert hands.sim.stacks == {((0, 2), 2)} and hands.look()["squares"]["c1"] == [
        "A corner", "A key"]
    hands.act({"act": "lift", "seat": "A", "square": "c1"})  # a foundation moves as one
    assert hands.look()["held"]["A"] == ["A corner", "A key"] and not hands.sim.stacks
    hands.act({"act": "put", "seat": "A", "square": "b2"})
    hands.act({"act": "take", "seat": "B", "piece": "B cap"})
    hands.act({"act": "put", "seat": "B", "square": "b2"})  # B's capstone on A's foundation
    hands.act({"act": "lift", "seat": "B", "square": "b2"})  # B lifts only their capstone
    assert hands.look()["held"]["B"] == ["B cap"] and hands.sim.stacks == {((1, 1), 2)}
    hands.act({"act": "back", "seat": "B"})
    hands.act({"act": "knock", "square": "b2"})
    assert hands.sim.stacks == {((1, 1), 1)} and "A key" in hands.beside()
    with pytest.raises(HandsError, match="nothing stands on a8"):
        hands.act({"act": "lift", "seat": "A", "square": "a8"})
    with pytest.raises(HandsError, match="off the 8x8 board"):
        hands.act({"act": "lift", "seat": "A", "square": [9, 0]})
    with pytest.raises(HandsError, match="hand is empty"):
        hands.act({"act": "put", "seat": "A", "square": "a1"})


def _pad(hands: HighriseHands, index: int) -> float:
    return (hands.sim.load_counts()[index] - LOAD_OFFSET) / GRAMS_TO_COUNTS


def test_highrise_pyramids_weigh_on_their_squares_pads():
    hands = HighriseHands(sim_table())
    hands.act({"act": "cover", "square": "b1"})
    hands.act({"act": "set", "seat": "A", "square": "b1", "size": "medium"})
    hands.act({"act": "set", "seat": "B", "square": "b1", "size": "small"})
    assert _pad(hands, 1) == pytest.approx(COVER_GRAMS + PYRAMID_GRAMS[2] + PYRAMID_GRAMS[1],
                                           abs=0.01)
    assert hands.look()["supply"]["A"]["medium"] == 9
    hands.act({"act": "lift", "square": "b1"})  # B's small pyramid back to B
    assert hands.look()["supply"]["B"]["small"] == 5
    hands.act({"act": "lean", "seat": "B", "square": "a2", "other": "b2", "size": "large"})
    assert _pad(hands, 3) == pytest.approx(PYRAMID_GRAMS[3] / 2, abs=0.01)
    assert _pad(hands, 4) == pytest.approx(PYRAMID_GRAMS[3] / 2, abs=0.01)
    with pytest.raises(HandsError, match="leans across"):
        hands.act({"act": "set", "seat": "A", "square": "a2", "size": "small"})
    hands.act({"act": "lift", "square": "b2"})
    assert _pad(hands, 3) == pytest.approx(0, abs=0.01)
    with pytest.raises(HandsError, match="lift them first"):
        hands.act({"act": "uncover", "square": "b1"})
    for _ in range(5):
        hands.act({"act": "set", "seat": "A", "square": "c3", "size": "small"})
    with pytest.raises(HandsError, match="no small pyramid left"):
        hands.act({"act": "set", "seat": "A", "square": "c3", "size": "small"})
    with pytest.raises(HandsError, match="off the 3x3 board"):
        hands.act({"act": "cover", "square": "d1"})


def test_the_maze_obelisk_carries_its_claims_and_walls_stand_on_their_own_switch():
    hands = MazeHands(sim_table("sim-maze"))
    hands.act({"act": "take", "seat": "A", "piece": "obelisk"})
    hands.act({"act": "put", "seat": "A", "square": "a1"})
    hands.act({"act": "take", "seat": "B", "piece": "segment 2"})
    hands.act({"act": "put", "seat": "B", "square": "a3"})
    hands.act({"act": "lift", "seat": "A", "square": "a1"})
    hands.act({"act": "put", "seat": "A", "square": "a3"})  # onto the segment: a claim
    assert hands.sim.stacks == {((2, 0), 2)}
    hands.act({"act": "lift", "seat": "A", "square": "a3"})
    assert hands.look()["held"]["A"] == ["segment 2", "obelisk"]
    hands.act({"act": "put", "seat": "A", "square": "h8"})
    hands.act({"act": "stand", "square": "c3"})
    assert hands.sim.walls == {(2, 2)} and hands.look()["box"] == 9
    with pytest.raises(HandsError, match="already stands"):
        hands.act({"act": "stand", "square": "c3"})
    hands.act({"act": "unstand", "square": "c3"})
    assert not hands.sim.walls


def test_a_calibration_from_the_hands_readings_reads_each_size():
    hands = HighriseHands(sim_table())
    zero = hands.sim.load_counts()
    sizes = []
    for size in ("small", "medium", "large"):
        hands.act({"act": "set", "seat": "A", "square": "a1", "size": size})
        sizes.append(hands.sim.load_counts()[0] - zero[0])
        hands.act({"act": "lift", "square": "a1"})
    cal = Calibration.measured(zero, tuple(sizes), 0)
    assert [cal.size_of(s).value for s in sizes] == [1, 2, 3]
