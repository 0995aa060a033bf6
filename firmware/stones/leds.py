"""The stones table's LEDs: a pure function of the table's state and the time.

The board lights one square to fix at a time (red: a stone too many, blue:
one missing), where a lifted stone may go, the candidates to pick from, and
the last move. Each player's ring shows whose move it is (orange when a
capstone must come off) and the mover's symmetries on its first two pixels;
at the end, who won.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine.players import PLAYERS, Player
from engine.stones.game import StonesState
from engine.stones.sensing import destinations
from firmware.core import palette
from firmware.core.lit import LitChoosing
from firmware.core.palette import Frame
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from engine.stones.game import Move, Square
    from engine.stones.sensing import BoardView


class LitTable(LitChoosing[StonesState], Protocol):
    """What the LEDs read of a stones table: its ``StonesTable``, which imports this module
    (so it is not named here); mypy checks that the table answers this."""

    @property
    def view(self) -> BoardView | None: ...
    @property
    def actions(self) -> Sequence[Move]: ...
    @property
    def board_cols(self) -> int: ...
    @property
    def lifted(self) -> Square | None: ...
    def differences(self, view: BoardView) -> tuple[Square, ...]: ...
    def sight(self, state: StonesState) -> BoardView: ...


def frame(table: LitTable, now: float, ring_pixels: int) -> Frame:
    """Every pixel of the board and the two rings for this moment."""
    pos = table.position
    cols = table.board_cols  # the physical board's width: its pixels run row by row

    def at(square) -> tuple[str, str, int]:
        return ("board", "", square[0] * cols + square[1])

    leds: Frame = {at((r, c)): palette.OFF for r in range(pos.options.rows)
                   for c in range(pos.options.cols)}
    for p in PLAYERS:
        for i, rgb in enumerate(_ring(table, p, ring_pixels)):
            leds[("ring", p.value, i)] = rgb
    if table.view is not None and table.state in (TableState.setup, TableState.repair):
        for square in table.differences(table.view):
            extra = dict(table.view.heights).get(square, 0) > dict(
                table.sight(pos).heights).get(square, 0)
            leds[at(square)] = palette.EXTRA if extra else palette.MISSING
    if table.lifted is not None:
        for square in destinations(pos, table.lifted):
            leds[at(square)] = palette.CANDIDATE
    for i, (move,) in enumerate(table.candidates):
        leds[at(move.to)] = palette.PICK if i == table.pick else palette.CANDIDATE
    if table.actions and table.state == TableState.play and not table.candidates:
        leds[at(table.actions[-1].to)] = palette.GOOD
    return leds


def _ring(table: LitTable, p: Player, ring_pixels: int) -> list[palette.RGB]:
    """One player's ring: who won at the end, dim while paused, and for the mover whose
    move it is (orange: a capstone must come off), its symmetries on the first two pixels."""
    pos = table.position
    ring = [palette.OFF] * ring_pixels
    if table.state == TableState.over:
        winner = table.final_outcome().winner
        ring = [palette.GOOD if winner is p else palette.WARN if winner is None
                else palette.EXTRA] * ring_pixels
    elif table.state == TableState.paused:
        ring = [palette.DIM] * ring_pixels
    elif pos.to_play is p and table.state != TableState.setup:
        colour = palette.WARN if pos.pillar_of(p) is not None else palette.PLAYERS[p]
        ring = [colour] * ring_pixels
        if ring_pixels >= 2:  # the mover's symmetry as it stands
            colour_sym, shape_sym = pos.symmetry(p)
            ring[0] = palette.GOOD if colour_sym else palette.OFF
            ring[1] = palette.GOOD if shape_sym else palette.OFF
    return ring
