"""The toy game on the table core: a new stone on an empty square is the mover's mark."""

from __future__ import annotations

from engine.errors import InferenceError, ObeliskError
from engine.reading import Reading
from engine.stones.sensing import BoardView
from firmware.core.table import Table
from tests.support.toy import leds, record
from tests.support.toy.game import SIZE, NoughtsState


class NoughtsTable(Table[BoardView, NoughtsState]):
    SETUP = "clear the squares a1 to c3, then press a player button"
    record = record
    draw_leds = leds.frame

    def _expected(self) -> set:
        return {sq for sq, _ in self.position.marks}

    def _seen(self, view: BoardView) -> set:
        return {sq for sq in view.squares if sq[0] < SIZE and sq[1] < SIZE}

    def ready(self, view: BoardView) -> bool:
        return not self._seen(view)

    def _reading(self, view: BoardView) -> Reading:
        """One new stone on the board is the mover's mark (the core asks the rules)."""
        seen, expected = self._seen(view), self._expected()
        new, gone = seen - expected, expected - seen
        if len(new) <= 1 and not gone:
            return Reading(actions=tuple(new))
        raise InferenceError("one stone a turn, on an empty square: put the board back as "
                             "it was", tuple(sorted(gone or new))[:1])

    def _refusal(self, square: tuple[int, int], exc: ObeliskError) -> tuple[str, tuple]:
        return str(exc), (square,)
