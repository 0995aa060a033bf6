"""What the table shows on its LEDs, and what it tells the page of them.

``Lighting`` is a part of ``firmware.core.table.Table`` (its state is the
table's): the frame of every LED for this moment (the game's own picture, the
computer's asked move over it), and the ``lights`` event that puts the same
lights on the page, strip by strip in the LEDs' own colours. Each strip says
how the table lays it out: a ring as a ring; the board's and the rods' LEDs
each by the square (or rod) it lights (``light_places``), so the page draws
them as the board, whatever the physical strip's order; and, where a light
tells something a person must read off it (the size of the pyramid the
computer asks for, as a count of ring pixels), those words beside it.
"""

from __future__ import annotations

from engine.core import square_name
from firmware.core import palette
from firmware.core.table_parts import TableParts


class Lighting(TableParts):
    """The table's LEDs and the page's copy of them (a part of ``Table``)."""

    def led_frame(self, now: float, ring_pixels: int) -> dict:
        """The LEDs now: the game's own picture (``draw_leds``), and over it the computer's
        asked move or a hint when it plays a seat (drawn here once for every game)."""
        leds = self.draw_leds(now, ring_pixels)
        if self.solo is not None:
            self.solo.overlay(self, leds)
        return leds

    def tell_lights(self, frame: dict) -> None:
        """Tell the page what the LEDs show, strip by strip, in the LEDs' own colours: what
        the table says with light (a ring's count, a square to fix) is on the page too, laid
        out as on the table, with the words of what a light tells beside it."""
        strips = palette.strips(frame, self.light_cols)
        for strip in strips:
            places = self.light_places(strip["strip"], len(strip["colours"]))
            if places is not None:
                strip["places"] = places
            says = self.ring_words(strip["owner"]) if strip["strip"] == "ring" else ""
            if says:
                strip["says"] = says
        self.lights = self.event("lights", strips=strips)
        self.emit(self.lights)

    def light_cols(self, strip: str, count: int) -> int:
        """How many LEDs a row of ``strip`` holds, to lay it out as the table does (a board
        as wide as the game's; anything else in one row)."""
        if strip == "board":
            return self.board_shape()[1] or count
        return count

    def board_shape(self) -> tuple[int, int]:
        """The game's board, rows and columns, as its observation says (0, 0: none)."""
        seen = self.position.observation()
        size = int(seen.get("size") or 0)
        return int(seen.get("rows") or size), int(seen.get("cols") or size)

    def light_places(self, strip: str, count: int) -> list[str] | None:
        """The square (or rod) each LED of ``strip`` lights, by its index, for the page to
        draw it there ("": an LED beyond the game's board, a 3x3 game's on an 8x8 strip);
        None for a strip that lights no square (a ring, the zone pads). The board's LEDs
        run row by row, ``light_cols`` to a row, as every game's ``leds`` numbers them."""
        if strip != "board":
            return None
        rows, cols = self.board_shape()
        width = self.light_cols(strip, count)
        places = [""] * count
        for row in range(rows):
            for col in range(cols):
                if row * width + col < count:
                    places[row * width + col] = square_name((row, col))
        return places

    def ring_words(self, owner: str) -> str:
        """What seat ``owner``'s ring tells of the far seat's asked move (or of the person's
        hint), in words (``FarSeat.ring_words``); "" with no far seat."""
        return "" if self.solo is None else self.solo.ring_words(self, owner)
