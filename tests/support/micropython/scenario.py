"""One scripted game minute for the scanner board, runnable on CPython and MicroPython.

``run(code)`` boots the board's own ``code.py`` (passed in as a module) through
``code.main`` on simulated pins: a 74HC595 drive chain, the sense lines its
closed switches pull low, HX711s clocking out readings, a NeoPixel strip and a
USB data channel towards a Pi that sends SYNC, PING and LED frames. Pieces
come and go at fixed times on a fake clock, so nothing sleeps and every run
is the same. It returns what the board sent on the wire and what its pixels
showed, for the tests to compare between the two interpreters.

Only what MicroPython has: no f-strings with ``=``, no dataclasses, no typing,
no set or dict order in anything returned.
"""

try:  # CPython, from the repository
    from hardware.scanner import obelisk_proto as proto
except ImportError:  # MicroPython, the files side by side
    import obelisk_proto as proto

SCAN_MS = 5
"""The fake clock moves on this much at each of the board's readings (one a scan)."""
STEPS = 440
"""Turns of the board's loop: 2.2 s of play, with heartbeats (the board's figures with them)."""


class Namespace:
    """A bag of attributes (SimpleNamespace is CPython's only)."""

    def __init__(self, **fields):
        for name in fields:
            setattr(self, name, fields[name])


class World:
    """The table's physics under the board's pins, on a fake clock."""

    def __init__(self, code, layout, pins):
        self.layout = layout
        self.pins = pins
        self.drive_count = code.drive_lines(layout)
        self.closed = []  # switch indices closed now (a list: its order never matters)
        self.counts = [0] * layout["loads"]  # raw HX711 readings, signed 24 bit
        self.shift = [True] * self.drive_count
        self.outputs = [True] * self.drive_count
        self.levels = {}
        self.low_sense = []
        self.hx_bit = 0
        self.hx_sample = []
        self.sense_index = {}
        for k, name in enumerate(pins["sense"]):
            self.sense_index[name] = k
        self.load_index = {}
        for k, name in enumerate(pins["load_data"]):
            self.load_index[name] = k
        self.wire = bytearray()
        self.incoming = bytearray()
        self.shown = bytearray()
        self.shows = 0
        self.room = None  # bytes one write may take now (None: all; a Pi that stalls)
        self.write_fails = 0  # writes to fail with OSError (a port gone wrong)
        self.read_fails = 0  # sense reads to fail (a scan that raises)
        self.ns = 0
        self.events = []

    # ------------------------------------------------------------ the switches' wiring

    def line_and_sense(self, index):
        """Where switch ``index`` sits: its drive line and its sense line."""
        lay = self.layout
        tower_switches = lay["towers"] * lay["levels"] * lay["rods"]
        if index < tower_switches:
            line, sense = divmod(index, lay["rods"])
            return line, sense
        square = index - tower_switches
        row, col = divmod(square, lay["cols"])
        return lay["towers"] * lay["levels"] + row, col

    def relatch(self):
        low = []
        for index in self.closed:
            line, sense = self.line_and_sense(index)
            if not self.outputs[line] and sense not in low:
                low.append(sense)
        self.low_sense = low

    # ------------------------------------------------------------ pins

    def write(self, name, value):
        rising = value and not self.levels.get(name, False)
        self.levels[name] = value
        if not rising:
            return
        if name == self.pins["drive_clock"]:
            self.shift = [self.levels.get(self.pins["drive_data"], False)] + self.shift[:-1]
        elif name == self.pins["drive_latch"]:
            self.outputs = list(self.shift)
            self.relatch()
        elif name == self.pins["load_clock"]:
            if self.hx_bit == 0:
                self.hx_sample = [c & 0xFFFFFF for c in self.counts]
            self.hx_bit += 1
            if self.hx_bit >= 25:  # 24 data bits and one gain pulse: the next one is ready
                self.hx_bit = 0

    def read(self, name, own):
        if name in self.sense_index:
            if self.read_fails:
                self.read_fails -= 1
                raise RuntimeError("sense line %s stuck" % name)
            return self.sense_index[name] not in self.low_sense
        if name in self.load_index:
            k = self.load_index[name]
            if not 1 <= self.hx_bit <= 24 or k >= len(self.hx_sample):
                return False  # DOUT low: a conversion is ready
            return bool((self.hx_sample[k] >> (24 - self.hx_bit)) & 1)
        return own

    # ------------------------------------------------------------ time and the script

    def at(self, ms, action, *args):
        self.events.append((ms, len(self.events), action, args))

    def tick(self, ns):
        self.ns += ns
        now_ms = self.ns // 1000000
        due = [e for e in self.events if e[0] <= now_ms]
        if due:
            self.events = [e for e in self.events if e[0] > now_ms]
            due.sort()
            for _ms, _n, action, args in due:
                action(*args)

    def close(self, index):
        if index not in self.closed:
            self.closed.append(index)
        self.relatch()

    def open(self, index):
        if index in self.closed:
            self.closed.remove(index)
        self.relatch()

    def weigh(self, pad, counts):
        self.counts[pad] = counts

    def send(self, data):
        self.incoming.extend(data)

    def stall(self, room):
        self.room = room

    def fail_writes(self, n):
        self.write_fails = n

    def fail_reads(self, n):
        self.read_fails = n


