"""High Rise on the table: a load cell under each square, and hidden values.

``HighriseTable`` is the table core (``firmware.core.table.Table``) with a load
cell under each square. Setup waits for a neutral cover on every square,
then a player's button: the hidden values are the engine's chance, rolled
from the table's seed, and the start says who places first. In play, each
settled reading is compared with the reading after the last accepted
placement (``engine.highrise.sensing``): one square heavier by one pyramid
is the player's placement. Anything else is lit on its square and waited
out; nothing is recorded until the weights are right again.

Nothing hidden leaves this class before the end. The journal keeps the
seed, the start's reading and every placement sealed (``firmware.store.seal``),
so a restart resumes the game and a reader learns nothing; events tell who
placed where and how many pieces are left, never which size; the LEDs
show whose turn it is and what is wrong, never a square's contents. At the
end one ``reveal`` event a stack, then the outcome, and the LEDs light the
stacks one after another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from engine.core import Outcome, square_name
from engine.highrise import record
from engine.highrise.game import HighriseGame, HighriseState, Place
from engine.highrise.sensing import (
    Calibration,
    CalibrationError,
    WeightError,
    check_covers,
    read_view,
)
from engine.reading import Reading
from engine.record import RecordError
from firmware.core.hooks import Records, SeatAfar
from firmware.core.palette import Frame
from firmware.core.surroundings import Surroundings
from firmware.core.table import Table
from firmware.core.table_state import TableState
from firmware.highrise import leds
from firmware.highrise.calibrate import load_calibration
from firmware.store.journal import GameEntries, Journal
from firmware.store.seal import Sealer, SealError
from firmware.store.standing import Kept
from hardware.profile import Profile

View = tuple[int, ...]
PLACED = "placed"
"""An accepted placement's notation in events: it names no size (the words say where)."""


