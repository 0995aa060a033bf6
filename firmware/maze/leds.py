"""The maze table's LEDs: a pure function of the table's state and the time.

The board lights what is wrong (red), where a lifted obelisk may go, and
the candidates to pick from: a wall one orientation at a time (its square
white, the squares it shuts off red), a claim white or blue. The
Architect's ring counts the turns left, green while ``plan`` says every
segment can still be gathered in time and red once not; the Maze Master's
ring counts the walls left. The last pixel of the ring of whoever acts is
their colour; at the end the winner's ring is green, the loser's red.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.maze.actions import Move, PlaceWall
from engine.maze.board import SIZE, queen_moves
from engine.maze.game import MazeState, Role
from firmware.core import palette
from firmware.core.lit import LitChoosing
from firmware.core.palette import Frame
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from engine.maze.actions import Square
    from engine.maze.plan import Plan


class LitTable(LitChoosing[MazeState], Protocol):
    """What the LEDs read of a maze table: its ``MazeTable``, which imports this module
    (so it is not named here); mypy checks that the table answers this."""

    @property
    def plan(self) -> Plan: ...
    @property
    def lifted(self) -> Square | None: ...
    @property
    def wrong(self) -> tuple[Square, ...]: ...


def _at(square: tuple[int, int]) -> tuple[str, str, int]:
    return ("board", "", square[0] * SIZE + square[1])


def _ring(table: LitTable, role: Role, ring_pixels: int) -> list[palette.RGB]:
    pos = table.position
    player = role.player
    if table.state == TableState.over:
        won = table.final_outcome().winner is player
        return [palette.GOOD if won else palette.EXTRA] * ring_pixels
    if table.state == TableState.paused:
        return [palette.DIM] * ring_pixels
    if role is Role.ARCHITECT:
        left, full = pos.turns_left, pos.options.turns
        playing = pos.phase.value in ("wall", "move")
        colour = (palette.PLAYERS[player] if not playing
                  else palette.GOOD if table.plan.enough else palette.EXTRA)
    else:
        left, full = pos.walls_left, pos.options.walls
        colour = palette.PLAYERS[player]
    lit = -(-ring_pixels * left // full) if left and full else 0
    ring = [colour] * lit + [palette.OFF] * (ring_pixels - lit)
    if table.state != TableState.setup and pos.to_play is role and ring_pixels:
        ring[-1] = palette.PLAYERS[player]  # the last pixel: whose turn it is
    return ring


def frame(table: LitTable, now: float, ring_pixels: int) -> Frame:
    """Every pixel of the board and the two rings for this moment."""
    pos = table.position
    leds: Frame = {("board", "", i): palette.OFF for i in range(SIZE * SIZE)}
    for role in Role:
        for i, rgb in enumerate(_ring(table, role, ring_pixels)):
            leds[("ring", role.player.value, i)] = rgb
    if table.lifted is not None and table.state in (TableState.play, TableState.choose):
        for square in queen_moves(pos.cut, table.lifted):
            leds[_at(square)] = palette.CANDIDATE
    _light_candidates(table, leds)
    if table.state in (TableState.setup, TableState.repair):
        for square in table.wrong:
            leds[_at(square)] = palette.EXTRA
    return leds


def _light_candidates(table: LitTable, leds: Frame) -> None:
    """The candidates to pick from: a claim white (picked) or blue, and only the picked
    wall, its square white and the squares it shuts off yellow (red would say they must
    be cleared)."""
    for i, (action,) in enumerate(table.candidates):
        picked = i == table.pick
        if isinstance(action, PlaceWall):
            if not picked:
                continue  # one orientation at a time: the wall and the sides it blocks
            _light_wall(action, leds)
        elif isinstance(action, Move):
            leds[_at(action.to)] = palette.PICK if picked else palette.CANDIDATE


def _light_wall(wall: PlaceWall, leds: Frame) -> None:
    """A wall's square, and each square on the board it shuts off."""
    r, c = wall.square
    leds[_at(wall.square)] = palette.PICK
    for side in wall.orientation.sides:
        n = (r + side.value[0], c + side.value[1])
        if 0 <= n[0] < SIZE and 0 <= n[1] < SIZE:
            leds[_at(n)] = palette.FACED
