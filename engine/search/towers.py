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
from engine.towers.actions import Place, PutBack
from engine.towers.blocks import WIDTH, Block, Colour
from engine.towers.game import TowersState
from engine.towers.tower import LEVELS, resting_placements
from engine.towers.turns import Phase


def moves(state: TowersState) -> list[Any]:
    """The actions of the player the API names as current, without putting blocks back.

    While placing, both players may act; the search lets the named one go
    first (the other's turn comes next, and the order changes nothing). A
    block put back is a choice undone: searching it only makes loops.
    """
    me = state.current_player()
    hand = None if me is None else state.hands[me.index]
    # while placing, the player named holds a block: both checks always hold then
    if state.phase is Phase.PLACE and me is not None and hand is not None:
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
    best: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]] = []
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


class _Quick:
    """A rollout's position in numbers: heights, points, and what is left to draw."""

    __slots__ = ("active", "black", "blacks", "block_of", "bonus", "hands", "heights",
                 "overs", "pile", "points", "zone")

    def __init__(self, state: TowersState) -> None:
        self.block_of = state.block
        self.heights = [list(state.tower(p).heights) for p in PLAYERS]
        self.points = [state.tower(p).points for p in PLAYERS]
        self.overs: list[int] = []  # who went over the top, once the game ends so
        self.pile = list(state.pile)
        self.blacks = len(state.blacks)
        self.black = self.block_of(state.blacks[0]) if state.blacks else None
        self.active = state.active.index
        self.zone = list(state.zone)
        self.hands: list[str | None] = list(state.hands)
        self.bonus = [p.index for p in state.bonus]

    def play(self, phase: Phase, stream: ChanceStream) -> None:
        """Turn after turn from ``phase`` until a tower goes over or the pile runs out."""
        while True:
            if phase is Phase.CHOOSE:
                self.fill_zone(stream)
                phase = Phase.TAKE
            if phase is Phase.TAKE:
                self.take(stream)
                phase = Phase.PLACE
            if phase is Phase.PLACE:
                if self.place(stream):
                    return
                phase = Phase.BONUS
            if phase is Phase.BONUS:
                if self.give_blacks(stream):
                    return
                self.active = 1 - self.active
                if len(self.pile) < 2:
                    return
                phase = Phase.CHOOSE

    def fill_zone(self, stream: ChanceStream) -> None:
        """The active player chooses at random until two blocks are in the zone."""
        while len(self.zone) < 2:
            self.zone.append(self.pile.pop(stream.below(len(self.pile))))

    def take(self, stream: ChanceStream) -> None:
        """The passive player keeps a random one of the two; the active gets the other."""
        pick = stream.below(2)
        zone, active = self.zone, self.active
        self.hands[1 - active], self.hands[active] = zone[pick], zone[1 - pick]
        self.zone = []

    def place(self, stream: ChanceStream) -> bool:
        """Both blocks in hand packed low; True when one went over the top (the end)."""
        over = [0, 0]
        for p in (0, 1):
            held = self.hands[p]
            if held is not None:
                block = self.block_of(held)
                over[p] = _pack_low(self.heights[p], block, stream)
                if over[p]:
                    self.points[p] -= over[p]  # the block leaves unscored, a point a cube
                else:
                    self.points[p] += block.colour.points
                self.hands[p] = None
        if over[0] or over[1]:
            self.overs = [p for p in (0, 1) if over[p]]
            return True
        self.bonus = [p for p in (0, 1) if _flat(self.heights[p])] if self.blacks else []
        return False

    def give_blacks(self, stream: ChanceStream) -> bool:
        """Each flat tower's owner puts a black block on the other tower half the time;
        True when it went over the top (the end)."""
        for p in self.bonus:
            if self.blacks and self.black is not None and stream.below(2):
                self.blacks -= 1
                over = _pack_low(self.heights[1 - p], self.black, stream)
                if over:
                    self.points[1 - p] -= over
                    self.overs = [1 - p]
                    return True
                self.points[1 - p] += Colour.BLACK.points
        self.bonus = []
        return False

    def returns(self, sudden_death: bool) -> Results:
        """+1 to the higher total; with sudden death, to the one not over the top."""
        points = self.points
        if sudden_death:  # no points: the one over the top loses
            points = [0, 0]
            if len(self.overs) == 1:
                points[1 - self.overs[0]] = 1
        if points[0] == points[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if points[0] > points[1] else (-1.0, 1.0)


def rollout(state: TowersState, stream: ChanceStream) -> Results:
    """Quick play to the end on height maps; +1 to the higher total (see the module)."""
    if state.is_terminal():
        return state.returns()
    quick = _Quick(state)
    quick.play(state.phase, stream)
    return quick.returns(state.game.options.sudden_death)


TUNING = Tuning(budgets=(4, 16, 60, 240), moves=moves, evaluate=rollout)
