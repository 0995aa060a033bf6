"""Towers for the search: the mover's own actions, and quick rollouts that pack low.

A tower's future depends only on its 3x3 height map (gaps stay empty), so a
rollout plays on numbers: each tower's nine heights, each player's points,
the pile's blocks and the black blocks left. Both players pack every block
as low as it goes; blocks are chosen and taken at random; a flat tower puts
a black block low on the other tower half the time. The turn flow, the end
over the top (the block unscored, a point lost per cube over) and the empty
pile follow ``engine.towers.game``; the tree itself always plays through
the real API, so a rollout can only misjudge a position, never break a rule.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core import ChanceStream
from engine.players import PLAYERS
from engine.search.base import Results, Tuning
from engine.towers.blocks import WIDTH, Block, Colour
from engine.towers.game import Phase, Place, PutBack, TowersState
from engine.towers.tower import LEVELS, resting_placements


def moves(state: TowersState) -> list[Any]:
    """The actions of the player the API names as current, without putting blocks back.

    While placing, both players may act; the search lets the named one go
    first (the other's turn comes next, and the order changes nothing). A
    block put back is a choice undone: searching it only makes loops.
    """
    me = state.current_player()
    if state.phase is Phase.PLACE:
        hand = state.hands[me.index]
        return [Place(me, hand, cells)
                for cells in resting_placements(state.tower(me), state.block(hand))]
    return [a for a in state.legal_actions(me) if not isinstance(a, PutBack)]


@lru_cache(maxsize=512)
def _footprints(block: Block) -> tuple[tuple[tuple[tuple[int, int, int], ...],
                                             tuple[int, ...]], ...]:
    """Every orientation at every position on the rods: (rod, lowest cube, top cube) for
    each column it covers, and the levels of all its cubes (from its lowest, 0)."""
    out = []
    for shape in block.orientations:
        bottoms: dict[tuple[int, int], int] = {}
        tops: dict[tuple[int, int], int] = {}
        for x, y, z in shape:
            bottoms[(x, y)] = min(z, bottoms.get((x, y), z))
            tops[(x, y)] = max(z, tops.get((x, y), z))
        span_x = max(x for x, _, _ in shape) + 1
        span_y = max(y for _, y, _ in shape) + 1
        levels = tuple(sorted(z for _, _, z in shape))  # the top last
        for tx in range(WIDTH - span_x + 1):
            for ty in range(WIDTH - span_y + 1):
                cols = tuple(((y + ty) * WIDTH + x + tx, bottoms[(x, y)], tops[(x, y)])
                             for (x, y) in sorted(bottoms))
                out.append((cols, levels))
    return tuple(out)


def _pack_low(heights: list[int], block: Block, stream: ChanceStream) -> int:
    """Put ``block`` where its top is lowest (ties at random); its cubes over the top."""
    best: list[tuple] = []
    low = 1 << 30
    for cols, levels in _footprints(block):
        rest = max([heights[rod] - bottom for rod, bottom, _ in cols])
        top = rest + levels[-1]
        if top < low:
            low, best = top, [(cols, levels, rest)]
        elif top == low:
            best.append((cols, levels, rest))
    cols, levels, rest = best[stream.below(len(best))] if len(best) > 1 else best[0]
    for rod, _, top in cols:
        if rest + top + 1 > heights[rod]:
            heights[rod] = rest + top + 1
    return sum(1 for z in levels if rest + z >= LEVELS)


def _flat(heights: list[int]) -> bool:
    return heights[0] >= 1 and min(heights) == max(heights)


def rollout(state: TowersState, stream: ChanceStream) -> Results:
    """Quick play to the end on height maps; +1 to the higher total (see the module)."""
    if state.is_terminal():
        return state.returns()
    block_of = state.block
    heights = [list(state.tower(p).heights) for p in PLAYERS]
    points = [state.tower(p).points for p in PLAYERS]
    overs: list[int] = []
    pile = list(state.pile)
    blacks = len(state.blacks)
    black = block_of(state.blacks[0]) if state.blacks else None
    active = state.active.index
    zone = list(state.zone)
    hands: list[str | None] = list(state.hands)
    bonus = [p.index for p in state.bonus]
    phase = state.phase
    while True:
        if phase is Phase.CHOOSE:
            while len(zone) < 2:
                zone.append(pile.pop(stream.below(len(pile))))
            phase = Phase.TAKE
        if phase is Phase.TAKE:
            pick = stream.below(2)
            hands[1 - active], hands[active] = zone[pick], zone[1 - pick]
            zone = []
            phase = Phase.PLACE
        if phase is Phase.PLACE:
            over = [0, 0]
            for p in (0, 1):
                if hands[p] is not None:
                    block = block_of(hands[p])
                    over[p] = _pack_low(heights[p], block, stream)
                    if over[p]:
                        points[p] -= over[p]  # the block leaves unscored, a point a cube
                    else:
                        points[p] += block.colour.points
                    hands[p] = None
            if over[0] or over[1]:
                overs = [p for p in (0, 1) if over[p]]
                break
            bonus = [p for p in (0, 1) if _flat(heights[p])] if blacks else []
            phase = Phase.BONUS
        if phase is Phase.BONUS:
            ended = False
            for p in bonus:
                if blacks and black is not None and stream.below(2):
                    blacks -= 1
                    over = _pack_low(heights[1 - p], black, stream)
                    if over:
                        points[1 - p] -= over
                        overs = [1 - p]
                        ended = True
                        break
                    points[1 - p] += Colour.BLACK.points
            if ended:
                break
            bonus = []
            active = 1 - active
            if len(pile) < 2:
                break
            phase = Phase.CHOOSE
    if state.game.options.sudden_death:  # no points: the one over the top loses
        points = [0, 0]
        if len(overs) == 1:
            points[1 - overs[0]] = 1
    if points[0] == points[1]:
        return (0.0, 0.0)
    return (1.0, -1.0) if points[0] > points[1] else (-1.0, 1.0)


TUNING = Tuning(budgets=(4, 16, 60, 240), moves=moves, evaluate=rollout)
