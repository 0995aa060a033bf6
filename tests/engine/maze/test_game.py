"""The maze rules: walls against straight and diagonal steps, sealing, claiming, plan."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import parse_square as sq
from engine.errors import GameOverError, WrongPhaseError
from engine.maze.actions import Move, Orientation, Pass, PlaceSegment, PlaceWall
from engine.maze.board import SIZE, queen_moves, reachable, step_open, wall_edges
from engine.maze.game import MazeError, MazeGame, MazeOptions, Role
from engine.maze.plan import plan


def setup(obelisk="d4", segments=("a8", "h8", "h1", "a1"), turns=20):
    state = MazeGame(MazeOptions(turns=turns)).new_initial_state()
    for name in (obelisk, *segments):
        state = state.apply_action(PlaceSegment(sq(name)))
    return state


def cut_of(*walls):
    return frozenset(e for w in walls for e in wall_edges(w))


# A wall in d4 and each of its four orientations, against the eight steps out of d4.
STEPS = {"N": "d5", "E": "e4", "S": "d3", "W": "c4",
         "NE": "e5", "SE": "e3", "SW": "c3", "NW": "c5"}


@pytest.mark.parametrize("orientation", list(Orientation))
def test_every_orientation_against_straight_and_diagonal_steps(orientation):
    cut = cut_of(PlaceWall(sq("d4"), orientation))
    a, b = orientation.value
    for direction, target in STEPS.items():
        free = step_open(cut, sq("d4"), sq(target))
        if len(direction) == 1:              # straight: blocked by its own side only
            assert free == (direction not in (a, b)), direction
        else:                                # diagonal: blocked only when both ways are cut
            assert free == (direction != orientation.value), direction
        assert free == step_open(cut, sq(target), sq("d4"))   # the same both ways


def test_a_diagonal_slides_past_a_walls_end():
    # A wall in e4 facing north and east: stepping d3 -> e4 needs a way round the
    # corner point between them; d3 -> d4 -> e4 is open, so the diagonal is free.
    cut = cut_of(PlaceWall(sq("e4"), Orientation.NE))
    assert step_open(cut, sq("d3"), sq("e4"))
    # Two walls that cut both ways round the point d4/e4/d5/e5 block the diagonal.
    cut = cut_of(PlaceWall(sq("d4"), Orientation.NE), PlaceWall(sq("e5"), Orientation.SW))
    assert not step_open(cut, sq("d4"), sq("e5"))
    cut = cut_of(PlaceWall(sq("d4"), Orientation.NW), PlaceWall(sq("e5"), Orientation.NE))
    assert step_open(cut, sq("d4"), sq("e5"))      # d4 -> e4 -> e5 is still open


def test_the_obelisk_moves_like_a_queen_and_stops_at_walls():
    state = setup().apply_action(PlaceWall(sq("d6"), Orientation.SW))
    moves = {m.to for m in state.legal_actions()}
    assert sq("d5") in moves and sq("d6") not in moves and sq("d8") not in moves
    assert {sq("h4"), sq("a4"), sq("a7"), sq("g1")} <= moves
    with pytest.raises(MazeError, match="wall stands between d4 and d7"):
        state.apply_action(Move(sq("d7")))
    with pytest.raises(MazeError, match="not a straight or diagonal line"):
        state.apply_action(Move(sq("e6")))


def test_the_obelisk_passes_over_segments_and_claims_where_it_stops():
    state = setup(segments=("d6", "h8", "h1", "a1")).apply_action(Pass())
    over = state.apply_action(Move(sq("d8")))
    assert over.claimed == 1 and sq("d6") in over.segments
    on = state.apply_action(Move(sq("d6")))
    assert on.claimed == 2 and sq("d6") not in on.segments


def test_a_wall_that_shuts_a_square_off_is_refused():
    state = setup()
    with pytest.raises(MazeError, match="would shut a8 off from the obelisk"):
        state.apply_action(PlaceWall(sq("a8"), Orientation.SE))
    assert state.walls == ()
    # b1 penned in by two walls: its north and west, then c1's west side. The
    # diagonals out of b1 have no way round their corners left, so it is refused.
    state = state.apply_action(PlaceWall(sq("b1"), Orientation.NW)).apply_action(Move(sq("d5")))
    with pytest.raises(MazeError, match="shut b1 off from the obelisk"):
        state.apply_action(PlaceWall(sq("c1"), Orientation.NW))
    assert len(state.walls) == 1
    state.apply_action(PlaceWall(sq("c1"), Orientation.SE))   # the other way round is fine


def test_turns_walls_and_phases():
    state = setup()
    with pytest.raises(WrongPhaseError):
        state.apply_action(Move(sq("d5")))
    with pytest.raises(MazeError, match="d4 already holds the obelisk"):
        MazeGame().new_initial_state().apply_action(PlaceSegment(sq("d4"))).apply_action(
            PlaceSegment(sq("d4")))
    with pytest.raises(ValueError, match="15, 20 or 25"):
        MazeOptions(turns=18)
    spots = ("b2", "e2", "g2", "b4", "g4", "b6", "e6", "g6", "d7", "d2")
    for k in range(10):
        state = state.apply_action(PlaceWall(sq(spots[k]), Orientation.NE))
        state = state.apply_action(Move(sq("d5") if state.obelisk == sq("d4") else sq("d4")))
    assert state.walls_left == 0 and not any(isinstance(a, PlaceWall)
                                             for a in state.legal_actions())
    assert state.turn == 10 and state.turns_left == 10


def _to_the_last_turn():
    state = setup(obelisk="a1", segments=("a3", "a5", "a7", "h7"), turns=15)
    for _ in range(11):                                    # wander without claiming
        state = state.apply_action(Pass()).apply_action(
            Move(sq("b2") if state.obelisk == sq("a1") else sq("a1")))
    assert state.turn == 11 and state.claimed == 1 and state.obelisk == sq("b2")
    for target in ("a3", "a5", "a7"):
        state = state.apply_action(Pass()).apply_action(Move(sq(target)))
    assert state.turn == 14 and state.claimed == 4 and not state.is_terminal()
    return state.apply_action(Pass())


def test_claiming_the_last_segment_on_the_last_turn_wins():
    state = _to_the_last_turn()
    assert plan(state).moves == 1 and plan(state).enough
    end = state.apply_action(Move(sq("h7")))
    assert end.is_terminal() and end.winner() is Role.ARCHITECT
    assert (end.claimed, end.turn) == (5, 15)


def test_missing_on_the_last_turn_loses():
    end = _to_the_last_turn().apply_action(Move(sq("e7")))
    assert end.is_terminal() and end.winner() is Role.MAZE_MASTER
    assert (end.claimed, end.turn) == (4, 15)
    with pytest.raises(GameOverError):
        end.apply_action(Pass())


def test_plan_counts_the_fewest_moves_and_says_if_the_turns_suffice():
    state = setup(obelisk="a1", segments=("a2", "a3", "a4", "a5"), turns=15).apply_action(Pass())
    p = plan(state)
    assert p.moves == 4 and p.route == (sq("a2"), sq("a3"), sq("a4"), sq("a5")) and p.enough
    state = state.apply_action(Move(sq("a2")))
    assert plan(state.apply_action(Pass())).moves == 3
    # A wall north of a3 cuts the a-file: the way round (through b3 or b4) costs a move.
    walled = state.apply_action(PlaceWall(sq("a3"), Orientation.NW))
    p = plan(walled)
    assert p.moves == 4 and p.route[0] == sq("a3") and p.route[2:] == (sq("a4"), sq("a5"))
    assert p.route[1] in (sq("b3"), sq("b4")) and p.turns_left == 14 and p.enough
    assert not plan(dataclasses.replace(walled, turn=12)).enough     # 3 turns, 4 moves


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), turns=st.sampled_from([15, 20, 25]))
def test_random_games(seed, turns):
    rng = random.Random(seed)
    state = MazeGame(MazeOptions(turns=turns)).new_initial_state()
    while not state.is_terminal():
        before = state
        if state.phase.value == "wall":        # try a random wall; a refused one is a pass
            action = Pass()
            if rng.random() < 0.7:
                spot = (rng.randrange(8), rng.randrange(8))
                wall = PlaceWall(spot, rng.choice(list(Orientation)))
                try:
                    state.apply_action(wall)
                    action = wall
                except MazeError:
                    pass
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply_action(action)
        if isinstance(action, PlaceWall):      # no accepted wall ever seals a square
            assert len(reachable(state.cut, state.obelisk)) == SIZE * SIZE
        if isinstance(action, Move):           # a straight or diagonal line, no wall crossed
            (r0, c0), (r1, c1) = before.obelisk, action.to
            dr, dc = r1 - r0, c1 - c0
            assert (dr, dc) != (0, 0) and (dr == 0 or dc == 0 or abs(dr) == abs(dc))
            n = max(abs(dr), abs(dc))
            ur, uc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
            for k in range(n):
                a = (r0 + k * ur, c0 + k * uc)
                b = (a[0] + ur, a[1] + uc)
                assert step_open(before.cut, a, b)
        assert state.turn <= turns
    assert state.turn <= turns and (state.claimed == 5 or state.turn == turns)
    assert state.winner() is (Role.ARCHITECT if state.claimed == 5 else Role.MAZE_MASTER)
    assert queen_moves(state.cut, state.obelisk)       # never stuck


@pytest.mark.parametrize("walls", [-1, 11])
def test_the_options_refuse_a_wall_count_the_box_does_not_hold(walls):
    with pytest.raises(ValueError, match="0 to 10 walls"):
        MazeOptions(walls=walls)
