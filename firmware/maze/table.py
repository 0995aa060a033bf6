"""The maze on the table: piece and wall switches, two buttons, the turn counter.

``MazeTable`` is the table core (``firmware.core.table.Table``) with the maze's
sensors: a switch under each square closes under a piece, a second one
under a wall (``engine.maze.sensing`` says what a settled view means).
Player A is the Architect, player B the Maze Master.

The game begins when the Architect (button A) puts segment 1, the obelisk,
on the cleared board (or a button is pressed on it); the Maze Master
(button B) then puts the other four on squares of their choice. Each turn
the Maze Master stands a wall (the switches see where, not which way it
faces: the table lights one orientation at a time; press to turn it, hold
to confirm) or presses to pass; then the Architect moves the obelisk.
Lifting it lights where it may go; putting it on a segment changes no
switch there, so that claim is picked the same way (press: next, hold:
this one). The Architect's ring counts the turns left, green while
``plan`` says the segments can still be gathered in time, red once not;
the Maze Master's ring counts the walls left. What breaks the rules is lit
red and waited out, never recorded.

A board put back as it stood before the last actions (the last wall taken
off again, the obelisk back on its square while the Maze Master is to act)
offers those actions back; the buttons of whoever made them confirm.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from engine.core import counted, square_name
from engine.errors import ObeliskError
from engine.maze import record
from engine.maze.actions import Action, Move, Pass, PlaceSegment, PlaceWall, Square
from engine.maze.board import queen_moves
from engine.maze.game import ROLE_NAMES, SEGMENTS, MazeGame, MazeState, Role
from engine.maze.plan import Plan, plan
from engine.maze.sensing import MazeSensingError, MazeView, read_view, sight, takeback_of
from engine.players import Player
from engine.reading import Reading
from firmware.core.hooks import Records, SeatAfar
from firmware.core.palette import Frame
from firmware.core.surroundings import Surroundings
from firmware.core.table import Table
from firmware.maze import leds
from firmware.store.journal import Journal
from hardware.profile import Profile

ARCHITECT, MAZE_MASTER = Role.ARCHITECT.player, Role.MAZE_MASTER.player


def _out_of_reach(pos: MazeState, frm: Square, reach) -> str:
    """The segments the obelisk lifted off ``frm`` cannot claim this move, and what to do if
    it stands on one: "; it cannot reach segment 2 on e6 (why): if it stands there, put it
    back on d4" ("" when every segment is in reach)."""
    out = sorted((sq for sq in pos.segments if sq not in reach), key=pos.number_on)
    if not out:
        return ""
    back = f"put it back on {square_name(frm)}"
    if len(out) == 1:
        (to,) = out
        return (f"; it cannot reach {pos.piece_on(to)} on {square_name(to)} "
                f"({pos.why_not(frm, to)}): if it stands there, {back}")
    names = [f"{pos.piece_on(sq)} on {square_name(sq)}" for sq in out]
    return (f"; it cannot reach {', '.join(names[:-1])} or {names[-1]}: if it stands on "
            f"one, {back}")


def _then(n: int) -> str:
    """The segments that go down after segment ``n``, in turn: " (then 4 and 5)"; none after 5."""
    rest = [str(k) for k in range(n + 1, SEGMENTS + 1)]
    if len(rest) > 1:
        rest = [f"{', '.join(rest[:-1])} and {rest[-1]}"]
    return f" (then {rest[0]})" if rest else ""


