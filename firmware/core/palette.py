"""Every colour the table's LEDs show, in one place.

The same meaning has the same colour in every game: green for what was
accepted, red for what must come off, blue for what is missing, white for
the candidate a button would pick. Players keep their colours everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.players import Player

RGB = tuple[int, int, int]
Frame = dict[tuple[str, str, int], RGB]
"""Every LED lit now, by (strip, owner, index): ``("ring", "A", 3)``, ``("board", "", 12)``
(a game's ``leds.frame``); an LED left out is dark."""

OFF: RGB = (0, 0, 0)
PLAYERS: dict[Player, RGB] = {Player.A: (0, 90, 255), Player.B: (255, 60, 160)}
GOOD: RGB = (0, 200, 0)  # accepted; the winner's ring
EXTRA: RGB = (255, 0, 0)  # must come off; a loser's ring
MISSING: RGB = (0, 0, 255)  # must be put back
PICK: RGB = (255, 255, 255)  # the candidate a hold would choose
CANDIDATE: RGB = (0, 0, 200)  # another candidate, or where a lifted piece may go
WARN: RGB = (255, 120, 0)  # a draw; a warning (a capstone that must come off)
FACED: RGB = (255, 200, 0)  # the squares a maze wall shuts off, while its facing is chosen
DIM: RGB = (20, 20, 20)  # paused
OPTION: RGB = (60, 60, 60)  # an option shown before a game
SAND: RGB = (255, 170, 40)  # the hourglass running
LAST_SAND: RGB = (255, 30, 0)  # the hourglass's last seconds
NO_BOARD: RGB = (120, 60, 0)  # every other ring pixel: the scanner board is not seen
PIN: RGB = (255, 255, 255)  # the table PIN, one digit at a time, as counts of lit pixels
ASK: RGB = (160, 0, 255)  # the computer's move (solo): where its piece goes
ASK_FROM: RGB = (40, 0, 70)  # the computer's move: where its piece comes from
HINT: RGB = (0, 220, 170)  # a hint: where the person's piece would go
LED_TEST: RGB = (40, 40, 40)  # obelisk diag's LED test: one LED at a time, dim white
HINT_FROM: RGB = (0, 60, 45)  # a hint: where it would come from
BLOCKS: dict[str, RGB] = {"black": (40, 40, 40), "yellow": (255, 200, 0),
                          "red": (255, 0, 0), "green": (120, 255, 0), "blue": (0, 0, 255)}
"""A towers block's colour on its zone pad, by the colour's name (solo: the wanted block)."""


def stacked(base: RGB, bottom: int, top: int) -> RGB:
    """A rod under a block the computer asks for (or a hint): ``base`` where the block has
    one cube at its lowest level, paler for each cube more it stacks on that rod, dimmer
    where its cubes there hang a level (or two) above its lowest: so the rods show the
    block's orientation, not only where it goes. ``bottom`` and ``top`` are the block's
    levels on the rod, counted from its lowest (0), ``top`` past its last cube."""
    pale = 0.3 * max(0, min(top - bottom, 3) - 1)
    dim = (1.0, 0.55, 0.33)[max(0, min(bottom, 2))]
    return tuple(round((c + (255 - c) * pale) * dim) for c in base)  # type: ignore[return-value]


def strips(frame: Frame, cols: Callable[[str, int], int]) -> list[dict[str, Any]]:
    """A frame of LEDs as a page draws it: strip by strip (a ring, the board, a tower), each
    LED's colour as ``#rrggbb`` by its index, with how many make a row (``cols``)."""
    lit: dict[tuple[str, str], dict[int, str]] = {}
    for (strip, owner, index), (r, g, b) in frame.items():
        lit.setdefault((strip, owner), {})[index] = f"#{r:02x}{g:02x}{b:02x}"
    told = []
    for (strip, owner), colours in sorted(lit.items()):
        count = max(colours) + 1
        told.append({"strip": strip, "owner": owner, "cols": cols(strip, count),
                     "colours": [colours.get(i, "#000000") for i in range(count)]})
    return told
