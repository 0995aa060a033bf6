"""The fast wall check agrees with the plain one: a flood of the whole board, square by square.

``legal_actions`` lists walls through shortcuts (a detour inside the block
round a wall, bit floods); here every wall of many positions is checked the
slow, obvious way too, positions with walls crowded against the edges and
corners included.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.maze.actions import PlaceWall
from engine.maze.board import SIZE
from engine.maze.game import MazeGame, Phase
from engine.maze.plan import plan
from tests.support.maze import plain_legal_walls, plain_plan, positions


def _fast(state) -> set[PlaceWall]:
    return {a for a in state.legal_actions() if isinstance(a, PlaceWall)}


def test_the_fast_check_lists_exactly_the_walls_the_plain_one_allows():
    checked = refused = 0
    for seed in range(6):  # 120 wall phases, several hundred walls refused
        for state in positions(seed, wall_bias=0.8, corner_bias=0.5 if seed % 2 else 0.0):
            fast, plain = _fast(state), plain_legal_walls(state)
            assert fast == plain, (seed, sorted(map(str, fast ^ plain)))
            checked += 1
            refused += (SIZE * SIZE - len(state.walls)) * 4 - len(plain) if state.walls_left \
                else 0
    assert checked > 80 and refused > 20  # walls that would shut squares off were met


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.5, 1.0), st.floats(0.0, 1.0))
def test_any_game_agrees(seed, wall_bias, corner_bias):
    for state in positions(seed, wall_bias, corner_bias):
        assert _fast(state) == plain_legal_walls(state)


def test_the_plan_finds_the_same_shortest_route_as_the_plain_search():
    """The plan's bits and cached queen moves change its speed, never its route."""
    planned = unreachable = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = MazeGame().new_initial_state()
        while not state.is_terminal():
            if state.phase in (Phase.WALL, Phase.MOVE):
                got = plan(state)
                assert (got.moves, got.route) == plain_plan(state), (seed, str(state))
                planned += 1
                unreachable += got.moves is None
            legal = state.legal_actions()
            walls = [a for a in legal if isinstance(a, PlaceWall)]
            state = state.apply_action(rng.choice(walls if walls and rng.random() < 0.7
                                                  else legal))
    assert planned > 100