class MazeTable(Table[MazeView, MazeState]):
    SETUP = ("clear the board of pieces and walls; then the Architect puts segment 1, "
             "the obelisk, on any square")
    READY = ("the board is clear: the Architect puts segment 1, the obelisk, on any square "
             "to start the game")
    record: ClassVar[Records] = record  # annotated: mypy reads a bare module as an instance's
    # the table is what its LEDs read of it (``leds.LitTable``): mypy checks it here
    draw_leds: ClassVar[Callable[[MazeTable, float, int], Frame]] = leds.frame
    SEATS: ClassVar[dict[str, str]] = ROLE_NAMES

    def __init__(self, game: MazeGame, journal: Journal, **kwargs) -> None:
        super().__init__(game, journal, **kwargs)
        self._planned: tuple[MazeState, Plan] | None = None

    @classmethod
    def for_service(cls, game: MazeGame, journal: Journal, profile: Profile, *, seed: int,
                    around: Surroundings, solo: SeatAfar | None = None) -> MazeTable:
        """The table ``obelisk run`` plays on this profile: it needs the wall switches."""
        if not profile.scanner.wall_sensors or (profile.scanner.rows, profile.scanner.cols) \
                != (8, 8):
            raise ObeliskError(f"profile {profile.name} has no 8x8 board with wall sensors: "
                               "the maze needs [scanner] board = \"8x8\" and wall_sensors = "
                               "true (hardware/README.md); on the simulated table use "
                               "--profile sim-maze")
        return cls(game, journal, around=around, seed=seed, solo=solo)

    @property
    def plan(self) -> Plan:
        """The Architect's shortest way to every segment from the position (kept per position)."""
        if self._planned is None or self._planned[0] is not self.position:
            self._planned = (self.position, plan(self.position))
        return self._planned[1]

    # ---------------------------------------------------------------- words

    def _phase_words(self, state: MazeState | None = None) -> str:
        """What the one to act does (the turn names them, by their role, before these)."""
        pos = self.position if state is None else state
        phase = pos.phase.value
        if phase == "first_segment":
            return "put segment 1, the obelisk, on any square"
        if phase == "segments":
            return f"put segment {pos.next_number} on a square of your choice" \
                + _then(pos.next_number)
        if phase == "wall":
            if not pos.walls_left:
                return "every wall stands: press your button to pass"
            return f"stand a wall ({pos.walls_left} left) or press your button to pass"
        if phase == "move":
            lifted = self.lifted
            doing = "move the obelisk like a queen" if state is not None or lifted is None \
                else self._lifted_words(lifted)
            return f"{doing} (turn {pos.turn + 1} of {pos.options.turns})"
        return "the game is over"

    def _lifted_words(self, frm: Square) -> str:
        """The obelisk off its square ``frm``: the switches cannot tell it in the hand from it
        on a segment, so what to do on each (and a segment out of its reach is named, with
        why)."""
        pos = self.position
        words = f"the obelisk is off {square_name(frm)}: put it down on a lit square"
        reach = queen_moves(pos.cut, frm)
        if any(s in reach for s in pos.segments):
            words += "; if it stands on a lit segment, hold your button"
        return words + _out_of_reach(pos, frm, reach)

    def _words(self, action: Action, pos: MazeState | None = None) -> str:
        """An action as the set shows it: each segment by the number its wooden piece
        carries (the table asks for them in turn, 2 to 5; the switches cannot read a label,
        so segments put down together are numbered in the order they are recorded)."""
        pos = self.position if pos is None else pos
        if isinstance(action, PlaceSegment):
            if pos.phase.value == "first_segment":
                return f"the obelisk, segment 1, on {square_name(action.square)}"
            return f"segment {pos.next_number} on {square_name(action.square)}"
        if isinstance(action, Move) and action.to in pos.segments:
            return (f"the {action}, claiming {pos.piece_on(action.to)} (the obelisk now "
                    f"{pos.claimed + 1} of {SEGMENTS} segments tall)")
        if isinstance(action, Move):
            return f"the {action}"
        return str(action)

    def _done(self, action: Action, pos: MazeState | None = None) -> str:
        """What the Architect or the Maze Master did, in the words of the rules (puts a
        segment, moves the obelisk, stands a wall, passes)."""
        if isinstance(action, Pass):
            return "passed"
        verb = {PlaceSegment: "put", Move: "moved", PlaceWall: "stood a"}[type(action)]
        return f"{verb} {self._words(action, pos)}"

    # ---------------------------------------------------------------- reading

    def ready(self, view: MazeView) -> bool:
        """The board is clear: the Architect may put the obelisk down."""
        return view == sight(self.game.new_initial_state())

    def _reading(self, view: MazeView) -> Reading:
        """The sensors' reading; one that means nothing legal may be the board as it stood
        before the last actions: those are offered back."""
        try:
            return read_view(self.position, view)
        except MazeSensingError:
            takeback = takeback_of(self.history, view)
            if takeback is None:
                raise
            return Reading(takeback=takeback)

    def _question(self, reading: Reading) -> str:
        if reading.lifted is not None and len(reading.choices) == 1:
            (claim,) = reading.choices[0]
            return (f"put the obelisk down on a lit square; if it stands on "
                    f"{self.position.piece_on(claim.to)} on {square_name(claim.to)}, hold your "
                    "button")
        if reading.lifted is not None:
            return ("put the obelisk down on a lit square, or, if it stands on a segment, "
                    "press your button to light that one and hold it")
        square = reading.choices[0][0].square
        return (f"which way does the wall on {square_name(square)} face? Press your button "
                "to turn the lit one, hold it when it is right")

    def _setup_view(self, view: MazeView) -> None:
        """Before a game: the first piece on the cleared board is the obelisk; it begins."""
        self.repair.where = ()
        if self.ready(view):
            self.problem = self._ready_words()
            return
        if not view.walls and len(view.pieces) == 1:
            self.starter.begin()
            self._accept((PlaceSegment(next(iter(view.pieces))),))
            return
        self.repair.refuse("clear the board first: take the lit pieces and walls off, then the "
                    "Architect puts the obelisk on any square",
                    tuple(sorted(view.pieces | view.walls)), kind="task")

    def _ready_words(self) -> str:
        """What starts the game on the clear board, and who does it: the Architect, or,
        when the Architect's seat is played from afar, the person here for it."""
        if self.solo is None or self.solo.seat is not ARCHITECT:
            return self.READY
        architect = self.players()[ARCHITECT.value]
        return self.solo.doing(self, "the board is clear: put segment 1, the obelisk, on any "
                                     f"square for {architect} to start the game")

    def _play_button(self, player: Player, kind: str) -> None:
        """The Maze Master presses to pass, while the board is as the position has it."""
        pos = self.position
        if (kind == "press" and player is MAZE_MASTER and pos.phase.value == "wall"
                and self.decided == sight(pos)):
            self._accept((Pass(),))

    # ---------------------------------------------------------------- recording

    def _refusal(self, action: Action, exc: ObeliskError) -> tuple[str, tuple]:
        """A wall the rules refuse (one that shuts a square off) is lit to come off."""
        if isinstance(action, PlaceWall):
            return f"{exc}: take the wall off", (action.square,)
        return str(exc), ()

    def _accepted(self, before: MazeState) -> None:
        """Say it once when the Architect can no longer gather every segment in time."""
        pos = self.position
        if pos.is_terminal() or pos.phase.value not in ("wall", "move"):
            return
        was = None
        if before.phase.value in ("wall", "move"):  # planned already, as the last `now`
            kept = self._planned
            was = kept[1] if kept is not None and kept[0] is before else plan(before)
        now = self.plan
        assert now.moves is not None  # no wall may shut a square off: every segment has a way
        if not now.enough and (was is None or was.enough):
            self.tell("notice", player=ARCHITECT.value,
                      message=f"every segment now takes {counted(now.moves, 'move')}, more "
                              f"than the {counted(pos.turns_left, 'turn')} left")

