"""High Rise on the table: a load cell under each square, and hidden values.

``HighriseTable`` is the model of a ``transitions`` machine:

    setup --begin/resumed--> play <--go_wrong / fixed--> repair
                               |
                             finish --> over (the reveal)

Setup waits for a neutral cover on every square, then a player's button:
the table rolls the hidden values (from its seed) and says who starts. In
play, each settled change is read against the last accepted weights: one
square heavier by one pyramid is the player's placement. Anything else is
lit red on its square and waited out; nothing is recorded until the weights
are right again.

Nothing hidden leaves this class before the end: the values and every
placement are sealed in the journal (``firmware.seal``), events name only
who moved and how many pieces are left, and the LEDs never show a square's
contents, only whose turn it is and what is wrong. At the end the stacks
are revealed square by square.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from engine.core import seeded_start
from engine.errors import ObeliskError
from engine.highrise.game import (
    HighriseGame,
    HighriseOptions,
    HighriseState,
    Place,
    Size,
    square_name,
)
from engine.highrise.record import action_from_dict, action_to_dict
from engine.highrise.sensing import Calibration, CalibrationError, WeightError, read_placement
from engine.players import PLAYERS, Player
from engine.record import RecordError, options_from_dict, options_to_dict
from firmware.highrise.calibrate import load_calibration
from firmware.journal import Journal
from firmware.resume import read_start, replay
from firmware.seal import Sealer, SealError
from firmware.table import BoardTable
from firmware.towers.table import EXTRA, GOOD, MISSING, OFF, PLAYER_COLOURS
from hardware.buttons import ButtonEvent

RGB = tuple[int, int, int]
View = tuple[int, ...]
REVEAL_S = 0.8
"""Seconds between two squares of the reveal."""
DRAW: RGB = (255, 120, 0)


class HighriseTable(BoardTable):
    STATES = ("setup", "play", "repair", "over")
    TRANSITIONS = (
        {"trigger": "begin", "source": "setup", "dest": "play"},
        {"trigger": "resumed", "source": "setup", "dest": "play"},
        {"trigger": "go_wrong", "source": "play", "dest": "repair"},
        {"trigger": "fixed", "source": "repair", "dest": "play"},
        {"trigger": "finish", "source": ["play", "repair"], "dest": "over"},
        {"trigger": "new_game", "source": "over", "dest": "setup", "after": "_next_game"},
    )

    def __init__(self, game: HighriseGame, journal: Journal, calibration: Calibration, *,
                 seed: int, emit: Callable[[dict], None] = lambda event: None,
                 beep: Callable[[], None] = lambda: None, settle_s: float = 0.3,
                 board_cols: int | None = None) -> None:
        self.game = game
        self.journal = journal
        self.sealer = Sealer(journal.dir)
        self.cal = calibration
        self.seed = seed
        super().__init__(emit, beep, settle_s)
        self.board_cols = board_cols or game.options.cols
        self.position: HighriseState = game.state_with((1,) * game.options.cells, Player.A)
        self.accepted: View | None = None  # the pads' readings after the last accepted move
        self.over_at = 0.0

    @classmethod
    def for_service(cls, game: HighriseGame, journal: Journal, profile, *, seed: int,
                    emit: Callable[[dict], None]) -> HighriseTable:
        """The table ``obelisk run`` plays on this profile: a calibrated load cell a square."""
        options = game.options
        if profile.scanner.load_cells < options.cells:
            raise CalibrationError(
                f"profile {profile.name} has {profile.scanner.load_cells} load cells, but a "
                f"{options.rows}x{options.cols} High Rise needs one under each of its "
                f"{options.cells} squares: pick a smaller --size or a profile with more")
        return cls(game, journal, load_calibration(journal.dir, options.cells), seed=seed,
                   emit=emit, board_cols=profile.scanner.cols or options.cols)

    @property
    def cells(self) -> int:
        return self.game.options.cells

    # ---------------------------------------------------------------- starting

    def start(self, now: float) -> None:
        """Resume the journal's unfinished game, or wait for a new one."""
        entries = self.journal.unfinished()
        self.sealer.check(self.journal.holds("sealed"))
        if not entries:
            self.problem = "put a cover on every square, then press a player button"
            return
        try:  # the start names the key: one that does not open it is the wrong key
            secret = self.sealer.unseal(entries.start["sealed"])
        except (SealError, KeyError) as exc:
            raise SealError(f"{self.journal.path} line {entries.first_line}: the game's start "
                            f"cannot be opened ({exc}); {self.sealer.path} must be the key "
                            "this game began with: put that one back, or start afresh with "
                            "--new-game") from None
        self.game, seed, base = read_start(entries, lambda start: (
            HighriseGame(options_from_dict(HighriseOptions, start["options"])),
            int(secret["seed"]), _reading(secret["base"])))
        readings = [base]

        def action_of(entry: dict) -> Place:
            try:
                move = self.sealer.unseal(entry["sealed"])
            except SealError as exc:
                raise RecordError(str(exc)) from None
            readings.append(_reading(move["reading"]))
            return action_from_dict(move)

        position = replay(entries, seeded_start(self.game, seed)[0], action_of).state
        self.position, self.accepted = position, readings[-1]
        self.emit({"event": "resumed", "game": "highrise", "plies": position.plies})
        self.resumed()
        if position.is_terminal():
            self.finish()

    # ---------------------------------------------------------------- inputs

    def on_view(self, view: View, now: float) -> None:
        self.view = view[: self.cells]
        self.settler.feed(self.view, now)

    def on_button(self, event: ButtonEvent, now: float) -> None:
        if self.on_button_over(event):
            return
        if self.state != "setup" or event.button == "menu" or event.kind != "press":
            return
        if self.decided is None or self._covers(self.decided):
            return
        position = seeded_start(self.game, self.seed)[0]
        self.journal.append({"t": "start", "game": "highrise",
                             "options": options_to_dict(self.game.options),
                             "first": position.first.value,
                             "sealed": self.sealer.seal({"seed": self.seed,
                                                         "base": list(self.decided)})})
        self.position, self.accepted = position, self.decided
        self.begin()
        self.emit({"event": "start", "game": "highrise", "first": self.position.first.value,
                   "pieces_each": self.game.options.pieces_each})

    # ---------------------------------------------------------------- deciding

    def _covers(self, view: View) -> str:
        """What keeps the board from being ready: a cover missing or something extra."""
        self.wrong = ()
        for i in range(self.cells):
            if not self.cal.holds(view[i], i, (Size.LARGE,)):
                sq = self.position.square(i)
                self.wrong = (sq,)
                if view[i] < self.cal.zero[i] + self.cal.sizes[2]:
                    return f"put a cover (a neutral large pyramid) on {square_name(sq)}"
                return f"{square_name(sq)} holds more than its cover: take the rest off"
        return ""

    def _decide(self, view: View, now: float) -> None:
        if self.state == "setup":
            self.problem = self._covers(view) or \
                "the board is ready: press a player button to start"
            return
        if self.state not in ("play", "repair"):
            return
        assert self.accepted is not None
        try:
            place = read_placement(self.position, self.accepted, view, self.cal)
        except WeightError as exc:
            self._wrong(str(exc), exc.squares)
            return
        except ObeliskError:  # nothing changed since the last move
            if self.state == "repair":
                self.wrong = ()
                self.fixed()
                self.emit({"event": "repaired"})
            return
        if self.state == "repair":
            self.wrong = ()
            self.fixed()
        self._accept(place, view, now)

    def _accept(self, place: Place, view: View, now: float) -> None:
        mover = self.position.to_play
        n = self.position.plies + 1
        self.journal.append({"t": "action", "n": n, "sealed": self.sealer.seal(
            {**action_to_dict(place), "reading": list(view)})})
        self.position = self.position.apply_action(place)
        self.accepted = view
        self.emit({"event": "placed", "player": mover.value, "ply": n,
                   "left": {p.value: self.position.pieces_left(p) for p in PLAYERS}})
        if self.position.is_terminal():
            self.over_at = now
            self.finish()

    def _next_game(self) -> None:
        """After a game: new covers, new hidden values (a fresh seed), a new start."""
        self.seed = secrets.randbits(63)
        self.position = self.game.state_with((1,) * self.cells, Player.A)
        self.accepted = None
        self.problem = "put a cover on every square, then press a player button"
        self.settler.forget()

    def on_enter_over(self) -> None:
        result = self.result()
        self.journal.append({"t": "over", "result": result})
        for stack in result["stacks"]:
            self.emit({"event": "reveal", **stack})
        self.emit(result)

    def result(self) -> dict:
        """The final scores and every stack: only once the game is over."""
        outcome = self.position.outcome()
        assert outcome is not None, "nothing is revealed before the end"
        return {
            "event": "game_over", "game": "highrise",
            "winner": outcome.winner.value if outcome.winner else None,
            "players": {p.value: {"score": outcome.scores[p.index]} for p in PLAYERS},
            "stacks": [{"cell": square_name(s.square), "value": s.value,
                        "pips": {"A": s.pips[0], "B": s.pips[1]},
                        "controller": s.controller.value if s.controller else None,
                        "points": s.points} for s in self.position.stacks_scored()],
        }

    # ---------------------------------------------------------------- LEDs

    def _pixel(self, square: tuple[int, int]) -> tuple[str, str, int]:
        return ("board", "", square[0] * self.board_cols + square[1])

    def led_frame(self, now: float, ring_pixels: int) -> dict[tuple[str, str, int], RGB]:
        """Whose turn and what is wrong; the contents of a stack only in the reveal."""
        frame: dict[tuple[str, str, int], RGB] = {}
        pos = self.position
        for i in range(self.cells):
            frame[self._pixel(pos.square(i))] = OFF
        each = self.game.options.pieces_each
        outcome = pos.outcome() if self.state == "over" else None
        for p in PLAYERS:
            ring = [OFF] * ring_pixels
            if self.state in ("play", "repair") and pos.to_play is p:
                lit = -(-ring_pixels * pos.pieces_left(p) // each)  # pieces left, rounded up
                ring = [PLAYER_COLOURS[p]] * lit + [OFF] * (ring_pixels - lit)
            elif outcome is not None:
                winner = outcome.winner
                ring = [GOOD if winner is p else DRAW if winner is None else OFF] * ring_pixels
            for k, rgb in enumerate(ring):
                frame[("ring", p.value, k)] = rgb
        if self.state == "setup" and self.wrong and self.view is not None:
            sq = self.wrong[0]  # one fix at a time: blue for a missing cover, red for extra
            i = pos.index(sq)
            short = self.view[i] < self.cal.zero[i] + self.cal.sizes[Size.LARGE.value - 1]
            frame[self._pixel(sq)] = MISSING if short else EXTRA
        elif self.state == "repair":
            for sq in self.wrong:
                frame[self._pixel(sq)] = EXTRA
        if outcome is not None:
            shown = int((now - self.over_at) / REVEAL_S) + 1
            for s in pos.stacks_scored()[:shown]:
                frame[self._pixel(s.square)] = (PLAYER_COLOURS[s.controller] if s.controller
                                                else DRAW)
        return frame


def _reading(raw: object) -> View:
    """Load-cell counts as journalled (sealed) beside a placement."""
    if not isinstance(raw, list) or not all(type(v) is int for v in raw):
        raise RecordError(f"the load-cell reading {raw!r} is not a list of counts")
    return tuple(raw)
