"""High Rise played alone: the computer's pyramid lights its square, its ring its size.

The computer searches without the hidden values (``engine.search`` samples
them). Its own pyramid's size is shown, since the person puts it down for
it; the person's sizes stay where they always are, out of every event.
"""

from __future__ import annotations

from typing import Any

from engine.core import square_name
from engine.players import Player
from firmware.solo import asks, differs, hands_free, same, searched, shade, together
from hardware.sim import PYRAMID_GRAMS

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "same", "searched", "together",
           "where", "words"]


def words(pos: Any, actions: tuple) -> str:
    return "; ".join(f"put a {p.size.label} pyramid on {square_name(p.square)}"
                     for p in actions)


def where(pos: Any, actions: tuple) -> list[str]:
    return [square_name(p.square) for p in actions]


def lights(table: Any, leds: dict, actions: tuple, seat: Player, *, asked: bool) -> None:
    """The square in the asking colour; the seat's ring lit a third for each size step
    (small: a third, medium: two, large: all)."""
    to, _ = shade(asked)
    place = actions[0]
    leds[("board", "", place.square[0] * table.board_cols + place.square[1])] = to
    ring = sorted(k for k in leds if k[0] == "ring" and k[1] == seat.value)
    lit = -(-len(ring) * place.size.value // 3)
    for i, key in enumerate(ring):
        leds[key] = to if i < lit else (0, 0, 0)


def hand(players: Any, table: Any, actions: tuple) -> None:
    """The demo's hand puts the asked pyramid on its square."""
    pos = table.position
    place = actions[0]
    grams = players._grams(pos)
    grams[pos.index(place.square)] += PYRAMID_GRAMS[place.size.value]
    players._show(grams)
