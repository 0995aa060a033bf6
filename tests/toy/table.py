"""The toy game on the table core: a new stone on an empty square is the mover's mark."""

from __future__ import annotations

from engine.errors import ObeliskError
from engine.stones.sensing import BoardView
from firmware.service.table import Table
from tests.toy import leds, record
from tests.toy.game import SIZE


class NoughtsTable(Table[BoardView]):
    SETUP = "clear the squares a1 to c3, then press a player button"
    record = record
    draw_leds = leds.frame

    def _expected(self) -> set:
        return {sq for sq, _ in self.position.marks}

    def _seen(self, view: BoardView) -> set:
        return {sq for sq in view.squares if sq[0] < SIZE and sq[1] < SIZE}

    def ready(self, view: BoardView) -> bool:
        return not self._seen(view)

    def _read_settled(self, view: BoardView, now: float) -> None:
        seen, expected = self._seen(view), self._expected()
        if seen == expected:
            self._settled_back()
            return
        new, gone = seen - expected, expected - seen
        if len(new) == 1 and not gone:
            try:
                self.position.apply_action(next(iter(new)))
            except ObeliskError as exc:
                self._wrong(str(exc), tuple(new))
                return
            self._settled_back()
            self._accept(tuple(new))
            return
        where = tuple(sorted(gone or new))[:1]
        self._wrong("one stone a turn, on an empty square: put the board back as it was", where)
