"""The maze on the table: piece and wall switches, two buttons, the turn counter.

``MazeTable`` is the model of a ``transitions`` machine:

    setup --ready/resumed--> play <--ask / picked--> choose
                              ^  \\
                       fixed  |   go_wrong
                              |    v
                             repair          play/choose --finish--> over

Setup: the Architect (button A) puts segment 1, the obelisk, on any square;
the Maze Master (button B) the other four. Each turn the Maze Master stands
a wall (the table lights it; press to turn the lit orientation, hold to
confirm) or presses to pass; then the Architect moves the obelisk. Lifting
it lights where it may go; putting it on a segment is a claim, picked the
same way (press: next, hold: this one). The Architect's ring counts the
turns left, green while ``plan`` says the segments can still be gathered in
time, red once not; the Maze Master's ring counts the walls left. What
breaks the rules is lit red and waited out, never recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import NothingPlacedError, ObeliskError
from engine.maze.game import (
    SEGMENTS,
    SIZE,
    Action,
    MazeGame,
    MazeOptions,
    MazeState,
    Move,
    Orientation,
    Pass,
    PlaceSegment,
    PlaceWall,
    Role,
    plan,
    queen_moves,
    square_name,
)
from engine.maze.record import action_from_dict, action_to_dict
from engine.maze.sensing import MazeSensingError, MazeView, read_view, sight
from engine.record import options_from_dict, options_to_dict
from firmware.journal import Journal
from firmware.resume import read_start, replay
from firmware.table import BoardTable
from firmware.towers.table import EXTRA, GOOD, OFF
from hardware.buttons import ButtonEvent

RGB = tuple[int, int, int]
BUTTON = {Role.ARCHITECT: "A", Role.MAZE_MASTER: "B"}
ROLE_COLOURS = {Role.ARCHITECT: (0, 90, 255), Role.MAZE_MASTER: (255, 60, 160)}
CANDIDATE: RGB = (0, 0, 200)
PICK: RGB = (255, 255, 255)
LATE: RGB = (255, 0, 0)


class MazeTable(BoardTable):
    STATES = ("setup", "play", "choose", "repair", "over")
    TRANSITIONS = (
        {"trigger": "ready", "source": "setup", "dest": "play"},
        {"trigger": "resumed", "source": "setup", "dest": "play"},
        {"trigger": "ask", "source": "play", "dest": "choose"},
        {"trigger": "picked", "source": "choose", "dest": "play"},
        {"trigger": "go_wrong", "source": ["setup", "play", "choose"], "dest": "repair"},
        {"trigger": "fixed", "source": "repair", "dest": "play"},
        {"trigger": "back_to_setup", "source": "repair", "dest": "setup"},
        {"trigger": "finish", "source": ["play", "choose"], "dest": "over"},
        {"trigger": "new_game", "source": "over", "dest": "setup", "after": "_next_game"},
    )

    def __init__(self, game: MazeGame, journal: Journal, *,
                 emit: Callable[[dict], None] = lambda event: None,
                 beep: Callable[[], None] = lambda: None, settle_s: float = 0.3) -> None:
        self.game = game
        self.journal = journal
        super().__init__(emit, beep, settle_s)
        self.position: MazeState = game.new_initial_state()
        self.actions: list[Action] = []
        self.pick = 0
        self.lifted: tuple[int, int] | None = None
        self.plan = plan(self.position)

    @classmethod
    def for_service(cls, game: MazeGame, journal: Journal, profile, *, seed: int,
                    emit: Callable[[dict], None]) -> MazeTable:
        """The table ``obelisk run`` plays on this profile: it needs the wall switches."""
        if not profile.scanner.wall_sensors or (profile.scanner.rows, profile.scanner.cols) \
                != (8, 8):
            raise ObeliskError(f"profile {profile.name} has no 8x8 board with wall sensors: "
                               "the maze needs [scanner] board = \"8x8\" and wall_sensors = "
                               "true (hardware/README.md); on the simulated table use "
                               "--profile sim-maze")
        return cls(game, journal, emit=emit)

    # ---------------------------------------------------------------- starting

    def start(self, now: float) -> None:
        entries = self.journal.unfinished()
        if entries:
            self.game = read_start(entries, lambda start: MazeGame(
                options_from_dict(MazeOptions, start["options"])))
            replayed = replay(entries, self.game.new_initial_state(),
                              lambda entry: action_from_dict(entry["action"]))
            self.actions = list(replayed.actions)
            self.position = replayed.state
            self.plan = plan(self.position)
        self._guide()
        if self.actions:
            self.emit({"event": "resumed", "game": "maze", "turn": self.position.turn})
            if self.position.phase.value not in ("first_segment", "segments"):
                self.resumed()
            if self.position.is_terminal():  # its end was not written before the stop
                self.finish()

    def _guide(self) -> None:
        pos = self.position
        if pos.phase.value == "first_segment":
            self.problem = "Architect: put segment 1, the obelisk, on any square"
        elif pos.phase.value == "segments":
            left = SEGMENTS - 1 - len(pos.segments)
            self.problem = (f"Maze Master: put the other segments on squares of your choice "
                            f"({left} to go)")
        else:
            self.problem = ""

    # ---------------------------------------------------------------- inputs

    def on_button(self, event: ButtonEvent, now: float) -> None:
        if self.on_button_over(event):
            return
        mover = self.position.to_play
        if mover is None or event.button != BUTTON[mover]:
            return
        if self.state == "choose":
            if event.kind == "press":
                self.pick = (self.pick + 1) % len(self.candidates)
                return
            action = self.candidates[self.pick]
            self.candidates = ()
            self.lifted = None
            self.picked()
            self._try(action)
        elif (self.state == "play" and self.position.phase.value == "wall"
              and event.kind == "press" and self.decided == sight(self.position)):
            self._try(Pass())

    # ---------------------------------------------------------------- deciding

    def _decide(self, view: MazeView, now: float) -> None:
        if self.state == "over":
            return
        self.lifted = None
        try:
            reading = read_view(self.position, view)
        except NothingPlacedError:
            self._settled_back()
            return
        except MazeSensingError as exc:
            self._wrong(str(exc), exc.squares)
            return
        self._settled_back()
        if reading.wall_at is not None:
            self._offer(tuple(PlaceWall(reading.wall_at, o) for o in Orientation))
        elif reading.lifted is not None:
            self.lifted = reading.lifted
            if reading.claims:
                self._offer(reading.claims)
        for action in reading.actions:
            self._try(action)

    def _settled_back(self) -> None:
        """The board matches the position again: leave a repair or a stale choice."""
        self.candidates = ()
        self.wrong = ()
        if self.state == "choose":
            self.picked()
        elif self.state == "repair":
            if self.position.phase.value in ("first_segment", "segments"):
                self.back_to_setup()
            else:
                self.fixed()
            self.emit({"event": "repaired"})
        self._guide()

    def _offer(self, candidates: tuple[Action, ...]) -> None:
        self.candidates = candidates
        self.pick = 0
        if self.state == "play":
            self.ask()
        mover = self.position.to_play
        self.emit({"event": "choose", "role": mover.value,
                   "candidates": [str(a) for a in candidates]})

    def _try(self, action: Action) -> None:
        """Play ``action`` if the rules allow it; otherwise show why and wait."""
        try:
            after = self.position.apply_action(action)
        except ObeliskError as exc:
            if isinstance(action, PlaceWall):
                self._wrong(f"{exc}: take the wall off", (action.square,))
            else:
                self._wrong(str(exc), ())
            return
        if not self.actions:
            self.journal.append({"t": "start", "game": "maze",
                                 "options": options_to_dict(self.game.options)})
        self.journal.append({"t": "action", "n": len(self.actions) + 1,
                             "action": action_to_dict(action)})
        mover = self.position.to_play
        claimed_before = self.position.claimed
        self._record(action, after)
        pos = self.position
        event = {"event": _kind(action), "role": mover.value, **_fields(action)}
        if isinstance(action, Move):
            event.update({"claimed": pos.claimed, "new_claim": pos.claimed > claimed_before})
        if pos.phase.value in ("wall", "move", "over"):
            event.update({"turns_left": pos.turns_left, "walls_left": pos.walls_left,
                          "plan": self.plan.moves, "in_time": self.plan.enough})
        self.emit(event)
        self._guide()
        if pos.is_terminal():
            self.finish()
        elif self.state == "setup" and pos.phase.value == "wall":
            self.ready()

    def _record(self, action: Action, after: MazeState | None = None) -> None:
        self.position = after or self.position.apply_action(action)
        self.actions.append(action)
        self.plan = plan(self.position)

    def _next_game(self) -> None:
        """After a game: clear the board and set up the next (the journal keeps the last)."""
        self.position = self.game.new_initial_state()
        self.actions, self.lifted, self.plan = [], None, plan(self.position)
        self._guide()
        self.settler.forget()

    def on_enter_over(self) -> None:
        result = self.result()
        self.journal.append({"t": "over", "result": result})
        self.emit(result)

    def result(self) -> dict:
        pos = self.position
        winner = pos.winner()
        assert winner is not None
        return {"event": "game_over", "game": "maze", "winner": winner.value,
                "claimed": pos.claimed, "turns_used": pos.turn, "walls_used": len(pos.walls)}

    # ---------------------------------------------------------------- LEDs

    def led_frame(self, now: float, ring_pixels: int) -> dict[tuple[str, str, int], RGB]:
        frame: dict[tuple[str, str, int], RGB] = {}
        pos = self.position
        for r in range(SIZE):
            for c in range(SIZE):
                frame[("board", "", r * SIZE + c)] = OFF
        limit, walls = pos.options.turns, pos.options.walls
        rings = {
            Role.ARCHITECT: (pos.turns_left, limit, GOOD if self.plan.enough else LATE),
            Role.MAZE_MASTER: (pos.walls_left, walls, ROLE_COLOURS[Role.MAZE_MASTER]),
        }
        for role, (left, full, colour) in rings.items():
            lit = -(-ring_pixels * left // full) if left else 0
            ring = [colour] * lit + [OFF] * (ring_pixels - lit)
            if self.state == "over":
                ring = [GOOD if pos.winner() is role else OFF] * ring_pixels
            elif pos.to_play is role and ring_pixels:
                ring[-1] = ROLE_COLOURS[role]  # the last pixel: whose turn
            for k, rgb in enumerate(ring):
                frame[("ring", BUTTON[role], k)] = rgb
        if self.lifted is not None:
            for r, c in queen_moves(pos.cut, self.lifted):
                frame[("board", "", r * SIZE + c)] = CANDIDATE
        for i, action in enumerate(self.candidates):
            colour = PICK if i == self.pick else CANDIDATE
            if isinstance(action, PlaceWall):
                if i != self.pick:
                    continue  # one orientation at a time: the wall and the sides it blocks
                r, c = action.square
                frame[("board", "", r * SIZE + c)] = PICK
                for side in action.orientation.sides:
                    nr, nc = r + side.value[0], c + side.value[1]
                    if 0 <= nr < SIZE and 0 <= nc < SIZE:
                        frame[("board", "", nr * SIZE + nc)] = EXTRA
            else:
                r, c = action.to
                frame[("board", "", r * SIZE + c)] = colour
        for r, c in self.wrong if self.state == "repair" else ():
            frame[("board", "", r * SIZE + c)] = EXTRA
        return frame


def _kind(action: Action) -> str:
    return {PlaceSegment: "segment", PlaceWall: "wall", Pass: "pass", Move: "move"}[type(action)]


def _fields(action: Action) -> dict:
    if isinstance(action, PlaceSegment):
        return {"square": square_name(action.square)}
    if isinstance(action, PlaceWall):
        return {"square": square_name(action.square), "orientation": action.orientation.value}
    if isinstance(action, Move):
        return {"to": square_name(action.to)}
    return {}
