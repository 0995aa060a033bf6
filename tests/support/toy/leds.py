"""The toy game's LEDs: the last mark in green, a square to fix in red or blue."""

from __future__ import annotations

from engine.players import PLAYERS
from firmware.core import palette


def frame(table, now: float, ring_pixels: int) -> dict:
    leds = {("board", "", i): palette.OFF for i in range(9)}
    for square in table.wrong:
        extra = table.view is not None and square in table.view.squares
        leds[("board", "", square[0] * 3 + square[1])] = palette.EXTRA if extra else palette.MISSING
    if table.actions and table.state == "play":
        r, c = table.actions[-1]
        leds[("board", "", r * 3 + c)] = palette.GOOD
    for p in PLAYERS:
        colour = palette.PLAYERS[p] if table.position.current_player() is p else palette.OFF
        for i in range(ring_pixels):
            leds[("ring", p.value, i)] = colour
    return leds
