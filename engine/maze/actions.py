"""What the maze's players do: put out a segment, stand a wall, pass, move the obelisk.

Squares are (row, col); row 0 is the Architect's edge, "north" is up the
rows. A wall stands in one square and blocks two adjacent sides of it (an L,
in one of four orientations).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.core import square_name

Square = tuple[int, int]


class Side(Enum):
    NORTH = (1, 0)
    EAST = (0, 1)
    SOUTH = (-1, 0)
    WEST = (0, -1)


class Orientation(Enum):
    """Which two adjacent sides of its square a wall blocks."""

    NE = "NE"
    SE = "SE"
    SW = "SW"
    NW = "NW"

    @property
    def sides(self) -> tuple[Side, Side]:
        by_letter = {"N": Side.NORTH, "E": Side.EAST, "S": Side.SOUTH, "W": Side.WEST}
        return by_letter[self.value[0]], by_letter[self.value[1]]

    @property
    def words(self) -> str:
        a, b = self.sides
        return f"{a.name.lower()} and {b.name.lower()} sides"


@dataclass(frozen=True)
class PlaceSegment:
    square: Square

    def __str__(self) -> str:
        return f"segment on {square_name(self.square)}"


@dataclass(frozen=True)
class PlaceWall:
    square: Square
    orientation: Orientation

    def __str__(self) -> str:
        return f"wall on {square_name(self.square)} ({self.orientation.words})"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Move:
    to: Square

    def __str__(self) -> str:
        return f"obelisk to {square_name(self.to)}"


Action = PlaceSegment | PlaceWall | Pass | Move
