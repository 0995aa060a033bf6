"""Stones played alone: the computer's stone lights where it stands and where it goes.

The shared part is ``firmware/seats/solo.py``; this says how a stones move is lit
(its square dim, its destination bright, in the computer's asking colour or
the hint's), read and made by the demo's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import square_name
from engine.players import Player
from engine.stones.game import Move
from engine.stones.sensing import sight, sight_after, stack_heights
from firmware.core.events import Mark
from firmware.seats.solo import (
    ASKED,
    Pixel,
    asks,
    hands_free,
    lit,
    notation,
    pixels_of,
    same,
    searched,
    shade,
    together,
)

if TYPE_CHECKING:
    from engine.stones.game import StonesState
    from firmware.core.palette import Frame
    from firmware.stones.demo import StonesPlayers
    from firmware.stones.table import StonesTable

__all__ = ["again", "asks", "differs", "hand", "hands_free", "lights", "notation", "read", "same",
           "searched", "shown", "together", "where", "words"]


def words(pos: StonesState, actions: tuple) -> str:
    """The move as the table says moves (``cornerstone a1 to a2``)."""
    return "; ".join(pos.move_to_string(m) for m in actions)


def differs(pos: StonesState, asked: tuple, made: Move, by: str = "the computer") -> str:
    """The move made, in the player's words, and how to put it right (the turn line says
    the move asked: not again here)."""
    return (f"{by} asked for another move, not {pos.move_to_string(made)}: put the stone "
            "back and move the lit one")


def where(pos: StonesState, actions: tuple) -> list[Mark]:
    """The squares: where the stone stands, where it goes."""
    return [mark for m in actions for mark in (Mark.on_square(square_name(m.frm), "from"),
                                                Mark.on_square(square_name(m.to), "to"))]


def lights(table: StonesTable, leds: Frame, actions: tuple, seat: Player, *, asked: bool) -> None:
    """The stone's square dim, its destination bright."""
    to, frm = shade(asked)
    cols = table.board_cols
    for move in actions:
        leds[("board", "", move.frm[0] * cols + move.frm[1])] = frm
        leds[("board", "", move.to[0] * cols + move.to[1])] = to


def read(pixel: Pixel, pos: StonesState, cols: int | None = None) -> tuple:
    """The computer's move as the board's lights show it: the square lit dim (where the
    stone stands) and the one lit bright (where it goes), if the rules allow that move
    (``cols``: the physical board's width, by default the game's)."""
    rows, cols = pos.options.rows, cols or pos.options.cols
    seen = lit(pixel, "board", "", rows * cols, ASKED)
    frm = [divmod(i, cols) for i, name in seen.items() if name == "from"]
    to = [divmod(i, cols) for i, name in seen.items() if name == "to"]
    if len(frm) != 1 or len(to) != 1:
        return ()
    move = Move(frm[0], to[0])
    return (move,) if move in pos.legal_actions() else ()


def shown(players: StonesPlayers, table: StonesTable) -> tuple:
    """The demo's hands read the computer's move off the simulated board's LEDs."""
    return read(pixels_of(players.devices.leds), table.position, table.board_cols)


def hand(players: StonesPlayers, table: StonesTable, actions: tuple) -> None:
    """The demo's hand makes the computer's move; one no switch sees is its button's."""
    pos = table.position
    move = actions[0]
    levels = players.levels
    if sight_after(pos, move, levels) == sight(pos, levels):
        players.devices.buttons.press(pos.to_play.value)
    else:
        players.show(stack_heights(pos.apply_action(move)))


def again(players: StonesPlayers, table: StonesTable, actions: tuple) -> None:
    """The demo's hand, its move made and not taken yet: one no switch sees is said again
    with the button."""
    pos = table.position
    if sight_after(pos, actions[0], players.levels) == sight(pos, players.levels):
        players.devices.buttons.press(pos.to_play.value)
