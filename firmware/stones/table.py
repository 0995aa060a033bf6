"""The stones game on the table: squares that empty and fill, and the engine.

``StonesTable`` is the model of a ``transitions`` machine:

    setup --begin--> play <--go_wrong / fixed--> repair
                      |  ^
              ask     |  | picked / moved on
                      v  |
                     choose          play --finish--> over

A switch per square sees occupancy, and optional stack-height sensors also
how tall each stack is. Each settled view is compared with what every legal
move would leave. One fit is played. A view that is the position with one
stone missing is a stone held in the air: its destinations light up. With
occupancy switches only, that view may also be a stack (foundation, obelisk,
pillar); then the player picks with their button (press: next candidate,
hold: this one). Height sensors tell stacking apart, so they need no help.
A stone slid across the board may settle on a square on its way: when the
next settled view is still a legal move of the same stone from the position
before, that move replaces the tentative one. Nothing illegal is recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import ObeliskError
from engine.players import PLAYERS, Player
from engine.record import options_from_dict, options_to_dict
from engine.stones.game import Move, Square, StonesGame, StonesOptions, StonesState
from engine.stones.record import action_from_dict, action_to_dict
from engine.stones.sensing import (
    BoardView,
    candidate_moves,
    destinations,
    lifted_sight,
    sight,
    sight_after,
)
from firmware.journal import Journal
from firmware.resume import read_start, replay
from firmware.table import BoardTable
from firmware.towers.table import GOOD, OFF, PLAYER_COLOURS
from hardware.buttons import ButtonEvent

RGB = tuple[int, int, int]
PICK: RGB = (255, 255, 255)
CANDIDATE: RGB = (0, 0, 200)
WRONG: RGB = (255, 0, 0)
MISSING: RGB = (0, 0, 255)
WARN: RGB = (255, 120, 0)

View = BoardView


class StonesTable(BoardTable):
    STATES = ("setup", "play", "choose", "repair", "over")
    TRANSITIONS = (
        {"trigger": "begin", "source": "setup", "dest": "play"},
        {"trigger": "resumed", "source": "setup", "dest": "play"},
        {"trigger": "ask", "source": "play", "dest": "choose"},
        {"trigger": "picked", "source": "choose", "dest": "play"},
        {"trigger": "go_wrong", "source": ["play", "choose"], "dest": "repair"},
        {"trigger": "fixed", "source": "repair", "dest": "play"},
        {"trigger": "finish", "source": ["play", "choose", "repair"], "dest": "over"},
        {"trigger": "new_game", "source": "over", "dest": "setup", "after": "_next_game"},
    )

    def __init__(self, game: StonesGame, journal: Journal, *,
                 emit: Callable[[dict], None] = lambda event: None,
                 beep: Callable[[], None] = lambda: None, settle_s: float = 0.3) -> None:
        self.game = game
        self.journal = journal
        super().__init__(emit, beep, settle_s)
        self.position: StonesState = game.new_initial_state()
        self.history: list[StonesState] = [self.position]
        self.moves: list[Move] = []
        self.pick = 0
        self.lifted: Square | None = None

    @classmethod
    def for_service(cls, game: StonesGame, journal: Journal, profile, *, seed: int,
                    emit: Callable[[dict], None]) -> StonesTable:
        """The table ``obelisk run`` plays on this profile."""
        return cls(game, journal, emit=emit)

    # ---------------------------------------------------------------- starting

    def start(self, now: float) -> None:
        entries = self.journal.unfinished()
        if not entries:
            self.problem = "set the stones out as at the start, then press a player button"
            return
        self.game = read_start(entries, lambda start: StonesGame(
            options_from_dict(StonesOptions, start["options"])))
        replayed = replay(entries, self.game.new_initial_state(),
                          lambda entry: action_from_dict(entry["action"]))
        self.history, self.moves = list(replayed.history), list(replayed.actions)
        self.position = replayed.state
        self.emit({"event": "resumed", "game": "stones", "plies": self.position.plies})
        self.resumed()
        if self.position.is_terminal():  # its end was not written before the stop
            self.finish()

    # ---------------------------------------------------------------- inputs

    def on_button(self, event: ButtonEvent, now: float) -> None:
        if event.button == "menu" or self.on_button_over(event):
            return
        player = Player(event.button)
        if self.state == "setup":
            if event.kind == "press" and self.decided == self._sight(self.position):
                self.problem = ""
                self.journal.append({"t": "start", "game": "stones",
                                     "options": options_to_dict(self.game.options)})
                self.emit({"event": "start", "game": "stones",
                           "mode": self.game.options.mode.value})
                self.begin()
            return
        if player is not self.position.to_play:
            return
        if self.state == "choose":
            if event.kind == "press":
                self.pick = (self.pick + 1) % len(self.candidates)
            else:
                move = self.candidates[self.pick]
                self.candidates = ()
                self._accept(move)
                if self.state == "choose":
                    self.picked()
        elif self.state == "play" and self.decided == self._sight(self.position):
            # A move no switch can see (a pillar capstone stacking again).
            try:
                silent = candidate_moves(self.position, self.decided, unchanged=True)
            except ObeliskError:
                return
            self._offer(silent)

    # ---------------------------------------------------------------- deciding

    def _sight(self, state: StonesState) -> View:
        """What this table's sensors read for ``state`` (as many levels as they tell)."""
        return sight(state, self.view.levels if self.view is not None else 1)

    def _decide(self, view: View, now: float) -> None:
        if self.state == "setup":
            start = self._sight(self.position)
            self.problem = ("the board is set: press a player button to start" if view == start
                            else "set the stones out as at the start, then press a player button")
            return
        if self.state not in ("play", "choose", "repair"):
            return
        pos = self.position
        self.lifted = None
        if view == self._sight(pos):
            self._leave_choose()
            return
        if self._slide(view):
            return
        legal = pos.legal_actions()
        for square in sorted({m.frm for m in legal}):
            if view != lifted_sight(pos, square, view.levels):
                continue
            # A stone held in the air (or, to occupancy switches, stacked): light where it
            # may go.
            self.lifted = square
            stacks = tuple(m for m in legal
                           if m.frm == square and sight_after(pos, m, view.levels) == view)
            if stacks:
                self._offer(stacks)
            else:
                self._leave_choose()
            return
        try:
            fits = candidate_moves(pos, view)
        except ObeliskError as exc:
            self._wrong(str(exc))
            return
        if len(fits) == 1:
            self._leave_choose()
            self._accept(fits[0])
        else:
            self._offer(fits)

    def _offer(self, fits: tuple[Move, ...]) -> None:
        if self.state == "repair":
            self.fixed()
        self.candidates = tuple(fits)
        self.pick = 0
        if self.state == "play":
            self.ask()
        self.emit({"event": "choose", "player": self.position.to_play.value,
                   "candidates": [self.position.move_to_string(m) for m in fits]})

    def _leave_choose(self) -> None:
        self.candidates = ()
        if self.state == "choose":
            self.picked()
        elif self.state == "repair":
            self.emit({"event": "repaired"})
            self.fixed()

    def _slide(self, view: View) -> bool:
        """A stone that slid on: replace the tentative move if that is still legal."""
        if len(self.history) < 2:
            return False
        before, last = self.history[-2], self.moves[-1]
        try:
            fits = candidate_moves(before, view)
        except ObeliskError:
            return False
        same = [m for m in fits if m.frm == last.frm and m != last
                and m.to not in sight(before).squares]  # it slid on to an empty square
        if len(same) != 1:
            return False
        self.journal.append({"t": "takeback", "to": len(self.moves) - 1})
        self._rewind(len(self.moves) - 1)
        self.emit({"event": "slide", "replaced": before.move_to_string(last)})
        self._leave_choose()
        self._accept(same[0])
        return True

    # ---------------------------------------------------------------- accepting

    def _record(self, move: Move) -> None:
        self.position = self.position.apply_action(move)
        self.history.append(self.position)
        self.moves.append(move)

    def _rewind(self, to: int) -> None:
        self.history = self.history[: to + 1]
        self.moves = self.moves[:to]
        self.position = self.history[-1]

    def _accept(self, move: Move) -> None:
        text = self.position.move_to_string(move)
        mover = self.position.to_play
        self.journal.append({"t": "action", "n": len(self.moves) + 1,
                             "action": action_to_dict(move)})
        self._record(move)
        self.emit({"event": "accepted", "player": mover.value, "move": text,
                   "ply": self.position.plies})
        if self.position.pillar_of(self.position.to_play) is not None:
            self.emit({"event": "warning", "player": self.position.to_play.value,
                       "message": "your capstone must come off this turn"})
        if self.position.is_terminal():
            self.finish()

    def _next_game(self) -> None:
        """After a game: the next starts from the start position (the journal keeps the last)."""
        self.position = self.game.new_initial_state()
        self.history, self.moves, self.lifted = [self.position], [], None
        self.problem = "set the stones out as at the start, then press a player button"
        self.settler.forget()

    def on_enter_over(self) -> None:
        result = self.result()
        self.journal.append({"t": "over", "result": result})
        self.emit(result)

    def result(self) -> dict:
        outcome = self.position.outcome()
        assert outcome is not None
        return {"event": "game_over", "game": "stones",
                "winner": outcome.winner.value if outcome.winner else None,
                "reason": outcome.termination, "plies": self.position.plies}

    # ---------------------------------------------------------------- LEDs

    def led_frame(self, now: float, ring_pixels: int) -> dict[tuple[str, str, int], RGB]:
        frame: dict[tuple[str, str, int], RGB] = {}
        pos = self.position
        cols = pos.options.cols
        for r in range(pos.options.rows):
            for c in range(cols):
                frame[("board", "", r * cols + c)] = OFF
        for p in PLAYERS:
            ring = [OFF] * ring_pixels
            if self.state == "over":
                winner = pos.outcome().winner
                ring = [GOOD if winner is p else WARN if winner is None else WRONG] * ring_pixels
            elif pos.to_play is p and self.state != "setup":
                colour = WARN if pos.pillar_of(p) is not None else PLAYER_COLOURS[p]
                ring = [colour] * ring_pixels
                if ring_pixels >= 2:  # the mover's symmetry as it stands
                    colour_sym, shape_sym = pos.symmetry(p)
                    ring[0] = GOOD if colour_sym else OFF
                    ring[1] = GOOD if shape_sym else OFF
            for i, rgb in enumerate(ring):
                frame[("ring", p.value, i)] = rgb
        if self.view is not None and self.state in ("setup", "repair"):
            now, expect = dict(self.view.heights), dict(self._sight(pos).heights)
            extra = sorted(sq for sq in now if now[sq] > expect.get(sq, 0))
            missing = sorted(sq for sq in expect if expect[sq] > now.get(sq, 0))
            if extra or missing:  # one fix at a time
                r, c = (extra or missing)[0]
                frame[("board", "", r * cols + c)] = WRONG if extra else MISSING
        if self.lifted is not None:
            for r, c in destinations(pos, self.lifted):
                frame[("board", "", r * cols + c)] = CANDIDATE
        for i, move in enumerate(self.candidates):
            r, c = move.to
            frame[("board", "", r * cols + c)] = PICK if i == self.pick else CANDIDATE
        if self.moves and self.state == "play" and not self.candidates:
            r, c = self.moves[-1].to
            frame[("board", "", r * cols + c)] = GOOD
        return frame