# ---------------------------------------------------------------- fake board modules


class Pin:
    def __init__(self, world, name):
        self._world = world
        self._name = name
        self._own = False
        self.direction = None
        self.pull = None

    @property
    def value(self):
        return self._world.read(self._name, self._own)

    @value.setter
    def value(self, v):
        self._own = bool(v)
        self._world.write(self._name, self._own)


class Pixels:
    def __init__(self, world, n):
        self._world = world
        self._rgb = [(0, 0, 0)] * n

    def __len__(self):
        return len(self._rgb)

    def __setitem__(self, index, rgb):
        self._rgb[index] = (rgb[0], rgb[1], rgb[2])

    def show(self):
        self._world.shows += 1
        for rgb in self._rgb:
            self._world.shown.extend(bytes(rgb))


class DataChannel:
    """usb_cdc.data: what the board writes goes on the wire, all of it."""

    def __init__(self, world):
        self._world = world
        self.write_timeout = None

    @property
    def in_waiting(self):
        return len(self._world.incoming)

    def read(self, n):
        data = bytes(self._world.incoming[:n])
        self._world.incoming = self._world.incoming[n:]
        return data

    def write(self, data):
        world = self._world
        if world.write_fails:
            world.write_fails -= 1
            raise OSError(116)  # ETIMEDOUT, as a write timeout raises on a board
        took = data if world.room is None else data[:world.room]
        world.wire.extend(took)
        return len(took)


class Clock:
    """``time`` on the fake clock: each ``monotonic_ns`` (one a scan) is a scan later."""

    def __init__(self, world):
        self._world = world

    def monotonic_ns(self):
        self._world.tick(SCAN_MS * 1000000)
        return self._world.ns

    def monotonic(self):
        return self._world.ns / 1e9

    def sleep(self, seconds):
        self._world.tick(int(seconds * 1e9))


class Dog:
    def __init__(self):
        self.timeout = None
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1

    def deinit(self):
        pass


def board_modules(world):
    """What ``code.board_modules()`` gives on a real board, on the simulated one."""
    board = Namespace()
    for i in range(30):
        setattr(board, "GP%d" % i, "GP%d" % i)

    def neopixel(pin, n, auto_write=False, pixel_order="GRB", brightness=1.0):
        return Pixels(world, n)

    return {
        "time": Clock(world),
        "board": board,
        "digitalio": Namespace(DigitalInOut=lambda name: Pin(world, name),
                               Direction=Namespace(INPUT="input", OUTPUT="output"),
                               Pull=Namespace(UP="up", DOWN="down")),
        "neopixel": Namespace(NeoPixel=neopixel),
        "usb_cdc": Namespace(data=DataChannel(world)),
        "microcontroller": Namespace(watchdog=Dog()),
        "watchdog": Namespace(WatchDogMode=Namespace(RAISE="raise", RESET="reset")),
        "supervisor": Namespace(runtime=Namespace(autoreload=True)),
    }


