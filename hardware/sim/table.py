"""The simulated table: the physical truth, wired to the real scanner code.

``SimTable`` holds what is physically on the table (cubes on the towers,
pieces on the board squares, weights on the pads, a hand hovering) and plays
the electrical part: it answers the scanner code's pin reads the way the
switch matrix, the 74HC595 drive chain and the HX711s would. The scanner
code is built by ``code.py``'s own ``build()``, runs in a thread, and writes
its frames into a real pseudo-terminal; the Pi side opens the other end with
pyserial exactly as it opens the USB serial port of a real board.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from types import SimpleNamespace

from hardware.leds import RecordingPixels
from hardware.local_board import LocalBoard, load_code_py
from hardware.profile import BoardLayout

Cell = tuple[int, int, int]
"""A cube's place on a tower: (x, y, z), z = 0 the lowest level."""
Square = tuple[int, int]
"""A board square: (row, col)."""
Truth = tuple[tuple[frozenset[Cell], ...], frozenset[tuple[Square, int]],
              frozenset[tuple[int, int, int, int]], frozenset[Square]]
"""What is physically on the table: cubes, stacks, a hovering hand, walls."""

GRAMS_TO_COUNTS = 420.0
"""Raw HX711 counts per gram of the simulated load cells."""
LOAD_OFFSET = 8_000
"""Raw reading of an empty simulated pad."""
PYRAMID_GRAMS = {1: 1.7, 2: 3.1, 3: 4.6}
"""What the simulated High Rise pyramids weigh, by pips (small, medium, large)."""
COVER_GRAMS = PYRAMID_GRAMS[3]
"""A High Rise square's cover weighs like a large pyramid."""


def pad_grams(pips: Iterable[int], covered: bool = True) -> float:
    """What a High Rise pad carries: its cover (if on) and pyramids of these pips."""
    return (COVER_GRAMS if covered else 0.0) + sum(PYRAMID_GRAMS[p] for p in pips)


# ------------------------------------------------------------------ fake board modules


class _FakePin:
    """digitalio.DigitalInOut on the simulated board: reads and writes go to the table."""

    def __init__(self, table: SimTable, name: str) -> None:
        self._table = table
        self._name = name
        self.direction = None
        self.pull = None
        self._value = False

    @property
    def value(self) -> bool:
        return self._table._read(self._name, self._value)

    @value.setter
    def value(self, v: bool) -> None:
        self._value = bool(v)
        self._table._write(self._name, self._value)


def _fake_modules(table: SimTable) -> tuple[SimpleNamespace, SimpleNamespace, SimpleNamespace]:
    names = [f"GP{i}" for i in range(30)] + table.pins["load_data"]
    board = SimpleNamespace(**{name: name for name in names})
    digitalio = SimpleNamespace(
        DigitalInOut=lambda name: _FakePin(table, name),
        Direction=SimpleNamespace(INPUT="input", OUTPUT="output"),
        Pull=SimpleNamespace(UP="up", DOWN="down"),
    )

    def neopixel_factory(pin: str, n: int, *, auto_write: bool = False,
                         pixel_order: str = "GRB", brightness: float = 1.0) -> RecordingPixels:
        table.scanner_pixels = RecordingPixels(n, brightness=brightness, auto_write=auto_write,
                                               pixel_order=pixel_order)
        return table.scanner_pixels

    return board, digitalio, SimpleNamespace(NeoPixel=neopixel_factory)


# ------------------------------------------------------------------ the table


