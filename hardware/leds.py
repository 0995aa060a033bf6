"""The table's LEDs: logical parts mapped onto physical NeoPixel chains.

The firmware speaks of parts (``ring A`` pixel 3, ``tower B`` rod 4,
``board`` square 12, ``zone`` pixel 0); the profile says which chain carries
each part and in what order. Every chain is an ``adafruit_pixelbuf.PixelBuf``:
a real NeoPixel strip on the Pi (imported only there), a strip on the
scanner board fed with LED frames over the link, or a recording twin.
"""

from __future__ import annotations

from collections.abc import Iterator

import adafruit_pixelbuf

from hardware.profile import LedChain, Profile
from hardware.scanner import obelisk_proto as proto
from hardware.sim import RecordingPixels

Colour = tuple[int, int, int]
LedKey = tuple[str, str, int]
"""(part, owner, index): ("ring", "A", 3), ("board", "", 12), ("zone", "", 0)."""

_PIXELS_PER_FRAME = 300  # keeps an LED frame under the protocol's payload limit


class LedError(RuntimeError):
    """LEDs that cannot be driven here, with what to do about it."""


class ScannerPixels(adafruit_pixelbuf.PixelBuf):
    """A NeoPixel chain on the scanner board: ``show()`` sends LED frames."""

    def __init__(self, n: int, send, *, brightness: float = 1.0) -> None:
        super().__init__(n, byteorder="RGB", brightness=brightness, auto_write=False)
        self._send = send  # the link's send(kind, body)

    def _transmit(self, buffer: bytearray) -> None:
        rgb = bytes(buffer)
        for start in range(0, len(self), _PIXELS_PER_FRAME):
            chunk = rgb[3 * start:3 * (start + _PIXELS_PER_FRAME)]
            self._send(proto.LED_FRAME, proto.pack_leds(start, chunk))


def _pi_pixels(chain: LedChain, n: int, brightness: float) -> adafruit_pixelbuf.PixelBuf:
    try:
        import board  # only a Raspberry Pi has these
        import neopixel
        pin = getattr(board, chain.pin)
    except (ImportError, NotImplementedError, RuntimeError, AttributeError) as exc:
        raise LedError(
            f"LED chain on {chain.pin} needs a Raspberry Pi with adafruit-circuitpython-neopixel "
            f"({exc}); run ./setup.sh on the Pi, or use the sim profile here"
        ) from None
    return neopixel.NeoPixel(pin, n, brightness=brightness, auto_write=False,
                             pixel_order=neopixel.GRB)


class Leds:
    """Every LED of the table by logical name, whatever chain it sits on."""

    def __init__(self, profile: Profile, *, send=None) -> None:
        """``send`` is the scanner link's ``send``, needed by ``scanner`` chains."""
        self.chains: list[adafruit_pixelbuf.PixelBuf] = []
        self._dirty: set[int] = set()  # chains changed since the last show()
        self._where: dict[tuple[str, str], tuple[int, int, int]] = {}
        for number, chain in enumerate(profile.chains):
            offset = 0
            for kind, owner, count in chain.parts:
                self._where[(kind, owner)] = (number, offset, count)
                offset += count
            self.chains.append(self._chain(chain, offset, profile.brightness, send))

    @staticmethod
    def _chain(chain: LedChain, n: int, brightness: float, send) -> adafruit_pixelbuf.PixelBuf:
        if chain.output == "pi":
            return _pi_pixels(chain, n, brightness)
        if chain.output == "scanner":
            if send is None:
                raise LedError("a scanner LED chain needs the scanner link to send frames on")
            return ScannerPixels(n, send, brightness=brightness)
        return RecordingPixels(n, brightness=brightness)

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
        return tuple(self.chains[chain][pixel][:3])

    def fill(self, colour: Colour) -> None:
        for chain in self.chains:
            chain.fill(colour)
        self._dirty.update(range(len(self.chains)))

    def show(self) -> None:
        """Send the chains that changed since the last show."""
        for number in sorted(self._dirty):
            self.chains[number].show()
        self._dirty.clear()
