"""The Architect's plan: the shortest way to claim every segment still out.

``plan(state)`` answers for any position, with the walls as they stand, and
gives the route; the maze table, its screen and its demo all ask it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.maze.actions import Square
from engine.maze.board import DIRECTIONS, SIZE
from engine.maze.game import SEGMENTS, MazeState, Phase


@dataclass(frozen=True)
class Plan:
    """The Architect's shortest way to every segment, with today's walls."""

    moves: int | None  # None: some segment cannot be reached at all
    turns_left: int
    route: tuple[Square, ...] = ()  # where each move ends

    @property
    def enough(self) -> bool:
        return self.moves is not None and self.moves <= self.turns_left


def _queen_moves(steps: dict[tuple[int, int], int], start: Square) -> list[Square]:
    """``queen_moves`` read off the board's open steps (bits), as the search needs it."""
    out = []
    for dr, dc in DIRECTIONS:
        allowed = steps[(dr, dc)]
        r, c = start
        while allowed >> (r * SIZE + c) & 1:
            r, c = r + dr, c + dc
            out.append((r, c))
    return out


def plan(state: MazeState) -> Plan:
    """The fewest Architect moves that claim every remaining segment, walls as they stand.

    A breadth-first search over (obelisk square, segments still out). The segments
    still out are bits of one integer, and each square's queen moves are found once
    per search, so that the table can run it after every action and a demo's hands
    can weigh a couple of dozen walls with it.
    """
    if state.obelisk is None or state.phase is Phase.OVER:
        return Plan(0 if state.claimed == SEGMENTS else None, state.turns_left)
    bit_of = {square: 1 << i for i, square in enumerate(sorted(state.segments))}
    start = (state.obelisk, sum(bit_of.values()))
    came: dict[tuple[Square, int], tuple[Square, int] | None] = {start: None}
    todo = deque([start])
    steps = state.steps
    ways: dict[Square, tuple[tuple[Square, int], ...]] = {}  # square -> (to, bits kept)
    while todo:
        node = todo.popleft()
        square, left = node
        if not left:
            route = []
            before = came[node]
            while before is not None:
                route.append(node[0])
                node, before = before, came[before]
            return Plan(len(route), state.turns_left, tuple(reversed(route)))
        moves = ways.get(square)
        if moves is None:
            moves = ways[square] = tuple((to, ~bit_of.get(to, 0))
                                         for to in _queen_moves(steps, square))
        for to, keep in moves:
            nxt = (to, left & keep)
            if nxt not in came:
                came[nxt] = node
                todo.append(nxt)
    return Plan(None, state.turns_left)
