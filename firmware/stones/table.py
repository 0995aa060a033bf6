"""The stones game on the table: squares that empty and fill, and the engine.

``StonesTable`` is the table core (``firmware.service.table.Table``) with the stones
sensors: a switch per square sees occupancy, and optional stack-height
sensors also how tall each stack is. Each settled view is compared with
what every legal move would leave (``engine.stones.sensing``). One fit is
played. A view that is the position with one stone missing is a stone held
in the air: its destinations light up. With occupancy switches only, that
view may also be a stack (foundation, obelisk, pillar); then the player
picks with their button (press: next candidate, hold: this one). Height
sensors tell stacking apart, so they need no help. A stone slid across the
board may settle on a square on its way: when the next settled view is
still a legal move of the same stone from the position before, that move
replaces the tentative one. Nothing illegal is recorded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engine.errors import ObeliskError
from engine.players import Player
from engine.stones import record
from engine.stones.game import Move, Square, StonesGame, StonesState
from engine.stones.sensing import (
    BoardView,
    candidate_moves,
    lifted_sight,
    sight,
    sight_after,
)
from firmware.service.table import Table
from firmware.stones import leds
from firmware.store.journal import Journal

View = BoardView


class Meaning(NamedTuple):
    """What a view means in a position: a stone in the air (``lifted``, with the stacks it
    may be), the moves that fit, or what is wrong (``error``)."""

    lifted: Square | None = None
    stacks: tuple[Move, ...] = ()
    fits: tuple[Move, ...] = ()
    error: str = ""


@lru_cache(maxsize=32)
def meaning(pos: StonesState, view: View) -> Meaning:
    """Worked out once per reading: the short settle window asks it when the reading
    arrives, the decision when it has settled."""
    legal = pos.legal_actions()
    for square in sorted({m.frm for m in legal}):
        if view == lifted_sight(pos, square, view.levels):
            return Meaning(lifted=square, stacks=tuple(
                m for m in legal if m.frm == square and sight_after(pos, m, view.levels) == view))
    try:
        return Meaning(fits=tuple(candidate_moves(pos, view)))
    except ObeliskError as exc:
        return Meaning(error=str(exc))


class StonesTable(Table[BoardView]):
    SETUP = "set the stones out as at the start, then press a player button"
    record = record
    draw_leds = leds.frame

    def __init__(self, game: StonesGame, journal: Journal, **kwargs) -> None:
        super().__init__(game, journal, **kwargs)
        self.lifted: Square | None = None

    # ---------------------------------------------------------------- reading

    def sight(self, state: StonesState) -> View:
        """What this table's sensors read for ``state`` (as many levels as they tell)."""
        return sight(state, self.view.levels if self.view is not None else 1)

    def ready(self, view: View) -> bool:
        return view == self.sight(self.position)

    def _words(self, move: Move) -> str:
        return self.position.move_to_string(move)

    def _play_button(self, player: Player, kind: str) -> None:
        """A move no switch can see (a pillar capstone stacking again): pick it by button."""
        if player is not self.position.current_player() or self.decided != self.sight(
                self.position):
            return
        try:
            silent = candidate_moves(self.position, self.decided, unchanged=True)
        except ObeliskError:
            return
        self._ask(player, tuple((m,) for m in silent))

    def _read_settled(self, view: View, now: float) -> None:
        pos = self.position
        self.lifted = None
        if view == self.sight(pos):
            self._settled_back()
            return
        if self._slide(view):
            return
        seen = meaning(pos, view)
        if seen.lifted is not None:
            # A stone held in the air (or, to occupancy switches, stacked): light where
            # it may go.
            self.lifted = seen.lifted
            if seen.stacks:
                self._ask(pos.to_play, tuple((m,) for m in seen.stacks))
            else:
                self._settled_back()
            return
        if seen.error:
            self._wrong(seen.error, self.differences(view))
            return
        fits = seen.fits
        if len(fits) == 1:
            self._settled_back()
            self._accept(fits)
        else:
            self._ask(pos.to_play, tuple((m,) for m in fits))

    def _sure(self, view: View) -> tuple[Move, ...]:
        """One move, and the stone down on its square (a stone in the air is not)."""
        seen = meaning(self.position, view)
        return seen.fits if seen.lifted is None and len(seen.fits) == 1 else ()

    def differences(self, view: View) -> tuple[Square, ...]:
        """The squares to fix, one at a time: a stack too tall first, then one missing (the
        refusal names them, and ``stones/leds.py`` lights them while the board is set out
        or put right)."""
        now, expect = dict(view.heights), dict(self.sight(self.position).heights)
        extra = sorted(sq for sq in now if now[sq] > expect.get(sq, 0))
        missing = sorted(sq for sq in expect if expect[sq] > now.get(sq, 0))
        return tuple((extra or missing)[:1])

    def _slide(self, view: View) -> bool:
        """A stone that slid on: replace the tentative move if that is still legal."""
        if not self.actions:
            return False
        before, last = self.history[-2], self.actions[-1]
        here = dict(view.heights).get(last.to, 0)
        if here >= dict(self.sight(self.position).heights).get(last.to, 0):
            return False  # the stone is still where its move put it: no slide
        try:
            fits = candidate_moves(before, view)
        except ObeliskError:
            return False
        same = [m for m in fits if m.frm == last.frm and m != last
                and m.to not in sight(before).squares]  # it slid on to an empty square
        if len(same) != 1:
            return False
        self._takeback(len(self.actions) - 1, why="slide")
        self._settled_back()
        self._accept(same)
        return True

    def _accepted(self, before: StonesState) -> None:
        mover = self.position.current_player()
        if mover is not None and self.position.pillar_of(mover) is not None:
            self.tell("notice", player=mover.value,
                      message="your capstone must come off this turn")

    def _next_game(self) -> None:
        super()._next_game()
        self.lifted = None
