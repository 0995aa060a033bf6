"""Stones for the search: a position is worth the race to the obelisk.

Random stones games wander for a hundred and more moves, so rollouts to the
end cost too much and say little. A new position is valued instead by how
many moves each player is from the obelisk on an empty board: the keystone
and the cornerstone meeting as a foundation, and the capstone stepping onto
it (every stone steps diagonally forward or straight back). Blocking,
jumps and symmetry are left to the tree, which sees the real moves.
"""

from __future__ import annotations

import math
from collections import deque
from functools import lru_cache

from engine.core import ChanceStream
from engine.players import PLAYERS, Player
from engine.search.base import Results, Tuning
from engine.stones.game import Kind, Move, StonesState

FAR = 40
"""Moves counted for a meeting that no path allows."""
SCALE = 2.5
"""How many moves ahead in the race make a position nearly sure."""


@lru_cache(maxsize=32)
def _steps_table(rows: int, cols: int, player: Player) -> tuple[tuple[int, ...], ...]:
    """Moves from each square to each square for ``player``'s stones, board empty."""
    f = 1 if player is Player.A else -1
    n = rows * cols
    table = []
    for start in range(n):
        dist = [FAR] * n
        dist[start] = 0
        todo = deque([start])
        while todo:
            at = todo.popleft()
            r, c = divmod(at, cols)
            for dr, dc in ((f, -1), (f, 1), (-f, 0)):
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and dist[nr * cols + nc] == FAR:
                    dist[nr * cols + nc] = dist[at] + 1
                    todo.append(nr * cols + nc)
        table.append(tuple(dist))
    return tuple(table)


def moves_to_obelisk(state: StonesState, player: Player) -> int:
    """The fewest moves, board empty, for ``player`` to build the obelisk."""
    options = state.options
    table = _steps_table(options.rows, options.cols, player)

    def at(kind: Kind) -> tuple[int, ...]:
        r, c = state.where(player, kind)
        return table[r * options.cols + c]

    corner, cap = at(Kind.CORNER), at(Kind.CAP)
    if state.has_foundation(player):  # the foundation and the capstone meet
        return min(a + b for a, b in zip(corner, cap, strict=True))
    key = at(Kind.KEY)
    return min(a + b + c for a, b, c in zip(corner, key, cap, strict=True))


def winning_move(state: StonesState) -> Move | None:
    """The move that builds the obelisk now, if there is one: the capstone onto its own
    foundation (a jump never lands on a stone, so that move is always the obelisk)."""
    me = state.to_play
    corner = state.where(me, Kind.CORNER)
    if corner != state.where(me, Kind.KEY):
        return None
    move = Move(state.where(me, Kind.CAP), corner)
    return move if move in state.legal_actions() else None


def value(state: StonesState, stream: ChanceStream) -> Results:
    """The end's result, or the race to the obelisk as a soft one (the mover half a move up)."""
    if state.is_terminal():
        return state.returns()
    if winning_move(state) is not None:
        return (1.0, -1.0) if state.to_play is Player.A else (-1.0, 1.0)
    a, b = (moves_to_obelisk(state, p) for p in PLAYERS)
    lead = b - a + (0.5 if state.to_play is Player.A else -0.5)
    v = math.tanh(lead / SCALE)
    return (v, -v)


TUNING = Tuning(budgets=(8, 32, 128, 512), evaluate=value)
