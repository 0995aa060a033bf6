"""The board modules code.py is handed, as types: read by the type checker only.

code.py takes CircuitPython's modules as arguments, so the tests and the
simulator can hand it fakes; these say which real modules they stand for, with
CircuitPython's own classes (circuitpython-stubs, Raspberry Pi Pico), so mypy
checks every call code.py makes on them (tests/test_scanner_stubs.py). It is a
stub: nothing imports it at run time, and code.py's import of it fails quietly
on the board and on the Pi. Each protocol lists only what code.py uses.
"""

from types import ModuleType
from typing import NotRequired, Protocol, TypedDict

import digitalio
import microcontroller
import neopixel
import supervisor
import usb_cdc
import watchdog

class Time(Protocol):
    def monotonic(self) -> float: ...
    def monotonic_ns(self) -> int: ...
    def sleep(self, seconds: float, /) -> None: ...

class Digitalio(Protocol):
    @property
    def DigitalInOut(self) -> type[digitalio.DigitalInOut]: ...
    @property
    def Direction(self) -> type[digitalio.Direction]: ...
    @property
    def Pull(self) -> type[digitalio.Pull]: ...

class Neopixel(Protocol):
    @property
    def NeoPixel(self) -> type[neopixel.NeoPixel]: ...

class UsbCdc(Protocol):
    @property
    def data(self) -> usb_cdc.Serial | None: ...

class Microcontroller(Protocol):
    @property
    def watchdog(self) -> watchdog.WatchDogTimer | None: ...

class Watchdog(Protocol):
    @property
    def WatchDogMode(self) -> type[watchdog.WatchDogMode]: ...

class Supervisor(Protocol):
    @property
    def runtime(self) -> supervisor.Runtime: ...

class Modules(TypedDict):
    """What ``board_modules()`` gives: a module this CircuitPython lacks is None."""

    time: Time
    board: ModuleType
    digitalio: Digitalio
    neopixel: Neopixel
    usb_cdc: UsbCdc
    microcontroller: NotRequired[Microcontroller | None]
    supervisor: NotRequired[Supervisor | None]
    watchdog: NotRequired[Watchdog | None]

Pin = microcontroller.Pin
DigitalInOut = digitalio.DigitalInOut
Serial = usb_cdc.Serial
WatchDogTimer = watchdog.WatchDogTimer