class HighriseTable(Table[View, HighriseState]):
    game: HighriseGame  # the table plays its own game (its options)
    SETUP = "put a cover on every square, then press a player button"
    READY = "the board is ready: press a player button to start"
    record: ClassVar[Records] = record  # annotated: mypy reads a bare module as an instance's
    # the table is what its LEDs read of it (``leds.LitTable``): mypy checks it here
    draw_leds: ClassVar[Callable[[HighriseTable, float, int], Frame]] = leds.frame
    led_change = leds.next_change

    def __init__(self, game: HighriseGame, journal: Journal, calibration: Calibration, *,
                 board_cols: int | None = None, **kwargs) -> None:
        self.sealer = Sealer(journal.dir)
        self.cal = calibration
        self.board_cols = board_cols or game.options.cols
        self.accepted: View | None = None  # the pads' readings after the last accepted action
        self.reading: View | None = None  # the settled reading being dealt with
        self.over_at = 0.0  # when the reveal began
        self._opened: dict = {}  # the unsealed start of a resumed game
        self._readings: dict[int, View] = {}  # a resumed game's readings, by action number
        super().__init__(game, journal, **kwargs)

    @classmethod
    def for_service(cls, game: HighriseGame, journal: Journal, profile: Profile, *, seed: int,
                    around: Surroundings, solo: SeatAfar | None = None) -> HighriseTable:
        """The table ``obelisk run`` plays on this profile: a calibrated load cell a square."""
        options = game.options
        if profile.scanner.load_cells < options.cells:
            raise CalibrationError(
                f"profile {profile.name} has {profile.scanner.load_cells} load cells, but a "
                f"{options.rows}x{options.cols} High Rise needs one under each of its "
                f"{options.cells} squares: pick a smaller --size or a profile with more")
        return cls(game, journal, load_calibration(journal.dir, options.cells), seed=seed,
                   around=around, board_cols=profile.scanner.cols or options.cols, solo=solo)

    @property
    def cells(self) -> int:
        return self.game.options.cells

    # ---------------------------------------------------------------- keeping secrets

    def _notation(self, action: Place) -> str:
        """A placement is told as placed: the engine's notation (``medium b2``) would say
        what a stack holds."""
        return PLACED

    def light_cols(self, strip: str, count: int) -> int:
        """The board's LEDs run as wide as the physical board (a 3x3 game uses its corner)."""
        return self.board_cols if strip == "board" else super().light_cols(strip, count)

    def _public_move(self, action: Place) -> None:
        """Not even as data: the size placed is what a stack holds."""
        return None

    def _shown(self, name: str, fields: dict) -> dict:
        """The stacks show in the ``reveal`` events first, so the last placement's
        observation leaves them out (the whole state shows them once the game is over)."""
        seen = fields.get("observation")
        shown = name == "game_over" or (name == "table" and self.state == TableState.over)
        if not shown and isinstance(seen, dict) and "stacks" in seen:
            fields["observation"] = {k: v for k, v in seen.items() if k != "stacks"}
        return fields

    def _words(self, action: Place, pos: HighriseState | None = None) -> str:
        """Where a pyramid went everyone saw; which size it was nobody did."""
        return f"placed a pyramid on {square_name(action.square)}"

    def _phase_words(self, state: HighriseState | None = None) -> str:
        return "put one of your pyramids on any stack"

    # ---------------------------------------------------------------- the journal, sealed

    def _check_journal(self) -> None:
        """Refuse a missing or unreadable key while sealed games need it."""
        self.sealer.check(self.journal.holds("sealed"))

    def _start_entry(self, entry: dict, state: HighriseState) -> dict:
        """Who starts is public; the seed (the hidden values) and the covers' reading not."""
        assert self.accepted is not None
        assert state.first is not None  # a game starts with its chance drawn: who goes first
        del entry["seed"]
        return {**entry, "first": state.first.value,
                "sealed": self.sealer.seal({"seed": self.seed, "base": list(self.accepted)})}

    def _entry_of(self, action: Place) -> dict:
        assert self.reading is not None
        return {"sealed": self.sealer.seal({**record.action_to_dict(action),
                                            "reading": list(self.reading)})}

    def _open_start(self, entries: GameEntries) -> None:
        """Open the start first: a key that does not open it is the wrong key, said so."""
        try:
            opened = self.sealer.unseal(entries.start["sealed"])
            if not isinstance(opened, dict):
                raise SealError("the sealed start holds no seed")
        except (SealError, KeyError, AttributeError) as exc:
            why = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
            raise SealError(f"{self.journal.path} line {entries.first_line}: the game's start "
                            f"cannot be opened ({why}); {self.sealer.path} must be the key "
                            "this game began with: put that one back, or start afresh with "
                            "--new-game") from None
        self._opened = opened

    def _start_seed(self, start: dict) -> int:
        seed = self._opened.get("seed")
        if type(seed) is not int:
            raise ValueError(f"the sealed seed {seed!r} is not a whole number")
        return seed

    def _initial(self, start: dict, seed: int) -> HighriseState:
        self._readings = {0: _reading(self._opened.get("base"))}
        return super()._initial(start, seed)

    def _action_of(self, entry: dict) -> Place:
        try:
            move = self.sealer.unseal(entry["sealed"])
        except (SealError, AttributeError) as exc:
            raise RecordError(f"the placement cannot be opened: {exc}") from None
        if not isinstance(move, dict):
            raise RecordError(f"the sealed placement {move!r} is no square and size")
        self._readings[entry["n"]] = _reading(move.get("reading"))
        return record.action_from_dict(move)

    def _resumed_from(self, entries: GameEntries, kept: Kept) -> None:
        self.accepted = self.reading = self._readings[len(self.actions)]  # by number: takebacks

    # ---------------------------------------------------------------- reading the pads

    def _sensed(self, view: View) -> View:
        """The pads of this game's board (a 3x3 game on a larger table reads its corner)."""
        return tuple(view[: self.cells])

    def ready(self, view: View) -> bool:
        try:
            check_covers(self.position, view, self.cal)
        except WeightError:
            return False
        return True

    def _beginning(self) -> None:
        # The covers' reading: the first placement is weighed from it.
        self.accepted = self.reading = self.decided

    def _setup_view(self, view: View) -> None:
        """Before a game: every square's cover on, nothing else on the scales."""
        try:
            check_covers(self.position, view, self.cal)
        except WeightError as exc:
            self.problem, self.repair.where = str(exc), exc.squares
            return
        self.problem, self.repair.where = self.READY, ()

    def _reading(self, view: View) -> Reading:
        """The placement weighed since the last one was accepted (the counts read are
        journalled beside it)."""
        assert self.accepted is not None
        self.reading = view
        return read_view(self.position, self.accepted, view, self.cal)

    def _sure(self, view: View) -> tuple[Place, ...]:
        return () if self.accepted is None else super()._sure(view)

    def _accepted(self, before: HighriseState) -> None:
        self.accepted = self.reading  # the next placement is weighed from here

    # ---------------------------------------------------------------- the end

    def _ending(self, outcome: Outcome) -> None:
        """One reveal a stack, square by square, before the outcome."""
        self.over_at = self._now
        for s in self.position.stacks_scored():
            self.tell("reveal", square=square_name(s.square), value=s.value,
                      pips={"A": s.pips[0], "B": s.pips[1]},
                      controller=s.controller.value if s.controller else None,
                      points=s.points)

    def _set_up_again(self) -> None:
        self.accepted = self.reading = None


def _reading(raw: object) -> View:
    """Load-cell counts as journalled (sealed) beside a placement."""
    if not isinstance(raw, list) or not all(type(v) is int for v in raw):
        raise RecordError(f"the load-cell reading {raw!r} is not a list of counts")
    return tuple(raw)
