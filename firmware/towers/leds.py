"""The towers table's LEDs: a pure function of the table's state and the time.

Each tower's nine rods light one cube to fix at a time (red: a cube too
many, blue: one missing), the candidates to choose among (white: the one a
hold would play), or the last placement (green). Each zone pad is green
under a block the game counts, red under a weight to take off. The rings:
the options before a game (a pixel per 15 s, red for sudden death), a light
running round during the coin toss, the active player's hourglass draining
while they choose, whose move it is, and at the end who won.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

from engine.players import PLAYERS, Player
from engine.towers.blocks import WIDTH
from engine.towers.game import TowersState
from engine.towers.sensing import UNKNOWN, zone_fits
from engine.towers.tower import RODS
from engine.towers.turns import Phase
from firmware.core import palette
from firmware.core.lit import LitChoosing
from firmware.core.palette import Frame
from firmware.core.table_state import TableState
from firmware.towers.table_state import TowersTableState

if TYPE_CHECKING:
    from engine.towers.actions import Place
    from engine.towers.blocks import Cell
    from engine.towers.game import TowersGame
    from engine.towers.sensing import TowersView
    from firmware.core.hourglass import Hourglass


class LitTable(LitChoosing[TowersState], Protocol):
    """What the LEDs read of a towers table: its ``TowersTable``, which imports this module
    (so it is not named here); mypy checks that the table answers this."""

    @property
    def game(self) -> TowersGame: ...
    @property
    def decided(self) -> TowersView | None: ...
    @property
    def last_place(self) -> Place | None: ...
    @property
    def hourglass(self) -> Hourglass: ...
    @property
    def clear_zone(self) -> bool: ...
    def next_fix(self) -> tuple[Player, Cell, bool] | None: ...

OPTION_STEP_S = 15.0
"""Before a game, a ring pixel for every 15 s of the hourglass."""
TOSS_STEPS_S = 8
"""During the toss, the light moves on a pixel eight times a second."""


def frame(table: LitTable, now: float, ring_pixels: int) -> Frame:
    """Every pixel of the rods, the zone pads and the two rings for this moment."""
    leds: Frame = {}
    for p in PLAYERS:
        for i, rgb in enumerate(_ring(table, p, now, ring_pixels)):
            leds[("ring", p.value, i)] = rgb
        for rod in range(RODS):
            leds[("tower", p.value, rod)] = palette.OFF
    _towers(table, leds)
    _zone(table, leds)
    return leds


def next_change(table: LitTable, now: float, ring_pixels: int) -> float | None:
    """When the frame will next change with nothing but time passing (the service sleeps
    till then): the toss's spinning pixel, or the active player's hourglass."""
    if table.state == TowersTableState.toss:
        return (math.floor(now * TOSS_STEPS_S) + 1) / TOSS_STEPS_S
    pos = table.position
    if table.state == TableState.play and pos.phase is Phase.CHOOSE:
        return table.hourglass.next_change(now, ring_pixels)
    return None


def _ring(table: LitTable, p: Player, now: float, n: int) -> list[palette.RGB]:
    pos = table.position
    if table.state == TableState.setup:
        options = table.game.options
        shown = palette.EXTRA if options.sudden_death else palette.OPTION
        lit = min(n, round(options.hourglass_s / OPTION_STEP_S))
        return [shown] * lit + [palette.OFF] * (n - lit)
    if table.state == TowersTableState.toss:
        ring = [palette.OFF] * n
        ring[int(now * TOSS_STEPS_S) % n] = palette.PLAYERS[p]
        return ring
    if table.state == TableState.over:
        winner = table.final_outcome().winner
        return [palette.GOOD if winner is p else palette.WARN if winner is None
                else palette.EXTRA] * n
    if table.state == TableState.paused:
        return [palette.DIM] * n
    if pos.phase is Phase.CHOOSE and pos.active is p:
        return table.hourglass.ring(now, n)
    if p in pos.to_move():
        return [palette.PLAYERS[p]] * n
    return [palette.OFF] * n


def _rod(cell) -> int:
    x, y, _ = cell
    return y * WIDTH + x


def _towers(table: LitTable, leds: Frame) -> None:
    if table.state == TableState.choose and table.candidates:
        for i, candidate in enumerate(table.candidates):
            if i != table.pick:
                place = candidate[-1]
                for cell in place.cells:
                    leds[("tower", place.tower.value, _rod(cell))] = palette.CANDIDATE
        place = table.candidates[table.pick][-1]
        for cell in place.cells:  # the one a hold would play, over the others
            leds[("tower", place.tower.value, _rod(cell))] = palette.PICK
    elif table.state in (TableState.setup, TableState.repair):
        fix = table.next_fix()
        if fix is not None:
            p, cell, extra = fix
            leds[("tower", p.value, _rod(cell))] = palette.EXTRA if extra else palette.MISSING
    elif table.last_place is not None:
        place = table.last_place
        for cell in place.cells:
            leds[("tower", place.tower.value, _rod(cell))] = palette.GOOD


def _zone(table: LitTable, leds: Frame) -> None:
    view = table.decided
    if view is None:
        return
    counted = table.state != TableState.setup and not table.clear_zone \
        and zone_fits(table.position, view.zone_colours())
    for i, colour in enumerate(view.zone):
        if colour is None:
            leds[("zone", "", i)] = palette.OFF
        else:
            leds[("zone", "", i)] = palette.GOOD if counted and colour != UNKNOWN \
                else palette.EXTRA
