"""``obelisk diag`` through the running service: the service's devices as it sees them.

While the service runs it holds the LEDs (on a Pi 5 the LED pin cannot be opened twice),
the scanner's port and the buttons' pins, so ``obelisk diag`` asks it (the ``diag``
command) instead of opening them: the answer is diag's screen of the service's devices,
and the one LED the service lit for the test.
"""

from __future__ import annotations

from firmware.service.overlays import LedTest
from hardware.devices import TableDevices


def diag_answer(devices: TableDevices, led_test: LedTest, led: int | None) -> dict:
    """``led``: light the table's LED of that number (counted round) alone for a moment,
    over the game's picture; None ends the test at once. The answer has the diag screen of
    the devices as this service sees them, and which LED is lit."""
    from hardware.readout import render  # diag's own screen, of the service's devices

    lit = led_test.light(led)
    return {"screen": render(devices), "leds": len(list(devices.leds.keys())), "lit": lit,
            "synced": devices.link.synced}
