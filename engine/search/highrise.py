"""High Rise for the search: quick random rollouts over sampled hidden values.

The search starts every simulation from ``HighriseState.sample_hidden``, so
the rollouts score the stacks with drawn values, never the real ones. The
end depends only on where each piece lands, not on the order, so a rollout
sends every piece left to a random square and scores the stacks: a random
game's end without playing it move by move (a hundred times quicker).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import ChanceStream
from engine.highrise.game import HighriseState
from engine.search.base import Results, Tuning

_DRAW = 1 << 60
"""One draw of the stream is cut into many squares (the bias is far below noise)."""


def _pips(state: HighriseState) -> list[list[int]]:
    """Each square's pips per player, as the stacks stand now."""
    pips = [[0, 0] for _ in range(len(state.stacks))]
    for i, stack in enumerate(state.stacks):
        for owner, size in stack:
            pips[i][owner.index] += size.value
    return pips


def _drop_left(state: HighriseState, pips: list[list[int]], stream: ChanceStream) -> None:
    """Every piece not yet placed onto a random square; a draw serves many pieces."""
    cells = len(pips)
    bits = 1
    for who in (0, 1):
        for size, count in enumerate(state.left[who], start=1):
            for _ in range(count):
                if bits < cells:
                    bits, draw = _DRAW, stream.below(_DRAW)
                bits //= cells
                draw, square = divmod(draw, cells)
                pips[square][who] += size


def _returns(pips: list[list[int]], values: Sequence[int]) -> Results:
    """+1 to the higher score, each stack scored as ``outcome`` scores it."""
    scores = [0, 0]
    for (a, b), hidden in zip(pips, values, strict=True):
        if a > b:
            scores[0] += b + hidden
        elif b > a:
            scores[1] += a + hidden
    if scores[0] == scores[1]:
        return (0.0, 0.0)
    return (1.0, -1.0) if scores[0] > scores[1] else (-1.0, 1.0)


def rollout(state: HighriseState, stream: ChanceStream) -> Results:
    """Every piece left on a random square, then the stacks scored as ``outcome`` does."""
    if state.is_terminal():
        return state.returns()
    pips = _pips(state)
    _drop_left(state, pips, stream)
    return _returns(pips, state.values)


TUNING = Tuning(budgets=(6, 30, 150, 600), evaluate=rollout)