# ---------------------------------------------------------------- the scenario


def script(world):
    """What happens at the table, and what the Pi sends, by the millisecond."""
    lay = world.layout
    tower = lay["levels"] * lay["rods"]
    square0 = lay["towers"] * tower
    world.at(40, world.close, 4)                          # a cube, tower 0, level 0, rod 4
    world.at(40, world.close, tower + 8 * lay["rods"] + 8)  # tower 1, top level, last rod
    world.at(60, world.weigh, 0, 3000)
    world.at(60, world.weigh, 3, -500)                    # a pad tared below zero
    world.at(90, world.close, square0 + 2 * lay["cols"] + 5)  # a piece on square (2, 5)
    world.at(150, world.send, proto.encode_frame(proto.PING, 1, proto.pack_token(0xBEEF)))
    world.at(150, world.send, proto.encode_frame(
        proto.LED_FRAME, 2, proto.pack_leds(0, b"\x10\x20\x30\x00\xff\x00\x01\x02\x03")))
    world.at(155, world.send, b"\x00\x07\x01\x02\x00")     # line noise
    bad = bytearray(proto.encode_frame(proto.PING, 3, proto.pack_token(7)))
    bad[2] ^= 0x40                                        # a frame hit on the way
    world.at(160, world.send, bytes(bad))
    # LEDs past the end of the strip are ignored; sent in two halves across scans.
    tail = proto.encode_frame(proto.LED_FRAME, 4, proto.pack_leds(
        lay["leds"] - 2, b"\x0a\x0b\x0c\x0d\x0e\x0f\x11\x12\x13"))
    world.at(170, world.send, tail[:5])
    world.at(175, world.send, tail[5:])
    world.at(250, world.open, 4)                          # the cube is lifted
    world.at(300, world.close, square0 + 7 * lay["cols"] + 7)  # a bounce: one scan only
    world.at(305, world.open, square0 + 7 * lay["cols"] + 7)
    world.at(400, world.weigh, 0, 3010)                   # below the noise: not sent
    world.at(500, world.send, proto.encode_frame(proto.SYNC, 5))
    world.at(700, world.weigh, 0, 3900)                   # a pyramid set down
    world.at(700, world.weigh, 8, 0x7FFFFF)               # the largest reading there is
    world.at(720, world.fail_reads, 1)                    # one scan raises, the loop goes on
    world.at(800, world.stall, 0)                         # the Pi stops reading...
    world.at(810, world.close, square0)                   # ...while a piece is set down
    world.at(900, world.stall, 6)                         # a frame goes out torn
    world.at(1010, world.stall, None)                     # reading again: a snapshot resyncs
    world.at(1060, world.fail_writes, 1)                  # a write times out
    world.at(1070, world.open, square0 + 2 * lay["cols"] + 5)
    world.at(1200, world.send, proto.encode_frame(proto.PING, 6, proto.pack_token(0)))


def run(code, steps=STEPS):
    """(bytes on the wire, bytes the pixels showed, number of shows) for the scenario."""
    layout = dict(code.LAYOUT)
    world = World(code, layout, code.PINS)
    script(world)
    modules = board_modules(world)
    scanner = code.main(modules, layout, steps)
    if scanner is None:
        raise RuntimeError("the board never found its data channel")
    return bytes(world.wire), bytes(world.shown), world.shows


def hexed(data):
    """Lower-case hex of ``data`` (MicroPython's bytes.hex may be left out of a build)."""
    return "".join("%02x" % b for b in data)


def main(code):
    """The scenario's result as text lines, the same from either interpreter."""
    wire, shown, shows = run(code)
    print("wire", len(wire), hexed(wire))
    print("pixels", shows, hexed(shown))
    # The Pi's side of the same file, on this interpreter: a hello's firmware text,
    # good UTF-8 and bad (MicroPython's decode has no errors handler).
    for text in (b"caf\xc3\xa9", b"scan\xffner\xc3"):
        hello = proto.unpack_hello(proto.pack_hello("", 2, 9, 9, 8, 8, 9, 64) + text)
        print("hello", hexed(hello[0].encode("utf-8")), hello[1:])
