"""The scanner board's own loop, timed by itself, for ``bench/scan_period.py``.

Runs unchanged on CPython and on MicroPython (``tests/support/micropython/run.mjs``
loads it beside the board's files): it builds the reference board with
``code.py``'s ``build()`` on bare pins (plain attributes: no simulated
electrics, so the time is the scanner code's and the interpreter's, not a
simulator's), turns the loop for ``RUN_MS`` of real time on the interpreter's
own millisecond clock, as ``code.py`` does, and prints each STATUS the board
sent, then the time of one matrix scan alone:

    status SCAN_US LOAD_US DROPPED
    matrix_us US

Only what MicroPython has: no f-strings, no typing, no dataclasses.
"""

import time

try:  # CPython, from the repository
    from hardware.scanner import obelisk_proto as proto
except ImportError:  # MicroPython, the files side by side
    import obelisk_proto as proto

RUN_MS = 3500
"""Real milliseconds the loop turns: three whole heartbeat intervals after the first."""
MATRIX_SCANS = 50
"""Matrix scans timed alone in one go, after the loop..."""
MATRIX_TRIES = 10
"""...this many times; the quickest go counts (a busy machine only ever slows one)."""


class Namespace:
    """A bag of attributes (SimpleNamespace is CPython's only)."""

    def __init__(self, **fields):
        for name in fields:
            setattr(self, name, fields[name])


class Pin:
    """A pin as cheap as a pin can be: reading it costs an attribute lookup."""

    def __init__(self, value):
        self.value = value
        self.direction = None
        self.pull = None


class Pixels:
    def __init__(self, n):
        self._n = n

    def __len__(self):
        return self._n

    def __setitem__(self, index, rgb):
        pass

    def show(self):
        pass


class Wire:
    """The data channel: the Pi reads everything and sends nothing."""

    def __init__(self):
        self.out = bytearray()
        self.in_waiting = 0
        self.write_timeout = None

    def read(self, n):
        return b""

    def write(self, data):
        self.out.extend(data)
        return len(data)


def _ms_clock():
    """Milliseconds since now, on the interpreter's monotonic clock."""
    if hasattr(time, "monotonic_ns"):  # CPython, CircuitPython
        start = time.monotonic_ns()
        return lambda: (time.monotonic_ns() - start) // 1000000
    start = time.ticks_ms()  # MicroPython
    return lambda: time.ticks_diff(time.ticks_ms(), start)


def _us_clock():
    if hasattr(time, "ticks_us"):
        start = time.ticks_us()
        return lambda: time.ticks_diff(time.ticks_us(), start)
    start = time.monotonic_ns()
    return lambda: (time.monotonic_ns() - start) // 1000


def build(code):
    """The reference board on bare pins: switches open, load cells always ready."""
    loads = code.PINS["load_data"]
    board = Namespace()
    for i in range(30):
        setattr(board, "GP%d" % i, "GP%d" % i)
    # sense lines read high (open), HX711 data lines low (a conversion ready)
    digitalio = Namespace(DigitalInOut=lambda name: Pin(name not in loads),
                          Direction=Namespace(INPUT="input", OUTPUT="output"),
                          Pull=Namespace(UP="up", DOWN="down"))
    neopixel = Namespace(NeoPixel=lambda pin, n, auto_write=False, pixel_order="GRB": Pixels(n))
    wire = Wire()
    return code.build(board, digitalio, neopixel, wire, dict(code.LAYOUT)), wire


def main(code):
    scanner, wire = build(code)
    ms = _ms_clock()
    while True:
        now = ms()
        if now >= RUN_MS:
            break
        scanner.step(now)
    for kind, _seq, body in proto.FrameReader().feed(bytes(wire.out)):
        if kind == proto.STATUS:
            print("status %d %d %d" % tuple(proto.unpack_status(body)))
    us = _us_clock()
    best = None
    for _ in range(MATRIX_TRIES):
        start = us()
        for _ in range(MATRIX_SCANS):
            scanner.matrix.scan()
        took = (us() - start) // MATRIX_SCANS
        best = took if best is None or took < best else best
    print("matrix_us %d" % best)
