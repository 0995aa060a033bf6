"""``obelisk run``: the table service, as systemd starts it on the Pi."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

from engine.errors import ObeliskError
from engine.highrise import HighriseGame, HighriseOptions
from engine.highrise_sensing import CalibrationError
from engine.maze import MazeGame, MazeOptions
from engine.stones import StonesGame, StonesOptions
from engine.towers import TowersGame, TowersOptions
from firmware.calibrate import load_calibration
from firmware.highrise_table import HighriseTable, highrise_view
from firmware.journal import Journal
from firmware.maze_table import MazeTable, maze_view
from firmware.service import TableService
from firmware.sets import load_block_set
from firmware.stones_table import StonesTable, stones_view
from firmware.towers_table import TowersTable
from firmware.towers_view import view_of
from hardware.devices import open_table
from hardware.profile import load_profile

log = logging.getLogger("obelisk")


def default_state_dir() -> Path:
    """systemd's StateDirectory when it set one, else ~/.local/state/obelisk."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "obelisk"


def report(event: dict) -> None:
    """Game events go to the log (journald under systemd)."""
    log.info("%s", event)


def run_service(profile_name: str, state_dir: str | None = None,
                options: TowersOptions | StonesOptions | HighriseOptions | MazeOptions | None
                = None) -> int:
    """Run a table until SIGTERM or Ctrl-C; the journal keeps every move.

    ``options`` chooses the game: towers (the default), stones, highrise or maze.
    """
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("transitions").setLevel(logging.WARNING)  # every state change is noise
    profile = load_profile(profile_name)
    journal = Journal(state_dir or default_state_dir())
    calibration = None
    if isinstance(options, HighriseOptions):
        if profile.scanner.load_cells < options.cells:
            raise CalibrationError(
                f"profile {profile.name} has {profile.scanner.load_cells} load cells, but a "
                f"{options.rows}x{options.cols} High Rise needs one under each of its "
                f"{options.cells} squares: pick a smaller --size or a profile with more")
        calibration = load_calibration(journal.dir, options.cells)
    devices = open_table(profile)
    if calibration is not None:
        table = HighriseTable(HighriseGame(options), journal, calibration,
                              seed=int.from_bytes(os.urandom(8), "big"), emit=report,
                              board_cols=profile.scanner.cols or options.cols)
        service = TableService(devices, table, highrise_view)
    elif isinstance(options, MazeOptions):
        if not profile.scanner.wall_sensors or (profile.scanner.rows, profile.scanner.cols) \
                != (8, 8):
            devices.close()
            raise ObeliskError(f"profile {profile.name} has no 8x8 board with wall sensors: "
                               "the maze needs [scanner] board = \"8x8\" and wall_sensors = "
                               "true (hardware/README.md); on the simulated table use "
                               "--profile sim-maze")
        table = MazeTable(MazeGame(options), journal, emit=report)
        service = TableService(devices, table, maze_view)
    elif isinstance(options, StonesOptions):
        table = StonesTable(StonesGame(options), journal, emit=report)
        service = TableService(devices, table, stones_view)
    else:
        table = TowersTable(TowersGame(load_block_set(), options or TowersOptions()), journal,
                            seed=int.from_bytes(os.urandom(4), "big"), emit=report)
        service = TableService(devices, table, view_of)
    signal.signal(signal.SIGTERM, lambda *_: service.stopping.set())
    log.info("obelisk service on profile %s, journal %s", profile.name, journal.path)
    try:
        service.run()
    except KeyboardInterrupt:
        pass
    finally:
        devices.close()
    return 0
