"""What the LEDs show over the game's picture: a board not seen, the PIN, diag's LED test.

Holding the menu button shows the table PIN on the rings (``PinShow``): one digit after
another, as a count of lit pixels (ten for a 0), on both rings at once, each after a dark
gap so that two equal digits read as two. ``obelisk diag`` through the running service
lights one LED alone (``LedTest``) for a moment after its last ask. A scanner board out of
sync a while (unplugged, silent) turns every other ring pixel to ``NO_BOARD``
(``UnseenBoard``). Each keeps its own
state; the loop lays them over the game's frame (the page is told the game's frame only,
never the PIN on the rings).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from firmware.core import palette
from firmware.service.pin import PinError, read_pin, table_pin

LIT_S = 1.5
"""How long each digit stays lit on the rings."""
DARK_S = 0.6
"""The dark gap before each digit, so that two equal digits read as two."""
UNSEEN_S = 1.0
"""Real seconds the board may be out of sync before the LEDs say it is not seen."""
NO_BOARD = palette.NO_BOARD
"""Every other ring pixel in this colour: the scanner board is not seen."""
LED_TEST_S = 2.0
"""Real seconds an LED lit by ``obelisk diag`` through the service stays lit after diag's
last ask: a diag that is killed leaves the game's picture back in a moment."""


def pixels_for(digit: str) -> int:
    """How many ring pixels show a digit: its value, ten for a 0."""
    return int(digit) or 10


def showing_s(pin: str) -> float:
    """How long the rings take to show the whole PIN."""
    return len(pin) * (DARK_S + LIT_S)


def pin_frame(pin: str, elapsed: float, rings: dict[str, int]) -> dict | None:
    """The rings' pixels ``elapsed`` seconds into showing ``pin`` (None once it is shown).

    ``rings`` maps each ring's owner to its pixel count; every ring shows the same digit.
    """
    if elapsed < 0 or elapsed >= showing_s(pin):
        return None
    step, into = divmod(elapsed, DARK_S + LIT_S)
    lit = pixels_for(pin[int(step)]) if into >= DARK_S else 0
    return {("ring", owner, i): palette.PIN if i < lit else palette.OFF
            for owner, count in rings.items() for i in range(count)}


def next_pin_change(pin: str, elapsed: float) -> float | None:
    """Seconds from ``elapsed`` until the PIN's picture changes (None: it is over)."""
    if elapsed >= showing_s(pin):
        return None
    into = max(elapsed, 0.0) % (DARK_S + LIT_S)
    return (DARK_S - into) if into < DARK_S else (DARK_S + LIT_S - into)


class PinShow:
    """The table PIN on the rings from a hold of the menu button, and the mark each hold
    changes (the page opens its PIN entry again when it sees the mark change)."""

    def __init__(self, rings: dict[str, int], directory: Path | None = None) -> None:
        self.rings = rings  # each ring's owner and its pixel count
        self.pin: str | None = None  # the table PIN the menu button's hold shows
        self.directory = directory  # where the PIN is kept: read again at each hold
        self._since: float | None = None  # real time the rings began showing it
        self._holds = 0  # holds that showed the PIN: each opens the page's PIN entry again
        self._boot = os.urandom(4).hex()  # (``secrets`` would cost start-up hmac's import)

    def load(self) -> str:
        """Read the table's PIN from its directory, made there first if it has none
        (``PinError`` when it cannot be read or kept: the table then plays from its buttons
        only). Done once the service is ready, not at its start."""
        if self.directory is None:
            raise PinError("this table keeps no PIN (no state directory)")
        self.pin = table_pin(self.directory)
        return self.pin

    def held(self) -> None:
        """The menu button was held: show the PIN (read again: ``obelisk pin --new`` may
        have made another)."""
        if self.pin is None:
            return
        if self.directory is not None:
            with contextlib.suppress(PinError):
                self.pin = read_pin(self.directory) or self.pin
        self._since = time.monotonic()
        self._holds += 1

    @property
    def mark(self) -> str:
        """Changes with each hold that shows the PIN (and each start of the service): the page
        opens PIN entry again, closed after many wrong PINs, when it sees this change."""
        return f"{self._boot}-{self._holds}"

    def wait(self, real: float) -> float | None:
        """Real seconds until the rings' picture of the PIN changes (None: not shown)."""
        if self._since is None or self.pin is None:
            return None
        change = next_pin_change(self.pin, real - self._since)
        return change if change is not None else 0.0

    def overlay(self, frame: dict) -> None:
        """While the PIN shows, the rings show its digits instead of the game."""
        if self._since is None or self.pin is None:
            return
        shown = pin_frame(self.pin, time.monotonic() - self._since, self.rings)
        if shown is None:  # shown: the game's picture again, every ring pixel of it
            self._since = None
            for owner, count in self.rings.items():
                for i in range(count):
                    frame.setdefault(("ring", owner, i), palette.OFF)
        else:
            frame.update(shown)


