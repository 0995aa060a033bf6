"""A person's hands on the simulated maze board: segments, the obelisk, walls.

The obelisk (segment 1) and four segments lie beside the board until a hand
puts them on squares. A hand lifts the top of a square (a segment alone; the
obelisk with the segments under it, or, as the page asks, with only those it
claimed: an unclaimed one it stands on stays) and puts it on another; set on a
segment, the obelisk stands on it, and the square's switch does not change,
so the Architect's button says it is a claim. The Maze Master stands walls
from a box of ten on squares and takes them off again; which way a wall
faces, no switch can tell: the table lights one, and the Maze Master's
button turns it (press) and confirms it (hold), as in ``firmware.maze.demo``.
``clear`` (and ``setup``, the same here: the Architect then puts the obelisk
down) takes every piece off and every wall back into its box.
Each act reaches only the simulated switches.
"""

from __future__ import annotations

from typing import ClassVar

from engine.core import square_name
from engine.maze.game import ROLE_NAMES, SEGMENTS, WALLS
from firmware.sim.hands import HandsError, SquareHands


class MazeHands(SquareHands):
    """The Architect's (seat A) and the Maze Master's (seat B) hands on the maze board."""

    PIECES = ("obelisk", *(f"segment {n}" for n in range(2, SEGMENTS + 1)))
    NAMES: ClassVar[dict[str, str]] = ROLE_NAMES

    def __init__(self, sim) -> None:
        super().__init__(sim)
        self.walls: frozenset[tuple[int, int]] = frozenset()

    def lifting(self, stack: tuple[str, ...], seat: str) -> int:
        """A segment on top comes off alone; the obelisk on top comes with everything under
        it, unless the act counts only what it claimed (the page does: the game says which)."""
        return len(stack) if stack[-1] == "obelisk" else 1

    def look(self) -> dict:
        return {**super().look(), "walls": sorted(square_name(w) for w in self.walls),
                "box": WALLS - len(self.walls)}

    def physical(self) -> dict:
        return {**super().physical(), "walls": sorted(square_name(w) for w in self.walls)}

    def cleared(self) -> dict:
        return {**super().cleared(), "walls": []}

    def restore(self, data: dict) -> None:
        walls = frozenset(self._square({"square": name}) for name in data["walls"])
        if len(walls) > WALLS or len(walls) != len(data["walls"]):
            raise HandsError(f"{len(data['walls'])} walls, of a box of {WALLS}")
        super().restore(data)
        self._walls(walls)

    def acts(self) -> dict:
        return {**super().acts(), "stand": self._stand, "unstand": self._unstand}

    def _stand(self, request: dict) -> None:
        """A wall from the box stood on a square (its own switch closes)."""
        square = self._square(request)
        if square in self.walls:
            raise HandsError(f"a wall already stands on {square_name(square)}")
        if len(self.walls) >= WALLS:
            raise HandsError(f"all {WALLS} walls stand already: the box is empty")
        self._walls(self.walls | {square})

    def _unstand(self, request: dict) -> None:
        """A wall taken off its square, back into the box."""
        square = self._square(request)
        if square not in self.walls:
            raise HandsError(f"no wall stands on {square_name(square)}")
        self._walls(self.walls - {square})

    def _walls(self, walls: frozenset[tuple[int, int]]) -> None:
        self.walls = walls
        self.sim.set_walls(walls)


Hands = MazeHands
"""What the simulated board process makes for this game."""

__all__ = ["Hands", "HandsError", "MazeHands"]
