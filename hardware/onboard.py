"""The gpio-only build: the scanner board's code on the Pi's own GPIO pins.

For small boards the switch matrix is wired straight to the Pi. Rather than
a second scanning implementation, the very scanner code of the reference
build runs here, on pins from gpiozero's pin factory (real pins on a Pi,
``MockFactory`` pins in tests), behind a pseudo-terminal like a USB board.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

from hardware.local_board import LocalBoard, load_code_py
from hardware.profile import BoardLayout

if TYPE_CHECKING:
    from gpiozero import Factory

# Pi GPIO numbers of the gpio-only build (hardware/README.md): up to 8 drive
# rows and 8 sense columns, clear of the buttons (17, 27, 22), the buzzer (23)
# and SPI0 (7-11, NeoPixels on GPIO10). Rows 7-8 and columns g-h use the I2C
# (2, 3) and UART (14, 15) pins: boards up to 6x6 leave those alone.
PINS = {
    "drive": ["GPIO4", "GPIO5", "GPIO6", "GPIO12", "GPIO13", "GPIO16", "GPIO2", "GPIO14"],
    "sense": ["GPIO19", "GPIO20", "GPIO21", "GPIO24", "GPIO25", "GPIO26", "GPIO3", "GPIO15"],
}


class _GpioPin:
    """digitalio.DigitalInOut, served by a gpiozero pin."""

    def __init__(self, factory: Factory, name: str) -> None:
        self._pin = factory.pin(name)

    @property
    def direction(self) -> str:
        return str(self._pin.function)

    @direction.setter
    def direction(self, value: str) -> None:
        self._pin.function = value

    @property
    def pull(self) -> str:
        return str(self._pin.pull)

    @pull.setter
    def pull(self, value: str) -> None:
        self._pin.pull = value

    @property
    def value(self) -> bool:
        return bool(self._pin.state)

    @value.setter
    def value(self, value: bool) -> None:
        self._pin.state = bool(value)


def gpio_modules(factory: Factory) -> tuple[SimpleNamespace, SimpleNamespace]:
    """``board`` and ``digitalio`` look-alikes over a gpiozero pin factory."""
    board = SimpleNamespace(**{name: name for group in PINS.values() for name in group})
    digitalio = SimpleNamespace(
        DigitalInOut=lambda name: _GpioPin(factory, name),
        Direction=SimpleNamespace(INPUT="input", OUTPUT="output"),
        Pull=SimpleNamespace(UP="up", DOWN="down"),
    )
    return board, digitalio


def onboard_scanner(factory: Factory, rows: int, cols: int,
                    link_dir: str | None = None) -> LocalBoard:
    """A LocalBoard running the scanner code on this Pi's pins for a rows x cols board."""
    code = load_code_py()
    layout: BoardLayout = {"towers": 0, "rods": 9, "levels": 9, "rows": rows, "cols": cols,
                           "loads": 0, "leds": 0}
    board, digitalio = gpio_modules(factory)
    return LocalBoard(lambda port: code.build(board, digitalio, None, port, layout, PINS),
                      link_dir)
