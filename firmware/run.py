"""``obelisk run``: the table service, as systemd starts it on the Pi."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable

from engine.errors import ObeliskError
from engine.highrise.game import HighriseGame, HighriseOptions
from engine.highrise.sensing import CalibrationError
from engine.maze.game import MazeGame, MazeOptions
from engine.stones.game import StonesGame, StonesOptions
from engine.towers.game import TowersGame
from firmware.games import Game
from firmware.highrise.calibrate import load_calibration
from firmware.highrise.table import HighriseTable, highrise_view
from firmware.journal import Journal
from firmware.maze.table import MazeTable, maze_view
from firmware.resume import resolve
from firmware.service import LinkDeadError, TableService
from firmware.state_dir import StateDir, default_state_dir
from firmware.stones.table import StonesTable, stones_view
from firmware.towers.sets import towers_block_set
from firmware.towers.table import TowersTable
from firmware.towers.view import view_of
from hardware.devices import open_table
from hardware.profile import load_profile

log = logging.getLogger("obelisk")

__all__ = ["default_state_dir", "report", "run_service"]


def report(event: dict) -> None:
    """Game events go to the log (journald under systemd)."""
    log.info("%s", event)


def run_service(profile_name: str, state_dir: str | None = None, game: str | None = None,
                chosen: Callable[[Game], dict] = lambda game: {}, *, new_game: bool = False,
                set_path: str | None = None) -> int:
    """Run a table until SIGTERM or Ctrl-C; the journal keeps every move.

    ``game`` is the game typed on the command line (None: the journal's
    unfinished game, else towers) and ``chosen(game)`` the option fields
    typed for it.
    Returns 1 when the scanner link died (so that systemd restarts the
    service); errors a person must fix are raised for the command line.
    """
    running: list[TableService] = []

    def on_sigterm(*_: object) -> None:  # systemd's stop, at any moment, ends cleanly
        if running:
            running[0].stopping.set()
        else:  # still starting: nothing written yet, and the kernel frees the lock
            os._exit(0)

    signal.signal(signal.SIGTERM, on_sigterm)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("transitions").setLevel(logging.WARNING)  # every state change is noise
    profile = load_profile(profile_name)
    where = f" --state-dir {state_dir}" if state_dir else ""
    with StateDir(state_dir or default_state_dir()).open(f"obelisk run{where}") as state:
        journal = Journal(state.path)
        resolved = resolve(journal, game, chosen, new_game=new_game,
                           continue_with=f"`obelisk run{where}` without game options")
        if resolved.archived is not None:
            log.info("the unfinished game is kept in %s; a new game starts", resolved.archived)
        if set_path is not None and resolved.game.id != "towers":
            raise ObeliskError(f"--set is an option of towers, not of {resolved.game.id}")
        options = resolved.options
        calibration = None
        if isinstance(options, HighriseOptions):
            if profile.scanner.load_cells < options.cells:
                raise CalibrationError(
                    f"profile {profile.name} has {profile.scanner.load_cells} load cells, but a "
                    f"{options.rows}x{options.cols} High Rise needs one under each of its "
                    f"{options.cells} squares: pick a smaller --size or a profile with more")
            calibration = load_calibration(journal.dir, options.cells)
        if isinstance(options, MazeOptions) and (
                not profile.scanner.wall_sensors
                or (profile.scanner.rows, profile.scanner.cols) != (8, 8)):
            raise ObeliskError(f"profile {profile.name} has no 8x8 board with wall sensors: "
                               "the maze needs [scanner] board = \"8x8\" and wall_sensors = "
                               "true (hardware/README.md); on the simulated table use "
                               "--profile sim-maze")
        with open_table(profile) as devices:
            if calibration is not None:
                table = HighriseTable(HighriseGame(options), journal, calibration,
                                      seed=int.from_bytes(os.urandom(8), "big"), emit=report,
                                      board_cols=profile.scanner.cols or options.cols)
                service = TableService(devices, table, highrise_view)
            elif isinstance(options, MazeOptions):
                table = MazeTable(MazeGame(options), journal, emit=report)
                service = TableService(devices, table, maze_view)
            elif isinstance(options, StonesOptions):
                table = StonesTable(StonesGame(options), journal, emit=report)
                service = TableService(devices, table, stones_view)
            else:
                block_set = towers_block_set(resolved, set_path)
                table = TowersTable(TowersGame(block_set, options), journal,
                                    seed=int.from_bytes(os.urandom(4), "big"), emit=report)
                service = TableService(devices, table, view_of)
            service.start_table()
            _say_hello(profile, resolved.game.id, journal, table.problem)
            running.append(service)
            try:
                service.run()
            except KeyboardInterrupt:
                pass
            except LinkDeadError as exc:
                log.error("%s", exc)
                return 1
    return 0


def _say_hello(profile, game: str, journal: Journal, waiting: str) -> None:
    """The first line a person reads: what runs, where it keeps the game, what it waits for."""
    log.info("%s table on profile %s, journal %s", game, profile.name, journal.path)
    if waiting:
        log.info("waiting for the players: %s", waiting)
    if profile.simulated:
        log.info("this is the simulated table, and nothing here moves its pieces: to watch a "
                 "whole game, run `obelisk demo %s`; to see every sensor, `obelisk diag`", game)
