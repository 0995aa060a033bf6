"""The maze's walls and plan worked out the plain way, square by square: what the fast
ones in ``engine.maze`` must agree with (tests and ``bench/engine_maze.py``)."""

from __future__ import annotations

import random
from collections import deque

from engine.maze.actions import Orientation, PlaceWall
from engine.maze.board import SIZE, queen_moves, reachable, wall_edges
from engine.maze.game import MazeGame, Phase


def plain_plan(state) -> tuple[int | None, tuple]:
    """The Architect's shortest route the obvious way: (square, segments left) as sets."""
    start = (state.obelisk, frozenset(state.segments))
    came = {start: None}
    todo = deque([start])
    moves: dict = {}  # each square's queen moves on this board (its walls do not change)
    while todo:
        node = todo.popleft()
        if not node[1]:
            route = []
            while came[node] is not None:
                route.append(node[0])
                node = came[node]
            return len(route), tuple(reversed(route))
        if node[0] not in moves:
            moves[node[0]] = queen_moves(state.cut, node[0])
        for to in moves[node[0]]:
            nxt = (to, node[1] - {to})
            if nxt not in came:
                came[nxt] = node
                todo.append(nxt)
    return None, ()


def plain_legal_walls(state) -> set[PlaceWall]:
    out = set()
    if not state.walls_left:
        return out
    for r in range(SIZE):
        for c in range(SIZE):
            if state.wall_at((r, c)) is not None:
                continue
            for o in Orientation:
                wall = PlaceWall((r, c), o)
                if len(reachable(state.cut | wall_edges(wall), state.obelisk)) == SIZE * SIZE:
                    out.add(wall)
    return out


def positions(seed: int, wall_bias: float, corner_bias: float):
    """Wall phases of one random game; walls drawn towards the edges when asked."""
    rng = random.Random(seed)
    state = MazeGame().new_initial_state()
    while not state.is_terminal():
        if state.phase is Phase.WALL:
            yield state
        legal = state.legal_actions()
        walls = [a for a in legal if isinstance(a, PlaceWall)]
        edge = [w for w in walls if min(w.square) == 0 or max(w.square) == SIZE - 1]
        if edge and rng.random() < corner_bias:
            state = state.apply_action(rng.choice(edge))
        elif walls and rng.random() < wall_bias:
            state = state.apply_action(rng.choice(walls))
        else:
            state = state.apply_action(rng.choice(legal))
