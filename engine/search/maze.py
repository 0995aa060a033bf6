"""The maze for the search: a position is worth how much time the Architect has to spare.

Random rollouts say nothing here (a random Architect never gathers the
obelisk), so a new position is valued without playing on: the fewest queen
moves that claim every segment left, with the walls standing, against the
turns left, less a little for each wall the Maze Master still holds. The
fewest moves come from breadth-first searches a board at a time (the
squares as bits of one integer) between the obelisk and the segments, and
the best order of visits; ``engine.maze.plan.plan`` gives the same number,
more slowly, with the route.
"""

from __future__ import annotations

import math
from itertools import permutations

from engine.core import ChanceStream
from engine.maze.actions import Action, Pass, Square
from engine.maze.board import SIZE, open_steps, square_bit
from engine.maze.game import MazeState, Phase
from engine.search.base import Results, Tuning

WALL_COST = 0.6
"""Moves a wall still in the box is expected to add to the Architect's way."""
SCALE = 4.0
"""How sharply spare moves turn into a sure result: gently, so that a wall that costs the
Architect one more move still counts while it has many to spare (at 1.5 every position
with five spare moves looked won, and the Maze Master stood its walls at random)."""


def _one_move(steps: list[tuple[int, int]], frm: int) -> int:
    """Every square one queen move away from any square of ``frm`` (bits)."""
    out = 0
    for allowed, shift in steps:
        line = frm
        while line:
            line = (line & allowed) << shift if shift > 0 else (line & allowed) >> -shift
            out |= line
    return out


def _distances(steps: list[tuple[int, int]], frm: Square, targets: list[Square]) -> list[int]:
    """Queen moves from ``frm`` to each target (walls counted), breadth first."""
    want = {square_bit(t): i for i, t in enumerate(targets)}
    out = [0] * len(targets)
    left = sum(want) & ~square_bit(frm)
    seen = frontier = square_bit(frm)
    moves = 0
    while left:
        moves += 1
        frontier = _one_move(steps, frontier) & ~seen
        if not frontier:
            raise ValueError("a segment the obelisk cannot reach")
        seen |= frontier
        for bit, i in want.items():
            if bit & frontier & left:
                out[i] = moves
                left &= ~bit
    return out


def moves_needed(state: MazeState) -> int:
    """The fewest Architect moves that claim every segment left, walls as they stand."""
    if state.obelisk is None or not state.segments:
        return 0
    steps = [(allowed, dr * SIZE + dc) for (dr, dc), allowed in open_steps(state.cut).items()]
    points = [state.obelisk, *sorted(state.segments)]
    table = [_distances(steps, p, points) for p in points]
    best = math.inf
    for order in permutations(range(1, len(points))):
        total, at = 0, 0
        for nxt in order:
            total += table[at][nxt]
            at = nxt
        best = min(best, total)
    return int(best)


def value(state: MazeState, stream: ChanceStream) -> Results:
    """(Architect, Maze Master): the end's result, or the spare moves as a soft one."""
    if state.is_terminal():
        return state.returns()
    while state.phase in (Phase.FIRST_SEGMENT, Phase.SEGMENTS):  # setup: finish at random
        actions = state.legal_actions()
        state = state.apply_action(actions[stream.below(len(actions))])
    turns = state.turns_left
    walls = min(state.walls_left, turns - (state.phase is Phase.MOVE))
    spare = turns - moves_needed(state) - WALL_COST * walls
    v = math.tanh((spare + 0.5) / SCALE)
    return (v, -v)


def moves(state: MazeState) -> list[Action]:
    """Every legal action, but walls only on the obelisk's square and the segments' left.

    Such a wall shuts sides the Architect must leave or reach by; a wall
    elsewhere rarely lengthens its way. Each of these squares takes a wall in
    any of its four orientations, so the Maze Master still chooses among some
    twenty walls and the pass, not a hundred: with fewer moves to try at each
    turn the search reaches the Architect's answers and its own next wall
    within its budget, and a bigger budget then plays better (with a hundred,
    every level spent its budget trying each wall once, level 4 played no
    better than level 3, and a move's mean was taken over replies tried at random).
    """
    if state.phase is not Phase.WALL or state.obelisk is None:
        return state.legal_actions()
    return [Pass(), *state.walls_on([state.obelisk, *state.segments])]


TUNING = Tuning(budgets=(8, 16, 150, 400), moves=moves, evaluate=value, exploration=0.5)
"""Levels spaced so each beats the one below in both roles together (bench/opponents.py):
the Architect wins most games at every level from 150 simulations, so the levels part
mostly on how often a Maze Master catches the Architect of the level below out; at
(8, 30, 100, 300) level 3 played no better than level 2. A gentle exploration (0.5, the
default 1.0) spends more of the budget on the walls and answers the value rates best."""
