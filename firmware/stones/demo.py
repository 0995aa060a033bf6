"""``obelisk demo stones``: two bots play stones on the simulated board.

The bots set the stones out, then each turn pick a legal move (seeded by the
game seed and the ply, so the same seed plays the same game) and make it
with their hands: a stone taken off one square and put on another. With a
switch per square, stacking and the moves no switch can see go through the
button, as a person would do it: press until the table lights the right
square, then hold; with stack-height sensors they need none. Once a game, a
bot first tries a stone straight forward, which the table refuses; the bot
puts it back and plays a legal move.
"""

from __future__ import annotations

import dataclasses
import random

from engine.stones.game import Move, StonesGame, StonesOptions, StonesState
from engine.stones.sensing import BoardView, Heights, sight, sight_after, stack_heights
from firmware.core.settle import QUICK_S
from firmware.core.surroundings import Surroundings
from firmware.core.table_state import TableState
from firmware.sim.demo_runner import DemoSettings, run_table_demo
from firmware.stones.table import StonesTable
from firmware.stones.view import view_of
from firmware.store.journal import Journal
from firmware.store.resume import Resolved
from hardware.devices import TableDevices
from hardware.profile import Profile, load_profile

_HOLD_S = 0.05


class StonesPlayers:
    def __init__(self, table: StonesTable, devices: TableDevices, seed: int) -> None:
        self.table = table
        self.devices = devices
        sim = devices.sim
        assert sim is not None  # a demo's table is the simulated one
        self.sim = sim
        self.levels = self.sim.layout.get("stack", 1)
        self.seed = seed
        self.illegal_ply = random.Random(seed).randint(1, 6)
        self.illegal_done = False
        for button in devices.buttons.buttons.values():
            button.hold_time = _HOLD_S
        devices.buttons.hold_s = _HOLD_S

    # ------------------------------------------------------------ the physical board

    def physical(self) -> dict:
        """The board as plain data (it survives a power cut)."""
        return {"stacks": sorted([*sq, h] for sq, h in self.sim.stacks),
                "illegal_done": self.illegal_done}

    def restore(self, data: dict) -> None:
        for row, col, height in data["stacks"]:
            self.sim.put((row, col), height)
        self.illegal_done = data["illegal_done"]

    def show(self, heights: Heights) -> None:
        """Hands move stones until the board holds stacks this tall (the computer's hand
        in ``firmware/stones/solo.py`` sets its move out so too)."""
        for square in self.sim.pieces - {sq for sq, _ in heights}:
            self.sim.take(square)
        for square, height in heights - self.sim.stacks:
            self.sim.put(square, height)

    def _seen(self) -> BoardView:
        return BoardView.of(self.sim.stacks, self.levels)

    # ------------------------------------------------------------ acting

    def waiting(self) -> bool:
        table = self.table
        return (table.decided == self._seen()
                and table.state in (TableState.setup, TableState.play, TableState.choose,
                                    TableState.repair))

    def act(self) -> None:
        table = self.table
        pos = table.position
        if table.state == TableState.setup:
            start = stack_heights(pos)
            if self.sim.stacks != start:
                self.show(start)
            else:
                self.devices.buttons.press("A")
        elif table.state == TableState.repair:
            self.show(stack_heights(pos))
        elif table.state == TableState.choose:
            self._pick(pos)
        elif table.state == TableState.play:
            self._move(pos)

    def _planned(self, pos: StonesState) -> Move:
        rng = random.Random(f"{self.seed}:{pos.plies}:{pos.to_play.value}")
        return rng.choice(pos.legal_actions())

    def _move(self, pos: StonesState) -> None:
        if pos.plies == self.illegal_ply and not self.illegal_done:
            self.illegal_done = True
            if self._illegal(pos):
                return
        move = self._planned(pos)
        if sight_after(pos, move, self.levels) == sight(pos, self.levels):
            self.devices.buttons.press(pos.to_play.value)  # no switch will see this one
        else:
            self.show(stack_heights(pos.apply_action(move)))

    def _illegal(self, pos: StonesState) -> bool:
        """Push one of the mover's stones straight forward, which the rules forbid."""
        step = 1 if pos.to_play.value == "A" else -1
        occupied = {sq for sq, _ in pos.stacks}
        for square, stack in pos.stacks:
            if stack[0].owner is pos.to_play and len(stack) == 1:
                ahead = (square[0] + step, square[1])
                if 0 <= ahead[0] < pos.options.rows and ahead not in occupied:
                    self.show(stack_heights(pos) - {(square, 1)} | {(ahead, 1)})
                    return True
        return False

    def _pick(self, pos: StonesState) -> None:
        """Press until the planned move is lit, then hold to confirm it."""
        move = self._planned(pos)
        candidates = self.table.candidates
        if (move,) not in candidates:  # the stone was lifted for another move: put it there
            self.show(stack_heights(pos.apply_action(move)))
            return
        player = pos.to_play.value
        if candidates[self.table.pick] == (move,):
            self.devices.buttons.press(player, hold=True)
        else:
            self.devices.buttons.press(player)


def run_demo(settings: DemoSettings, *, stack_sensors: bool = False) -> int:
    """Play one stones game through the whole simulated stack; 0 when it ends.

    ``stack_sensors`` simulates a board with stack-height sensors (three levels).
    """

    def profile(options: object) -> Profile:
        sim = load_profile("sim")
        return dataclasses.replace(sim, scanner=dataclasses.replace(
            sim.scanner, stack_levels=3 if stack_sensors else 1))

    def make_table(resolved: Resolved, journal: Journal, around: Surroundings, seed: int,
                   solo) -> StonesTable:
        options = resolved.options
        assert isinstance(options, StonesOptions)  # resolved for "stones"
        return StonesTable(StonesGame(options), journal, around=around, seed=seed,
                           settle_s=max(0.3, 0.04 * settings.speed),
                           quick_s=max(QUICK_S, 0.04 / 3 * settings.speed), solo=solo)

    return run_table_demo("stones", settings, make_table, StonesPlayers, view_of,
                          profile=profile)
