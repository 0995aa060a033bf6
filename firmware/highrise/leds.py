"""The High Rise table's LEDs: a pure function of the table's state and the time.

Before the end the board never shows what a square holds: only what is
wrong, one square to fix in setup (blue: its cover is missing, red: more
than a cover on it) and, in a repair, the squares that changed (red: take
off, blue: put back). The mover's ring shows how many pieces they have
left. At the end the stacks light one after another, each in its
controller's colour (orange: a tie), and the rings say who won.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from engine.core import Outcome
from engine.highrise.game import HighriseState, Size
from engine.players import PLAYERS, Player
from firmware.core import palette
from firmware.core.lit import Lit
from firmware.core.palette import Frame
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from engine.highrise.game import Square
    from engine.highrise.sensing import Calibration


class LitTable(Lit[HighriseState], Protocol):
    """What the LEDs read of a High Rise table: its ``HighriseTable``, which imports this module
    (so it is not named here); mypy checks that the table answers this."""

    @property
    def view(self) -> tuple[int, ...] | None: ...
    @property
    def accepted(self) -> tuple[int, ...] | None: ...
    @property
    def cal(self) -> Calibration: ...
    @property
    def board_cols(self) -> int: ...
    @property
    def cells(self) -> int: ...
    @property
    def over_at(self) -> float: ...
    @property
    def wrong(self) -> tuple[Square, ...]: ...
REVEAL_S = 0.8
"""Seconds between two squares of the reveal."""


def next_change(table: LitTable, now: float, ring_pixels: int) -> float | None:
    """At the end the stacks light one after another; otherwise only input changes the frame."""
    if table.state != TableState.over:
        return None
    shown = int((now - table.over_at) / REVEAL_S) + 1
    if shown >= len(table.position.stacks_scored()):
        return None
    return table.over_at + shown * REVEAL_S


def frame(table: LitTable, now: float, ring_pixels: int) -> Frame:
    """Every pixel of the board and the two rings for this moment."""
    pos = table.position

    def at(square) -> tuple[str, str, int]:
        return ("board", "", square[0] * table.board_cols + square[1])

    leds: Frame = {at(pos.square(i)): palette.OFF for i in range(table.cells)}
    outcome = pos.outcome() if table.state == TableState.over else None
    for p in PLAYERS:
        for k, rgb in enumerate(_ring(table, p, outcome, ring_pixels)):
            leds[("ring", p.value, k)] = rgb
    _light_wrong(table, leds, at)
    if outcome is not None:
        shown = int((now - table.over_at) / REVEAL_S) + 1
        for s in pos.stacks_scored()[:shown]:
            leds[at(s.square)] = (palette.PLAYERS[s.controller] if s.controller
                                  else palette.WARN)
    return leds


def _ring(table: LitTable, p: Player, outcome: Outcome | None,
          ring_pixels: int) -> list[palette.RGB]:
    """One player's ring: who won at the end, dim while paused, the mover's pieces left."""
    pos = table.position
    if outcome is not None:
        return [palette.GOOD if outcome.winner is p else palette.WARN
                if outcome.winner is None else palette.EXTRA] * ring_pixels
    if table.state == TableState.paused:
        return [palette.DIM] * ring_pixels
    if table.state != TableState.setup and pos.to_play is p:
        lit = -(-ring_pixels * pos.pieces_left(p) // pos.options.pieces_each)  # rounded up
        return [palette.PLAYERS[p]] * lit + [palette.OFF] * (ring_pixels - lit)
    return [palette.OFF] * ring_pixels


def _light_wrong(table: LitTable, leds: Frame,
                 at: Callable[[tuple[int, int]], tuple[str, str, int]]) -> None:
    """What is wrong on the board: in setup one square to fix, in a repair every change."""
    pos = table.position
    view = table.view
    if table.state == TableState.setup and table.wrong and view is not None:
        sq = table.wrong[0]  # one fix at a time
        i = pos.index(sq)
        short = view[i] < table.cal.zero[i] + table.cal.sizes[Size.LARGE.value - 1]
        leds[at(sq)] = palette.MISSING if short else palette.EXTRA
    elif table.state == TableState.repair and view is not None and table.accepted is not None:
        for sq in table.wrong:
            i = pos.index(sq)
            lighter = view[i] < table.accepted[i] - table.cal.tolerance
            leds[at(sq)] = palette.MISSING if lighter else palette.EXTRA
