"""Stones moves from what the board senses: steps, stacking, pillars, ambiguity."""

from __future__ import annotations

import pytest

from engine.errors import InferenceError, NothingPlacedError
from engine.stones.game import StonesGame
from engine.stones.sensing import (
    BoardView,
    candidate_moves,
    destinations,
    lifted_sight,
    sight,
    sight_after,
)
from tests.support.stones import mv, position, sq


def _seen(state, *changes):
    """Occupancy after emptying ('-b2') and filling ('+c3') squares."""
    seen = set(sight(state).squares)
    for change in changes:
        (seen.discard if change[0] == "-" else seen.add)(sq(change[1:]))
    return BoardView.of((square, 1) for square in seen)


def test_every_opening_move_is_recognised():
    s = StonesGame().new_initial_state()
    for move in s.legal_actions():
        assert candidate_moves(s, sight_after(s, move)) == (move,)


def test_a_step_and_a_jump():
    s = position({"b2": "Ak", "c3": "Bc", "a1": "Ac", "d1": "Ap", "a6": "Bp", "b5": "Bk"})
    assert candidate_moves(s, _seen(s, "-b2", "+a3")) == (mv("b2", "a3"),)
    assert candidate_moves(s, _seen(s, "-b2", "+d4")) == (mv("b2", "d4"),)


def test_stacking_only_empties_a_square():
    s = position({"a2": "Ak", "a1": "Ac", "c1": "Ap", "a6": "Bp", "a5": "Bk", "b6": "Bc"})
    assert candidate_moves(s, _seen(s, "-a2")) == (mv("a2", "a1"),)


def test_an_ambiguous_stacking_lists_every_candidate():
    # The capstone on b2 may pillar B's keystone on a3 or B's cornerstone on c3:
    # both just empty b2. The player picks with their button.
    s = position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak", "a6": "Bp"})
    fits = candidate_moves(s, _seen(s, "-b2"))
    assert set(fits) == {mv("b2", "a3"), mv("b2", "c3")}


def test_a_capstone_coming_off_a_pillar_only_fills_a_square():
    s = position({"b2": "BkAp", "a1": "Ac", "d1": "Ak", "a6": "Bp", "b6": "Bc"})
    fits = candidate_moves(s, _seen(s, "+a3"))
    assert fits == (mv("b2", "a3"),)


def test_a_silent_move_is_confirmed_with_the_button():
    # A's capstone on B's keystone pillars B's cornerstone next door: the
    # switches see no change at all.
    s = position({"b2": "BkAp", "c3": "Bc", "a1": "Ac", "d1": "Ak", "a6": "Bp"})
    with pytest.raises(NothingPlacedError):
        candidate_moves(s, sight(s))
    assert mv("b2", "c3") in candidate_moves(s, sight(s), unchanged=True)


def test_what_no_legal_move_explains_is_named():
    s = StonesGame().new_initial_state()
    # said as what no move does, never as "no legal move for player A" (which, by the
    # rules, would mean player A has lost)
    with pytest.raises(InferenceError, match=r"^no legal move of player A empties c1 and "
                       r"fills c2: "):
        candidate_moves(s, _seen(s, "-c1", "+c2"))


def test_a_lifted_stone_lights_its_destinations():
    s = StonesGame().new_initial_state()
    assert destinations(s, sq("c1")) == {sq("b2")}
    assert destinations(s, sq("a6")) == frozenset()   # not A's stone


# ------------------------------------------------------------ stack-height sensors


def test_height_sensors_tell_an_ambiguous_stacking_apart():
    s = position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak", "a6": "Bp"})
    for move in (mv("b2", "a3"), mv("b2", "c3")):
        assert candidate_moves(s, sight_after(s, move, levels=3)) == (move,)


def test_height_sensors_see_the_move_occupancy_switches_miss():
    s = position({"b2": "BkAp", "c3": "Bc", "a1": "Ac", "d1": "Ak", "a6": "Bp"})
    seen = sight_after(s, mv("b2", "c3"), levels=2)
    assert seen != sight(s, levels=2)
    assert candidate_moves(s, seen) == (mv("b2", "c3"),)


def test_a_capped_height_sensor_sees_the_obelisk_as_two():
    # Two levels cannot tell a three-stone obelisk from the foundation under it,
    # but only one legal move empties b2 and nothing else, so no help is needed.
    s = position({"b2": "Ap", "b1": "AcAk", "a6": "Bp", "b6": "Bc", "c6": "Bk"})
    seen = sight_after(s, mv("b2", "b1"), levels=2)
    assert dict(seen.heights)[sq("b1")] == 2
    assert candidate_moves(s, seen) == (mv("b2", "b1"),)


def test_a_stone_in_the_air_looks_like_its_stack_one_lower():
    s = position({"b2": "BkAp", "c3": "Bc", "a1": "Ac", "d1": "Ak", "a6": "Bp"})
    held = lifted_sight(s, sq("b2"), levels=3)
    assert dict(held.heights)[sq("b2")] == 1
    assert lifted_sight(s, sq("a1"), levels=3).squares == sight(s).squares - {sq("a1")}
