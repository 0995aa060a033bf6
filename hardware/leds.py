"""The table's LEDs: logical parts mapped onto physical NeoPixel chains.

The firmware speaks of parts (``ring A`` pixel 3, ``tower B`` rod 4,
``board`` square 12, ``zone`` pixel 0); the profile says which chain carries
each part and in what order. Every chain is an ``adafruit_pixelbuf.PixelBuf``:
a real NeoPixel strip on the Pi (imported only there), a strip on the
scanner board fed with LED frames over the link, or a recording twin.
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

import adafruit_pixelbuf

from hardware.pi_models import PiModel, PiModelError, this_pi
from hardware.profile import LedChain, Profile
from hardware.scanner import obelisk_proto as proto
from hardware.trouble import Missing

if TYPE_CHECKING:  # circuitpython-stubs' name for a pixel read back: (r, g, b) and maybe a 4th
    from adafruit_pixelbuf import PixelReturnType

Colour = tuple[int, int, int]
LedKey = tuple[str, str, int]
"""(part, owner, index): ("ring", "A", 3), ("board", "", 12), ("zone", "", 0)."""
Send = Callable[[int, bytes], bool]
"""The scanner link's ``send(kind, body)``: False when the board is not connected."""

log = logging.getLogger(__name__)
_PIXELS_PER_FRAME = 300  # keeps an LED frame under the protocol's payload limit


class LedError(RuntimeError):
    """LEDs that cannot be driven here, with what to do about it."""


class Pixels(Protocol):
    """A NeoPixel chain as the table drives it: a strip on the Pi's own pin (Adafruit's
    ``neopixel``, ``neopixel_spi``), ``ScannerPixels`` or ``RecordingPixels``; every one an
    ``adafruit_pixelbuf.PixelBuf``."""

    brightness: float

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> PixelReturnType: ...

    def __setitem__(self, index: int, colour: Colour, /) -> None: ...

    def fill(self, colour: Colour, /) -> None: ...

    def show(self) -> None: ...


class _PixelBuf(adafruit_pixelbuf.PixelBuf):
    """The pure-Python ``PixelBuf`` this module's own chains are made of."""

    if TYPE_CHECKING:  # it has len(); circuitpython-stubs, which describe the board's, omit it
        def __len__(self) -> int: ...


class ScannerPixels(_PixelBuf):
    """A NeoPixel chain on the scanner board: ``show()`` sends LED frames."""

    def __init__(self, n: int, send: Send, *, brightness: float = 1.0) -> None:
        super().__init__(n, byteorder="RGB", brightness=brightness, auto_write=False)
        self._send = send  # the link's send(kind, body)

    def _transmit(self, buffer: bytearray) -> None:
        rgb = bytes(buffer)
        for start in range(0, len(self), _PIXELS_PER_FRAME):
            chunk = rgb[3 * start:3 * (start + _PIXELS_PER_FRAME)]
            self._send(proto.LED_FRAME, proto.pack_leds(start, chunk))


def _pi_pixels(chain: LedChain, n: int, brightness: float, model: PiModel | None) -> Pixels:
    """A NeoPixel chain on the Pi's own pin, through the driver this model needs
    (``hardware.pi_models``), lit dark once: a device that is not there fails here, at
    start, not in the middle of a game."""
    if model is None:
        raise LedError(f"LED chain on {chain.pin} needs a Raspberry Pi (this machine is "
                       "not one); run this profile on the table's Pi, or use the sim profile "
                       "here")
    if chain.pin not in model.led_pins:
        raise LedError(f"a {model.model} drives NeoPixels only from "
                       f"{' or '.join(model.led_pins)} (the profile says pin = "
                       f"{chain.pin!r}): move the data wire to GPIO10 (pin 19) and set "
                       'pin = "D10" in the profile')
    # Blinka offers to pip-install missing backends when a terminal is attached: never at
    # run time. setup.sh installs what this model needs.
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    strip: Pixels  # neither driver package has types (pyproject.toml, [tool.mypy])
    try:
        import board  # only a Raspberry Pi has these

        if model.led_driver == "pio":
            import neopixel

            strip = neopixel.NeoPixel(getattr(board, chain.pin), n, brightness=brightness,
                                      auto_write=False, pixel_order=neopixel.GRB)
        else:
            import neopixel_spi

            strip = neopixel_spi.NeoPixel_SPI(board.SPI(), n, brightness=brightness,
                                              auto_write=False, pixel_order=neopixel_spi.GRB)
        strip.fill((0, 0, 0))
        strip.show()
    except Exception as exc:  # ImportError, OSError, Blinka's RuntimeError: all say "no LEDs"
        raise LedError(led_trouble(model, chain.pin, exc)) from None
    return strip


def led_trouble(model: PiModel, pin: str, exc: BaseException) -> str:
    """Why the LEDs on ``pin`` cannot start on this Pi, and the one thing to do about it."""
    reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    what = f"the LEDs on {pin} cannot start ({reason})"
    if isinstance(exc, ImportError):
        return (f"{what}: the NeoPixel driver for a {model.model} is not installed; run "
                "./setup.sh on this Pi")
    if getattr(exc, "errno", None) == errno.EBUSY or "busy" in str(exc).lower():
        return (f"{what}: the LED pin is in use, most likely by the table service, which "
                "`obelisk diag` asks when it can reach its command socket (give it the "
                "service's --state-dir); else stop the service first (sudo systemctl stop "
                "obelisk) and start it again after (sudo systemctl start obelisk)")
    for device in model.led_devices:
        if not os.path.exists(device):
            if model.led_driver == "pio":
                return (f"{what}: {device} is missing, so this Pi's kernel has no PIO driver "
                        "yet; update it (sudo apt update && sudo apt full-upgrade) and reboot")
            return (f"{what}: {device} is missing, so SPI is off; setup.sh turns it on in "
                    "config.txt (dtparam=spi=on): reboot the Pi once (sudo reboot)")
        if not os.access(device, os.R_OK | os.W_OK):
            group = "gpio" if model.led_driver == "pio" else "spi"
            return (f"{what}: no permission to use {device}; setup.sh adds you to the {group} "
                    "group: log out and in again (or reboot), and if it still fails run "
                    f"./setup.sh again")
    return f"{what}: check the wiring and run `obelisk diag`"


