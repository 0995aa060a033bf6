"""``obelisk demo highrise``: two bots play High Rise on the simulated load cells.

First the table is calibrated, as ``obelisk calibrate highrise`` would do it
with a person: an empty board, then one piece of each size on a1. The bots
put a cover on every square and press to start; the table rolls the hidden
values from the game seed. Each turn the mover puts a pyramid on a stack
(its weight lands on that square's load cell). Once a game a bot does
something that is no move (a piece on two squares, a stray weight, a piece
taken off again); the table lights the square and waits until it is put
right. Nothing the bots print or the table emits shows a hidden value or a
stack's contents before the reveal.
"""

from __future__ import annotations

import dataclasses
import random

from engine.highrise.game import HighriseGame, HighriseOptions, HighriseState, Place
from engine.highrise.sensing import CalibrationError
from firmware.core import events
from firmware.core.settle import QUICK_S
from firmware.core.surroundings import Surroundings
from firmware.core.table_state import TableState
from firmware.highrise.calibrate import calibrate, load_calibration, save_calibration, sim_hand
from firmware.highrise.table import HighriseTable
from firmware.highrise.view import view_of
from firmware.sim.demo_runner import DemoSettings, run_table_demo
from firmware.store.journal import Journal
from firmware.store.resume import Resolved
from hardware.devices import TableDevices
from hardware.profile import Profile, load_profile
from hardware.sim.table import COVER_GRAMS, PYRAMID_GRAMS, SimTable, pad_grams

_STRAY_GRAMS = (PYRAMID_GRAMS[1] + PYRAMID_GRAMS[2]) / 2  # weighs like no pyramid
_MISTAKES = ("two squares", "stray weight", "taken off")


class HighrisePlayers:
    def __init__(self, table: HighriseTable, devices: TableDevices, seed: int) -> None:
        self.table = table
        self.devices = devices
        sim = devices.sim
        assert sim is not None  # a demo plays on the simulated table (its profile's port)
        self.sim: SimTable = sim
        self.seed = seed
        rng = random.Random(f"{seed}:mistake")
        self.mistake_ply = rng.randint(2, 12)
        self.mistake = rng.choice(_MISTAKES)
        self.mistake_done = False

    # ------------------------------------------------------------ the physical board

    def physical(self) -> dict:
        return {"grams": list(self.sim.grams), "mistake_done": self.mistake_done}

    def restore(self, data: dict) -> None:
        for pad, grams in enumerate(data["grams"]):
            self.sim.weigh(pad, grams)
        self.mistake_done = data["mistake_done"]

    def grams_in(self, pos: HighriseState) -> list[float]:
        """What each pad carries in the accepted position: the cover and the pieces (the
        computer's hand in ``firmware/highrise/solo.py`` adds its pyramid to these)."""
        return [pad_grams(size.value for _, size in stack) for stack in pos.stacks]

    def show(self, grams: list[float]) -> None:
        """Hands load the pads until each weighs this much (the computer's hand too)."""
        for pad, g in enumerate(grams):
            if abs(self.sim.grams[pad] - g) > 1e-9:
                self.sim.weigh(pad, g)

    # ------------------------------------------------------------ acting

    def waiting(self) -> bool:
        table = self.table
        return (table.decided == self.sim.load_counts()[: table.cells]
                and table.state in (TableState.setup, TableState.play, TableState.repair))

    def act(self) -> None:
        table = self.table
        if table.state == TableState.setup:
            covers = [COVER_GRAMS] * table.cells
            if list(self.sim.grams[: table.cells]) != covers:
                self.show(covers)
            else:
                self.devices.buttons.press("A")
        elif table.state == TableState.repair:
            self.show(self.grams_in(table.position))
        elif table.state == TableState.play:
            self._move(table.position)

    def _move(self, pos: HighriseState) -> None:
        rng = random.Random(f"{self.seed}:{pos.plies}")
        places = [a for a in pos.legal_actions() if isinstance(a, Place)]  # in play, all are
        place = rng.choice(places)
        grams = self.grams_in(pos)
        i = pos.index(place.square)
        grams[i] += PYRAMID_GRAMS[place.size.value]
        if pos.plies == self.mistake_ply and not self.mistake_done:
            self.mistake_done = True
            other = (i + 1) % pos.options.cells
            if self.mistake == "two squares":
                grams[other] += PYRAMID_GRAMS[1]
            elif self.mistake == "stray weight":
                grams[i] += _STRAY_GRAMS - PYRAMID_GRAMS[place.size.value]
            else:  # a piece placed, and another taken off a stack next door
                grams[i] -= PYRAMID_GRAMS[place.size.value]
                grams[other] -= PYRAMID_GRAMS[1] if pos.stacks[other] else 0
                if not pos.stacks[other]:
                    grams[other] -= COVER_GRAMS  # the cover itself, then
        self.show(grams)


def _calibrate_sim(devices: TableDevices, journal: Journal, emit) -> None:
    """Calibrate like a person would, once per state directory."""
    sim = devices.sim
    assert sim is not None  # the demo's table is the simulated one
    try:
        load_calibration(journal.dir, sim.layout["loads"])
        return
    except CalibrationError:
        pass
    cal = calibrate(devices.link, sim_hand(devices))
    save_calibration(journal.dir, cal)
    emit(events.make("calibrated", sizes=list(cal.sizes), tolerance=cal.tolerance))


def run_demo(settings: DemoSettings) -> int:
    """Play one High Rise game through the whole simulated stack; 0 when it ends."""

    def profile(options: object) -> Profile:
        assert isinstance(options, HighriseOptions)  # resolve refuses another game's journal
        sim = load_profile("sim")
        return dataclasses.replace(sim, scanner=dataclasses.replace(
            sim.scanner, rows=options.rows, cols=options.cols, load_cells=options.cells))

    holder: dict = {}

    def prepare(devices: TableDevices, journal: Journal, emit) -> None:
        _calibrate_sim(devices, journal, emit)
        holder["cal"] = load_calibration(journal.dir, devices.profile.scanner.load_cells)

    def make_table(resolved: Resolved, journal: Journal, around: Surroundings, seed: int,
                   solo) -> HighriseTable:
        options = resolved.options
        assert isinstance(options, HighriseOptions)  # resolve refuses another game's journal
        return HighriseTable(HighriseGame(options), journal, holder["cal"], seed=seed,
                             around=around, settle_s=max(0.3, 0.15 * settings.speed),
                             quick_s=max(QUICK_S, 0.15 / 3 * settings.speed), solo=solo)

    return run_table_demo("highrise", settings, make_table, HighrisePlayers, view_of,
                          profile=profile, prepare=prepare)
