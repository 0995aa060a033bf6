"""Two bots play the toy game on the simulated stones board."""

from __future__ import annotations

import random

from engine.stones.sensing import BoardView
from firmware.sim.demo_runner import DemoSettings, run_table_demo
from firmware.stones.view import view_of
from tests.support.toy.game import NoughtsGame
from tests.support.toy.table import NoughtsTable


class NoughtsPlayers:
    def __init__(self, table: NoughtsTable, devices, seed: int) -> None:
        self.table, self.devices, self.sim = table, devices, devices.sim
        self.seed = seed

    def physical(self) -> dict:
        return {"stacks": sorted([*sq, h] for sq, h in self.sim.stacks)}

    def restore(self, data: dict) -> None:
        for row, col, height in data["stacks"]:
            self.sim.put((row, col), height)

    def waiting(self) -> bool:
        """The table has settled on what the hands did last."""
        return self.table.decided == BoardView.of(self.sim.stacks, 1)

    def act(self) -> None:
        table = self.table
        if table.state == "setup":
            self.devices.buttons.press("A")
            return
        if table.state != "play":
            return
        pos = table.position
        square = random.Random(f"{self.seed}:{len(pos.marks)}").choice(pos.legal_actions())
        self.sim.put(square, 1)


def run_demo(settings: DemoSettings) -> int:
    def make_table(resolved, journal, around, seed: int, solo) -> NoughtsTable:
        return NoughtsTable(NoughtsGame(resolved.options), journal, around=around, seed=seed,
                            settle_s=0.3, solo=solo)

    return run_table_demo("noughts", settings, make_table, NoughtsPlayers, view_of)