class LedTest:
    """One LED lit alone by ``obelisk diag`` through the service, over the game's picture,
    until ``LED_TEST_S`` after diag's last ask."""

    def __init__(self, leds: Any) -> None:
        self._leds = leds  # the table's LEDs (``hardware.leds``): their keys and chains
        self._lit: tuple[tuple, float] | None = None  # (the LED lit, real deadline)

    @property
    def lit(self) -> tuple | None:
        """The LED lit now, or None when no test runs."""
        return None if self._lit is None else self._lit[0]

    def light(self, led: int | None) -> dict | None:
        """Light the table's LED of that number (counted round) for ``LED_TEST_S``; None
        ends the test at once. Which LED is lit, and where it sits on its chain."""
        keys = list(self._leds.keys())
        if led is None or not keys:
            self._lit = None
            return None
        key = keys[led % len(keys)]
        self._lit = (key, time.monotonic() + LED_TEST_S)
        chain, pixel = self._leds.locate(key)
        return {"led": list(key), "chain": chain, "pixel": pixel}

    def wait(self, real: float) -> float | None:
        """Real seconds until the test ends by itself (None: none runs)."""
        return None if self._lit is None else max(0.0, self._lit[1] - real)

    def overlay(self, frame: dict) -> None:
        """While diag tests the LEDs, one is lit and every other is dark; after it, every LED
        is drawn again from the game's picture."""
        if self._lit is None:
            return
        key, until = self._lit
        dark = dict.fromkeys(self._leds.keys(), palette.OFF)
        if time.monotonic() >= until:
            self._lit = None
            for other, colour in dark.items():
                frame.setdefault(other, colour)
            return
        frame.clear()
        frame.update(dark)
        frame[key] = palette.LED_TEST


class UnseenBoard:
    """The rings say the scanner board is not seen once it has been out of sync a while.

    Real seconds, not the table's clock: a demo's fast clock would make a moment's resync
    look like a lost board.
    """

    def __init__(self) -> None:
        self._since: float | None = None  # real time the board was last seen going
        self.shown = False  # the rings say the board is not seen

    def check(self, synced: bool) -> bool:
        """Whether the board has been out of sync a while (unplugged, silent, another
        protocol), from the link's ``synced`` now."""
        if synced:
            self._since, self.shown = None, False
            return False
        real = time.monotonic()
        if self._since is None:
            self._since = real
        self.shown = real - self._since >= UNSEEN_S
        return self.shown

    def wait(self, real: float) -> float | None:
        """Real seconds until the rings should say the board is not seen (None: not due)."""
        if self._since is None or self.shown:
            return None
        return max(0.0, self._since + UNSEEN_S - real)

    @staticmethod
    def overlay(frame: dict) -> None:
        """Every other ring pixel ``NO_BOARD``, the rest dark."""
        for key in frame:
            if key[0] == "ring":
                frame[key] = NO_BOARD if key[2] % 2 == 0 else (0, 0, 0)
