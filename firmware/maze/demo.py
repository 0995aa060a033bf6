"""``obelisk demo maze``: the Architect and the Maze Master as bots on the simulated board.

The Architect puts the obelisk down, the Maze Master the four other
segments. Each turn the Maze Master either stands a wall (the one, of a
few tried, that makes the Architect's shortest route longest) and turns
the lit orientation to it with their button, or presses to pass; the
Architect mostly follows ``plan``'s shortest route, claiming segments by
putting the obelisk on them and holding the button on the lit square.
Once a game the Maze Master tries a wall that would shut a corner off; the
table refuses it and the wall comes off again.
"""

from __future__ import annotations

import random

from engine.errors import ObeliskError
from engine.maze.actions import Action, Move, Orientation, PlaceWall
from engine.maze.board import SIZE
from engine.maze.game import MazeGame, MazeOptions, MazeState, Role
from engine.maze.plan import plan
from engine.maze.record import action_from_dict, action_to_dict
from engine.maze.sensing import MazeView
from firmware.core.settle import QUICK_S
from firmware.core.surroundings import Surroundings
from firmware.core.table_state import TableState
from firmware.maze.table import MazeTable
from firmware.maze.view import view_of
from firmware.sim.demo_runner import DemoSettings, run_table_demo
from firmware.store.journal import Journal
from firmware.store.resume import Resolved
from hardware.devices import TableDevices
from hardware.profile import load_profile
from hardware.sim.table import SimTable

_CORNERS = {(0, 0): Orientation.NE, (0, 7): Orientation.NW, (7, 0): Orientation.SE,
            (7, 7): Orientation.SW}


class MazePlayers:
    def __init__(self, table: MazeTable, devices: TableDevices, seed: int) -> None:
        self.table = table
        self.devices = devices
        sim = devices.sim
        assert sim is not None  # a demo plays on the simulated table (its profile's port)
        self.sim: SimTable = sim
        self.seed = seed
        self.seal_turn = random.Random(f"{seed}:seal").randint(0, 6)
        self.seal_done = False
        self.intended: Action | None = None

    # ------------------------------------------------------------ the physical board

    def physical(self) -> dict:
        return {"stacks": sorted([*sq, h] for sq, h in self.sim.stacks),
                "walls": sorted(map(list, self.sim.walls)), "seal_done": self.seal_done,
                "intended": None if self.intended is None else action_to_dict(self.intended)}

    def restore(self, data: dict) -> None:
        for row, col, height in data["stacks"]:
            self.sim.put((row, col), height)
        self.sim.set_walls(tuple(w) for w in data["walls"])
        self.seal_done = data["seal_done"]
        if data.get("intended"):  # a hand half-way through a move when the power went
            self.intended = action_from_dict(data["intended"])

    def _show(self, pos: MazeState) -> None:
        """Hands set the board as the position has it."""
        want = {sq: 1 for sq in pos.segments}
        if pos.obelisk is not None:
            want[pos.obelisk] = pos.claimed
        for square in self.sim.pieces - set(want):
            self.sim.take(square)
        for square, height in want.items():
            if (square, height) not in self.sim.stacks:
                self.sim.put(square, height)
        self.sim.set_walls(w.square for w in pos.walls)

    def _seen(self) -> MazeView:
        return MazeView(self.sim.pieces, self.sim.walls)

    # ------------------------------------------------------------ acting

    def waiting(self) -> bool:
        return (self.table.decided == self._seen()
                and self.table.state in (TableState.setup, TableState.play, TableState.choose,
                                         TableState.repair))

    def act(self) -> None:
        table = self.table
        pos = table.position
        rng = random.Random(f"{self.seed}:{len(table.actions)}")
        if table.state == TableState.repair:
            self._show(pos)
        elif table.state == TableState.choose:
            self._pick(pos)
        elif pos.phase.value in ("first_segment", "segments"):
            free = [(r, c) for r in range(SIZE) for c in range(SIZE)
                    if (r, c) != pos.obelisk and (r, c) not in pos.segments]
            self.sim.put(rng.choice(free))
        elif pos.phase.value == "wall":
            self._wall(pos, rng)
        elif pos.phase.value == "move":
            self._move(pos, rng)

    def _wall(self, pos: MazeState, rng: random.Random) -> None:
        wall = None
        if not self.seal_done and pos.turn >= self.seal_turn:
            self.seal_done = True
            wall = _sealing_wall(pos)
        elif pos.walls_left and rng.random() < 0.6:
            wall = _nasty_wall(pos, rng)
        if wall is None:
            self.intended = None
            self.devices.buttons.press(Role.MAZE_MASTER.player.value)  # pass
            return
        self.intended = wall
        self.sim.set_walls(self.sim.walls | {wall.square})

    def _move(self, pos: MazeState, rng: random.Random) -> None:
        route = plan(pos).route
        moves = [m for m in pos.legal_actions() if isinstance(m, Move)]  # each is, in this phase
        move = Move(route[0]) if route and rng.random() < 0.85 else rng.choice(moves)
        self.intended = move
        self.sim.take(pos.obelisk_square)
        if move.to in pos.segments:
            self.sim.put(move.to, pos.claimed + 1)  # onto the segment: that switch stays closed
        else:
            self.sim.put(move.to, pos.claimed)

    def _pick(self, pos: MazeState) -> None:
        """Press until the intended action is lit, then hold to confirm it."""
        candidates = self.table.candidates
        role = pos.to_play
        if (self.intended,) not in candidates:
            if role is Role.ARCHITECT and isinstance(self.intended, Move):
                self.sim.put(self.intended.to, pos.claimed)  # it was in the air: put it down
            return
        assert role is not None  # a choice is asked while the game is on: someone is to act
        button = role.player.value
        if candidates[self.table.pick] == (self.intended,):
            self.devices.buttons.press(button, hold=True)
        else:
            self.devices.buttons.press(button)


def _sealing_wall(pos: MazeState) -> PlaceWall | None:
    """A wall that would shut a corner off (the table must refuse it)."""
    for corner, orientation in _CORNERS.items():
        if corner == pos.obelisk or any(w.square == corner for w in pos.walls):
            continue
        wall = PlaceWall(corner, orientation)
        try:
            pos.apply_action(wall)
        except ObeliskError as exc:
            if "shut" in str(exc):
                return wall
    return None


def _nasty_wall(pos: MazeState, rng: random.Random) -> PlaceWall | None:
    """Of a few legal walls, the one that makes the Architect's route longest."""
    best, best_moves = None, -1
    for _ in range(24):
        wall = PlaceWall((rng.randrange(SIZE), rng.randrange(SIZE)), rng.choice(list(Orientation)))
        try:
            after = pos.apply_action(wall)
        except ObeliskError:
            continue
        moves = plan(after).moves or 0
        if moves > best_moves:
            best, best_moves = wall, moves
    return best


def run_demo(settings: DemoSettings) -> int:
    """Play one maze game through the whole simulated stack; 0 when it ends."""

    def make_table(resolved: Resolved, journal: Journal, around: Surroundings, seed: int,
                   solo) -> MazeTable:
        options = resolved.options
        assert isinstance(options, MazeOptions)  # resolve refuses a journal of another game
        return MazeTable(MazeGame(options), journal, around=around, seed=seed,
                         settle_s=max(0.3, 0.04 * settings.speed),
                         quick_s=max(QUICK_S, 0.04 / 3 * settings.speed), solo=solo)

    return run_table_demo("maze", settings, make_table, MazePlayers, view_of,
                          profile=lambda options: load_profile("sim-maze"))

