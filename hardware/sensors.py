"""What the scanner board sees, as values the firmware can compare.

The board reports switches by number; here they become tower cells
``(x, y, z)`` and board squares ``(row, col)`` again, using the layout the
board announced in its hello. ``BoardStatus`` is what the board measured of
itself (its scan and load-cell periods).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Layout:
    """The sensors one scanner board has, as announced in its hello."""

    firmware: str = "unknown"
    towers: int = 2
    rods: int = 9
    levels: int = 9
    rows: int = 0
    cols: int = 0
    loads: int = 0
    leds: int = 0
    stack: int = 1
    """Switches under each board square: 1 sees occupancy only; more are stack
    heights (stones) or a wall switch (the maze)."""

    @property
    def tower_switches(self) -> int:
        return self.rods * self.levels

    @property
    def switch_count(self) -> int:
        return self.towers * self.tower_switches + self.rows * self.cols * self.stack

    def square_switch(self, row: int, col: int, level: int = 0) -> int:
        return self.towers * self.tower_switches + (level * self.rows + row) * self.cols + col


@dataclass(frozen=True)
class Snapshot:
    """Every sensor at one moment: closed switches and raw load-cell readings."""

    layout: Layout
    closed: frozenset[int] = frozenset()
    loads: tuple[int, ...] = ()
    _cells: dict[int, frozenset[tuple[int, int, int]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)  # by tower, worked out once

    def tower_cells(self, tower: int) -> frozenset[tuple[int, int, int]]:
        """Occupied cube positions of one tower, as the engine names them."""
        if tower not in self._cells:
            lay = self.layout
            side = math.isqrt(lay.rods)
            first = tower * lay.tower_switches
            cells = set()
            for i in self.closed:
                k = i - first
                if 0 <= k < lay.tower_switches:
                    z, rod = divmod(k, lay.rods)
                    cells.add((rod % side, rod // side, z))
            self._cells[tower] = frozenset(cells)
        return self._cells[tower]

    def squares(self) -> frozenset[tuple[int, int]]:
        """Occupied board squares as (row, col)."""
        return frozenset(square for square, _ in self.square_heights())

    def board_level(self, level: int) -> frozenset[tuple[int, int]]:
        """Squares whose switch at ``level`` (0: the piece switch) is closed."""
        lay = self.layout
        first = lay.towers * lay.tower_switches + level * lay.rows * lay.cols
        return frozenset(divmod(i - first, lay.cols) for i in self.closed
                         if lay.cols and first <= i < first + lay.rows * lay.cols)

    def square_heights(self) -> frozenset[tuple[tuple[int, int], int]]:
        """Occupied board squares with the highest level sensed on each (1 .. stack)."""
        lay = self.layout
        first = lay.towers * lay.tower_switches
        top: dict[tuple[int, int], int] = {}
        for i in self.closed:
            if lay.cols and first <= i < lay.switch_count:
                level, k = divmod(i - first, lay.rows * lay.cols)
                square = divmod(k, lay.cols)
                top[square] = max(top.get(square, 0), level + 1)
        return frozenset(top.items())


NEAR = 0.1
"""The board's figures wobble a little every second; a move of this share or more is news."""


@dataclass(frozen=True)
class BoardStatus:
    """What the scanner board measured of itself (its STATUS frame), as numbers."""

    scan_us: int
    """The average turn of its loop (a scan of every drive line and the rest), microseconds."""
    load_us: int | None
    """The average time between its load-cell readings; None: it read fewer than two."""
    dropped: int
    """Frames it could not send whole since it started (the Pi was not reading)."""

    def near(self, other: BoardStatus) -> bool:
        """Whether both periods are within ``NEAR`` of ``other``'s (no news to tell)."""
        def close(a: int | None, b: int | None) -> bool:
            return a == b or (a is not None and b is not None and abs(a - b) < NEAR * b)

        return close(self.scan_us, other.scan_us) and close(self.load_us, other.load_us)

    def words(self) -> str:
        """The periods as a person reads them: "a scan every 8.4 ms, load cells every 25 ms"."""
        return period_words(self.scan_us, self.load_us)


def period_words(scan_us: int, load_us: int | None) -> str:
    """A scan period and a load-cell period (microseconds; None: none read) in words."""
    loads = f"load cells every {_ms(load_us)}" if load_us else "no load cells read"
    return f"a scan every {_ms(scan_us)}, {loads}"


def _ms(us: int) -> str:
    """Microseconds as milliseconds, two significant figures at least, no trailing zeros."""
    text = f"{us / 1000:.2f}" if us < 1000 else f"{us / 1000:.1f}"
    return text.rstrip("0").rstrip(".") + " ms"
