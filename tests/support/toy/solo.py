"""The computer's noughts: the square it asks for lit in the asking colour (or the hint's).

The rest (when it asks, how a made move is checked, the words of a refusal)
is the shared part in ``firmware/seats/solo.py``; the search is the generic one,
since this game declares no tuning.
"""

from __future__ import annotations

from typing import Any

from engine.core import square_name
from engine.players import Player
from firmware.core.events import Mark
from firmware.seats.solo import (
    ASKED,
    Pixel,
    asks,
    differs,
    hands_free,
    lit,
    notation,
    pixels_of,
    same,
    searched,
    shade,
    together,
)
from tests.support.toy.game import SIZE

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "notation", "read", "same",
           "searched", "shown", "together", "where", "words"]


def words(pos: Any, actions: tuple) -> str:
    """The asked square in a player's words (``a stone on b2``)."""
    return "; ".join(f"a stone on {square_name(square)}" for square in actions)


def where(pos: Any, actions: tuple) -> list[Mark]:
    return [Mark.on_square(square_name(square), "to") for square in actions]


def lights(table: Any, leds: dict, actions: tuple, seat: Player, *, asked: bool) -> None:
    """The asked square, bright."""
    to, _ = shade(asked)
    for row, col in actions:
        leds[("board", "", row * SIZE + col)] = to


def read(pixel: Pixel, pos: Any) -> tuple:
    """The computer's square as the board's lights show it, if the rules allow it."""
    seen = [divmod(i, SIZE) for i in lit(pixel, "board", "", SIZE * SIZE, {"to": ASKED["to"]})]
    return (seen[0],) if len(seen) == 1 and seen[0] in pos.legal_actions() else ()


def shown(players: Any, table: Any) -> tuple:
    """The demo's hands read the computer's square off the simulated board's LEDs."""
    return read(pixels_of(players.devices.leds), table.position)


def hand(players: Any, table: Any, actions: tuple) -> None:
    """The demo's hand puts the computer's stone where it is lit."""
    players.sim.put(actions[0], 1)