class SimTable:
    """The physical table, simulated down to the scanner board's pins."""

    def __init__(self, layout: BoardLayout | None = None, *, step_s: float = 0.005,
                 link_dir: str | None = None) -> None:
        self._code = load_code_py()
        given: BoardLayout = self._code.LAYOUT if layout is None else layout
        self.layout = given.copy()  # its own copy: neither code.py's nor the caller's
        self.pins = dict(self._code.PINS)
        extra = self.layout["loads"] - len(self.pins["load_data"])
        if extra > 0:  # more pads than the Pico has pins: simulated DOUT lines
            self.pins["load_data"] = self.pins["load_data"] + [f"LOAD{i}" for i in range(extra)]
        # The physical truth. Each is replaced whole, never mutated, so the
        # scanner thread always reads a consistent value.
        self.cubes: tuple[frozenset[Cell], ...] = tuple(frozenset()
                                                        for _ in range(self.layout["towers"]))
        self.stacks: frozenset[tuple[Square, int]] = frozenset()  # (square, height)
        self.grams: tuple[float, ...] = (0.0,) * self.layout["loads"]
        self.hovering: frozenset[tuple[int, int, int, int]] = frozenset()  # (tower, x, y, z)
        self.walls: frozenset[Square] = frozenset()  # maze walls standing on squares
        # One hand at a time on the pieces: a bot's move and another hand's slip
        # (the fault bench's) never interleave, so neither undoes the other's.
        self.hand = threading.Lock()
        self.scanner_pixels: RecordingPixels | None = None
        # Electrical state of the simulated board.
        self._drive_count = self._code.drive_lines(self.layout)
        self._shift = [True] * self._drive_count
        self._outputs = [True] * self._drive_count
        self._sense_low: set[int] = set()  # sense lines pulled low since the last latch
        self._wired: tuple[Truth | None, list[frozenset[int]]] = (None, [])
        self._levels: dict[str, bool] = {}
        self._hx_bit = 0
        self._hx_sample: tuple[int, ...] = ()
        self._sense_index = {name: i for i, name in enumerate(self.pins["sense"])}
        self._load_index = {name: i for i, name in enumerate(self.pins["load_data"])}
        self.board = LocalBoard(
            lambda port: self._code.build(*_fake_modules(self), port, self.layout, self.pins),
            link_dir, step_s=step_s)
        self.port_path = self.board.port_path

    # ---------------------------------------------------------------- people

    def place(self, tower: int, cells: Iterable[Cell]) -> None:
        """Cubes arrive on a tower (a block threaded onto the rods)."""
        self.cubes = self._with(tower, self.cubes[tower] | frozenset(cells))

    def lift(self, tower: int, cells: Iterable[Cell]) -> None:
        self.cubes = self._with(tower, self.cubes[tower] - frozenset(cells))

    @property
    def pieces(self) -> frozenset[Square]:
        """The board squares something stands on."""
        return frozenset(square for square, _ in self.stacks)

    def put(self, square: Square, height: int = 1) -> None:
        """A piece (or a stack ``height`` pieces tall) stands on a board square."""
        row, col = square  # a [row, col] list too
        square = (row, col)
        self.stacks = frozenset({(sq, h) for sq, h in self.stacks if sq != square}
                                | {(square, height)})

    def take(self, square: Square) -> None:
        """Everything on a board square is taken off."""
        row, col = square  # a [row, col] list too
        self.stacks = frozenset((sq, h) for sq, h in self.stacks if sq != (row, col))

    def weigh(self, pad: int, grams: float) -> None:
        self.grams = tuple(grams if i == pad else g for i, g in enumerate(self.grams))

    def set_walls(self, squares: Iterable[Square]) -> None:
        """Maze walls now stand on these squares (their second switch closes)."""
        self.walls = frozenset((row, col) for row, col in squares)  # [row, col] lists too

    def load_counts(self) -> tuple[int, ...]:
        """The raw readings the board reports for what lies on the pads now."""
        counts = []
        for g in self.grams:
            raw = (LOAD_OFFSET + int(g * GRAMS_TO_COUNTS)) & 0xFFFFFF
            counts.append(raw - (1 << 24) if raw & 0x800000 else raw)
        return tuple(counts)

    def hover(self, tower: int, cells: Iterable[Cell]) -> None:
        """A hand over the tower: its magnets close switches it does not rest on."""
        self.hovering = frozenset((tower, *c) for c in cells)

    def hand_away(self) -> None:
        self.hovering = frozenset()

    def _with(self, tower: int, cells: frozenset[Cell]) -> tuple[frozenset[Cell], ...]:
        return tuple(cells if i == tower else c for i, c in enumerate(self.cubes))

    # ---------------------------------------------------------------- cable

    def start(self) -> SimTable:
        """Plug the board in: it boots, says hello and starts scanning."""
        self.plug()
        return self

    @property
    def plugged(self) -> bool:
        return self.board.running

    def plug(self) -> None:
        self.board.start()

    def unplug(self) -> None:
        """Pull the USB cable: the board stops and its serial port vanishes."""
        self.board.stop()

    def stop(self) -> None:
        self.unplug()

    def __enter__(self) -> SimTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the wire towards the Pi (noise, a corrupt frame)."""
        self.board.inject(data)

    # ---------------------------------------------------------------- electrics

    def _write(self, name: str, value: bool) -> None:
        before = self._levels.get(name, False)
        self._levels[name] = value
        rising = value and not before
        if name == self.pins["drive_clock"] and rising:
            self._shift = [self._levels.get(self.pins["drive_data"], False), *self._shift[:-1]]
        elif name == self.pins["drive_latch"] and rising:
            self._outputs = list(self._shift)
            wiring = self._wiring()
            low: set[int] = set()
            for line, level in enumerate(self._outputs):
                if not level:  # drive lines are active low
                    low |= wiring[line]
            self._sense_low = low
        elif name == self.pins["load_clock"] and rising:
            if self._hx_bit == 0:
                self._hx_sample = tuple(c & 0xFFFFFF for c in self.load_counts())
            self._hx_bit += 1

    def _read(self, name: str, own: bool) -> bool:
        if name in self._sense_index:
            return self._sense_index[name] not in self._sense_low
        if name in self._load_index:
            k = self._load_index[name]
            if self._hx_bit == 0 or k >= len(self.grams):
                return False  # DOUT low: a conversion is ready
            if self._hx_bit > 24:
                self._hx_bit = 0  # gain pulse done: next conversion ready at once
                return False
            return bool(self._hx_sample[k] >> (24 - self._hx_bit) & 1)
        return own

    def _wiring(self) -> list[frozenset[int]]:
        """For each drive line, the sense lines its closed switches pull low.

        Worked out again only when the physical truth changes (each change
        replaces a whole value, so identity tells).
        """
        truth: Truth = (self.cubes, self.stacks, self.hovering, self.walls)
        wired = self._wired[0]
        if wired is not None and all(a is b for a, b in zip(wired, truth, strict=True)):
            return self._wired[1]
        table: list[set[int]] = [set() for _ in range(self._drive_count)]
        self._wire_towers(table)
        self._wire_board(table)
        frozen = [frozenset(s) for s in table]
        self._wired = (truth, frozen)
        return frozen

    def _wire_towers(self, table: list[set[int]]) -> None:
        """Tower switches: a drive line per tower level, a sense line per rod; a hand's
        magnets close switches as the cubes resting there do."""
        levels, rods = self.layout["levels"], self.layout["rods"]
        side = math.isqrt(rods)
        for tower, cubes in enumerate(self.cubes):
            for x, y, z in cubes:
                if 0 <= z < levels:
                    table[tower * levels + z].add(y * side + x)
        for tower, x, y, z in self.hovering:
            if 0 <= z < levels:
                table[tower * levels + z].add(y * side + x)

    def _wire_board(self, table: list[set[int]]) -> None:
        """Board switches, on the drive lines after the towers': a set of row lines per
        stack level, or one for pieces and one for walls; the column is the sense line."""
        lay = self.layout
        first_row = lay["towers"] * lay["levels"]
        heights = 1 if lay.get("walls") else lay.get("stack", 1)  # level 1: walls, or stacks
        for (row, col), height in self.stacks:
            if 0 <= row < lay["rows"] and 0 <= col < lay["cols"]:
                for level in range(min(height, heights)):
                    table[first_row + level * lay["rows"] + row].add(col)
        if lay.get("walls"):
            for row, col in self.walls:
                table[first_row + lay["rows"] + row].add(col)
