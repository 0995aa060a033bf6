"""A person's hands on the simulated stones board: move, stack and lift stones.

Six stones (each player's cornerstone, keystone and capstone) lie beside the
board until a hand sets them out. A hand lifts a square's top stone (or the
whole stack, a foundation moving as one), puts it on a square, on top of
what stands there, or knocks a stack so its top stone falls beside the
board. ``setup`` sets all six out on their start squares, as the engine's
start has them for the game's ``options`` (the service's status names them;
only the board's ``rows`` and ``cols`` move a stone; the defaults when none
are given); ``clear`` lays them all beside the board. Each change reaches
only the simulated square switches (a stack's height, where the board senses
heights), as a bot's hand in ``firmware.stones.demo`` does: the table learns
of it through its sensors.
"""

from __future__ import annotations

from engine.core import square_name
from engine.stones.game import StonesGame, StonesOptions
from firmware.sim.hands import SEATS, HandsError, SquareHands

KINDS = ("corner", "key", "cap")
DEFAULT = StonesOptions()


class StonesHands(SquareHands):
    """Both seats' hands on the stones board; every act goes through ``act``."""

    PIECES = tuple(f"{seat} {kind}" for seat in "AB" for kind in KINDS)

    def lifting(self, stack: tuple[str, ...], seat: str) -> int:
        """What moves as one for this player: a stack resting on their own stone (a
        foundation, and a capstone riding on it) moves whole; else the top stone comes off."""
        return len(stack) if stack[0].startswith(f"{seat} ") else 1

    def set_out(self, request: dict) -> dict:
        """Each stone on its start square for a game of these ``options``."""
        options = request.get("options", {})
        if not isinstance(options, dict):
            raise HandsError("set it up for which game? give its options as the table's "
                             "status says them, like {\"rows\": 6, \"cols\": 4}")
        rows, cols = options.get("rows", DEFAULT.rows), options.get("cols", DEFAULT.cols)
        if type(rows) is not int or type(cols) is not int:
            raise HandsError(f"set it up for which board? give rows and cols as numbers, "
                             f"like 6 and 4, not {str(rows)[:10]!r} and {str(cols)[:10]!r}")
        try:
            board = StonesOptions(rows=rows, cols=cols)
        except ValueError as exc:
            raise HandsError(str(exc)) from None
        if rows > self.rows or cols > self.cols:
            raise HandsError(f"a {rows}x{cols} game does not fit on this {self.rows}x"
                             f"{self.cols} board")
        start = StonesGame(board).new_initial_state()
        return {"squares": {square_name(sq): [f"{s.owner.value} {s.kind.value}" for s in stack]
                            for sq, stack in start.stacks},
                "held": {seat: [] for seat in SEATS}}


Hands = StonesHands
"""What the simulated board process makes for this game."""

__all__ = ["Hands", "HandsError", "StonesHands"]
