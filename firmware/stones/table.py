"""The stones game on the table: squares that empty and fill, and the engine.

``StonesTable`` is the table core (``firmware.core.table.Table``) with the stones
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

from collections.abc import Callable
from functools import lru_cache
from typing import ClassVar

from engine.core import square_name
from engine.errors import ObeliskError
from engine.players import Player
from engine.reading import Reading
from engine.stones import record
from engine.stones.game import Move, Square, StonesGame, StonesState
from engine.stones.sensing import BoardView, candidate_moves, read_view, sight
from firmware.core.hooks import Records, SeatAfar
from firmware.core.palette import Frame
from firmware.core.surroundings import Surroundings
from firmware.core.table import Table
from firmware.stones import leds
from firmware.store.journal import Journal
from hardware.profile import Profile

View = BoardView


@lru_cache(maxsize=4)
def _turn_words(pos: StonesState, seen: View) -> str:
    """The turn's words, worked out once per position: a move asks them of the position
    before it and after it, on the way to its LED frame."""
    words = "lift one of your stones and set it down where the rules let it go"
    try:
        silent = candidate_moves(pos, seen, unchanged=True)
    except ObeliskError:
        return words
    if not silent:
        return words
    named = " or ".join(pos.move_to_string(m) for m in silent)
    return f"{words}; {named} changes nothing the switches see: press your button for it"


class StonesTable(Table[BoardView, StonesState]):
    game: StonesGame  # the table plays its own game (its options)
    SETUP = "set the stones out as at the start, then press a player button"
    record: ClassVar[Records] = record
    # the table is what its LEDs read of it (``leds.LitTable``): mypy checks it here
    draw_leds: ClassVar[Callable[[StonesTable, float, int], Frame]] = leds.frame

    def __init__(self, game: StonesGame, journal: Journal, *, board_cols: int | None = None,
                 **kwargs) -> None:
        """``board_cols``: how many squares wide the physical board is (its pixels run row by
        row, as its switches do: a 6x4 game on an 8x8 board uses its corner)."""
        super().__init__(game, journal, **kwargs)
        self._board_cols = board_cols

    @property
    def board_cols(self) -> int:
        """The physical board's width (with none given, the game's own)."""
        return self._board_cols or self.game.options.cols

    @classmethod
    def for_service(cls, game: StonesGame, journal: Journal, profile: Profile, *, seed: int,
                    around: Surroundings, solo: SeatAfar | None = None) -> StonesTable:
        return cls(game, journal, seed=seed, around=around, solo=solo,
                   board_cols=profile.scanner.cols or game.options.cols)

    def light_cols(self, strip: str, count: int) -> int:
        """The board's pixels run as wide as the physical board."""
        return self.board_cols if strip == "board" else super().light_cols(strip, count)

    # ---------------------------------------------------------------- reading

    def sight(self, state: StonesState) -> View:
        """What this table's sensors read for ``state`` (as many levels as they tell)."""
        return sight(state, self.view.levels if self.view is not None else 1)

    def ready(self, view: View) -> bool:
        return view == self.sight(self.position)

    def setup_seen(self, view: View | None) -> dict:
        """Before a game: the start, each stone in it shown once the switches see it set out
        on its square (none before they read anything), so that the page draws the board
        as it stands, as the hands panel and the switches have it, while it is set out. No
        symmetry yet: the rules check it after each move, and there is none before the game."""
        seen = self.position.observation()
        now = dict(view.heights) if view is not None else {}
        shown = {}
        for square, height in sight(self.position, view.levels if view else 1).heights:
            name = square_name(square)
            stack = seen["stacks"][name]
            stones = len(stack) if now.get(square, 0) >= height else now.get(square, 0)
            if stones:
                shown[name] = stack[:stones]
        seen["stacks"], seen["symmetry"] = shown, {}
        return seen

    def _words(self, move: Move, pos: StonesState | None = None) -> str:
        return (self.position if pos is None else pos).move_to_string(move)

    def _done(self, move: Move, pos: StonesState | None = None) -> str:
        """What the player did: ``moved the cornerstone c1-b2 (step)``."""
        return f"moved the {self._words(move, pos)}"

    def _phase_words(self, state: StonesState | None = None) -> str:
        """Lift a stone, set it down; and, when a move changes nothing the switches see (a
        capstone stacking again), that the button plays it."""
        pos = self.position if state is None else state
        return _turn_words(pos, self.sight(pos))

    def _play_button(self, player: Player, kind: str) -> None:
        """A move no switch can see (a pillar capstone stacking again): pick it by button."""
        if player is not self.position.current_player() or self.decided != self.sight(
                self.position):
            return
        try:
            silent = candidate_moves(self.position, self.decided, unchanged=True)
        except ObeliskError:
            return
        self.choosing.ask(player, tuple((m,) for m in silent))

    def _reading(self, view: View) -> Reading:
        return self._slid(view) or read_view(self.position, view)

    def _to_fix(self, view: View, exc: ObeliskError) -> tuple[Square, ...]:
        return self.differences(view)

    def differences(self, view: View) -> tuple[Square, ...]:
        """The squares to fix, one at a time: a stack too tall first, then one missing (the
        refusal names them, and ``stones/leds.py`` lights them while the board is set out
        or put right)."""
        now, expect = dict(view.heights), dict(self.sight(self.position).heights)
        extra = sorted(sq for sq in now if now[sq] > expect.get(sq, 0))
        missing = sorted(sq for sq in expect if expect[sq] > now.get(sq, 0))
        return tuple((extra or missing)[:1])

    def _slid(self, view: View) -> Reading | None:
        """A stone that slid on: its tentative move is replaced, if the new one is legal."""
        if not self.actions:
            return None
        before, last = self.history[-2], self.actions[-1]
        here = dict(view.heights).get(last.to, 0)
        if here >= dict(self.sight(self.position).heights).get(last.to, 0):
            return None  # the stone is still where its move put it: no slide
        try:
            fits = candidate_moves(before, view)
        except ObeliskError:
            return None
        same = [m for m in fits if m.frm == last.frm and m != last
                and m.to not in sight(before).squares]  # it slid on to an empty square
        if len(same) != 1:
            return None
        return Reading(actions=tuple(same), amends=len(self.actions) - 1)

    def _accepted(self, before: StonesState) -> None:
        mover = self.position.current_player()
        if mover is not None and self.position.pillar_of(mover) is not None:
            self.tell("notice", player=mover.value,
                      message="your capstone must come off this turn")

