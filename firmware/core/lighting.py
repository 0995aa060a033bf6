"""What the table shows on its LEDs, and what it tells the page of them.

The frame of every LED for this moment is the game's own picture (its ``leds.frame``) with
the far seat's asked move (or a hint) over it. The ``lights`` event puts the same lights on
the page, strip by strip in the LEDs' own colours. Each strip says how the table lays it
out: a ring as a ring; the board's and the rods' LEDs each by the square (or rod) it lights
(the table's ``light_places``), so the page draws them as the board, whatever the physical
strip's order; and, where a light tells something a person must read off it (the size of
the pyramid the computer asks for, as a count of ring pixels), those words beside it.
``Lighting`` keeps what it told last, for a reader that joins later; one of the table's
collaborators (``firmware.core.table.Table``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from engine.core import S
from firmware.core import palette
from firmware.core.hooks import V

if TYPE_CHECKING:
    from firmware.core.hooks import CoreTable
    from firmware.core.palette import Frame


class Lighting(Generic[V, S]):
    """The table's LED frames, and the page's copy of them as last told."""

    def __init__(self, table: CoreTable[V, S]) -> None:
        self._table = table
        self.told: dict[str, Any] | None = None  # the last ``lights`` event

    def frame(self, now: float, ring_pixels: int) -> Frame:
        """The LEDs now: the game's own picture, and over it the far seat's asked move or
        a hint (drawn here once for every game)."""
        table = self._table
        leds = table.draw_leds(now, ring_pixels)
        if table.solo is not None:
            table.solo.overlay(table, leds)
        return leds

    def tell(self, frame: Frame) -> None:
        """Tell the page what the LEDs show, strip by strip, in the LEDs' own colours: what
        the table says with light (a ring's count, a square to fix) is on the page too, laid
        out as on the table, with the words of what a light tells beside it."""
        table = self._table
        strips = palette.strips(frame, table.light_cols)
        for strip in strips:
            places = table.light_places(strip["strip"], len(strip["colours"]))
            if places is not None:
                strip["places"] = places
            if strip["strip"] == "ring" and table.solo is not None:
                says = table.solo.ring_words(table, strip["owner"])
                piece = table.solo.ring_piece(table, strip["owner"])
                if says:
                    strip["says"] = says
                if piece:
                    strip["piece"] = piece
        self.told = table.event("lights", strips=strips)
        table.emit(self.told)
