"""A person's hands on the simulated stones board: move, stack and lift stones.

Six stones (each player's cornerstone, keystone and capstone) lie beside the
board until a hand sets them out. A hand lifts a square's top stone (or the
whole stack, a foundation moving as one), puts it on a square, on top of
what stands there, or knocks a stack so its top stone falls beside the
board. Each change reaches only the simulated square switches (a stack's
height, where the board senses heights), as a bot's hand in
``firmware.stones.demo`` does: the table learns of it through its sensors.
"""

from __future__ import annotations

from firmware.sim.hands import HandsError, SquareHands

KINDS = ("corner", "key", "cap")


class StonesHands(SquareHands):
    """Both seats' hands on the stones board; every act goes through ``act``."""

    PIECES = tuple(f"{seat} {kind}" for seat in "AB" for kind in KINDS)

    def lifting(self, stack: tuple[str, ...], seat: str) -> int:
        """What moves as one for this player: a stack resting on their own stone (a
        foundation, and a capstone riding on it) moves whole; else the top stone comes off."""
        return len(stack) if stack[0].startswith(f"{seat} ") else 1


Hands = StonesHands
"""What the simulated board process makes for this game."""

__all__ = ["Hands", "HandsError", "StonesHands"]