class Leds:
    """Every LED of the table by logical name, whatever chain it sits on."""

    def __init__(self, profile: Profile, *, send: Send | None = None, tolerant: bool = False,
                 model: PiModel | str | None = "this Pi") -> None:
        """``send`` is the scanner link's ``send``, needed by ``scanner`` chains.

        ``tolerant``: a chain on the Pi's pins that cannot start (a table not wired up
        yet) is kept dark instead, and ``missing`` says why; so is one that fails later.
        ``model``: the Pi the chains are on (read from the device tree by default).
        """
        self.chains: list[Pixels] = []
        self.missing: list[Missing] = []
        self._tolerant = tolerant
        self._dirty: set[int] = set()  # chains changed since the last show()
        self._where: dict[tuple[str, str], tuple[int, int, int]] = {}
        self._model = model
        for number, chain in enumerate(profile.chains):
            offset = 0
            for kind, owner, count in chain.parts:
                self._where[(kind, owner)] = (number, offset, count)
                offset += count
            self.chains.append(self._chain(chain, offset, profile.brightness, send))

    def _pi_model(self) -> PiModel | None:
        if isinstance(self._model, str):
            try:
                self._model = this_pi()
            except PiModelError as exc:
                raise LedError(str(exc)) from None
        return self._model

    def _chain(self, chain: LedChain, n: int, brightness: float,
               send: Send | None) -> Pixels:
        if chain.output == "pi":
            try:
                return _pi_pixels(chain, n, brightness, self._pi_model())
            except LedError as exc:
                if not self._tolerant:
                    raise
                self._lost(str(exc))
                return RecordingPixels(n, brightness=brightness)
        if chain.output == "scanner":
            if send is None:
                raise LedError("a scanner LED chain needs the scanner link to send frames on")
            return ScannerPixels(n, send, brightness=brightness)
        return RecordingPixels(n, brightness=brightness)

    def _lost(self, words: str) -> None:
        log.warning("LEDs: %s", words)
        self.missing.append(Missing("LEDs", words))

    def parts(self) -> list[tuple[str, str, int]]:
        """(part, owner, pixel count) for every part the table has."""
        return [(kind, owner, count) for (kind, owner), (_, _, count) in self._where.items()]

    def keys(self) -> Iterator[LedKey]:
        for kind, owner, count in self.parts():
            for i in range(count):
                yield (kind, owner, i)

    def locate(self, key: LedKey) -> tuple[int, int]:
        """(chain number, pixel on that chain) of a logical LED."""
        kind, owner, index = key
        try:
            chain, offset, count = self._where[(kind, owner)]
        except KeyError:
            raise KeyError(f"this table has no LED part {f'{kind} {owner}'.strip()!r}") from None
        if not 0 <= index < count:
            raise IndexError(f"{kind} {owner} has pixels 0 to {count - 1}, not {index}")
        return chain, offset + index

    def __setitem__(self, key: LedKey, colour: Colour) -> None:
        chain, pixel = self.locate(key)
        self.chains[chain][pixel] = colour
        self._dirty.add(chain)

    def __getitem__(self, key: LedKey) -> Colour:
        chain, pixel = self.locate(key)
        red, green, blue = self.chains[chain][pixel][:3]
        return (red, green, blue)

    def fill(self, colour: Colour) -> None:
        for chain in self.chains:
            chain.fill(colour)
        self._dirty.update(range(len(self.chains)))

    def show(self) -> None:
        """Send the chains that changed since the last show."""
        for number in sorted(self._dirty):
            try:
                self.chains[number].show()
            except Exception as exc:  # a Pi chain whose device went away mid-game
                if not self._tolerant:
                    raise LedError(f"the LED chain {number + 1} stopped ({exc})") from None
                self._fail(number, exc)
        self._dirty.clear()

    def _fail(self, number: int, exc: Exception) -> None:
        """A chain that failed to show: dark from now on (the game goes on), and said."""
        old = self.chains[number]
        self.chains[number] = RecordingPixels(len(old), brightness=old.brightness)
        model = self._pi_model()
        words = (led_trouble(model, "the Pi", exc) if model is not None
                 else f"the LED chain {number + 1} stopped ({type(exc).__name__}: {exc})")
        self._lost(words)


class RecordingPixels(_PixelBuf):
    """A NeoPixel strip that keeps every frame it was asked to show."""

    def __init__(self, n: int, *, brightness: float = 1.0, auto_write: bool = False,
                 pixel_order: str = "GRB", keep: int = 1000) -> None:
        super().__init__(n, byteorder=pixel_order, brightness=brightness, auto_write=auto_write)
        self.frames: list[tuple[Colour, ...]] = []
        self.keep = keep

    def _transmit(self, buffer: bytearray) -> None:
        pixels = (self[i] for i in range(len(self)))
        self.frames.append(tuple((p[0], p[1], p[2]) for p in pixels))
        del self.frames[:-self.keep]
