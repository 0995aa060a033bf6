"""``obelisk run``: the table service, as systemd starts it on the Pi."""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import os
import signal
from collections.abc import Callable

from firmware.contract import GameType
from firmware.core import events
from firmware.core.surroundings import Surroundings
from firmware.readers.terminal.screen import headline, seat_names
from firmware.seats.seating import seated
from firmware.service.loop import LinkDeadError, TableService
from firmware.service.stream import serve_table
from firmware.store.journal import Journal
from firmware.store.resume import resolve
from firmware.store.state_dir import StateDir, default_state_dir
from hardware.devices import open_table
from hardware.profile import Profile, load_profile

log = logging.getLogger("obelisk")

__all__ = ["default_state_dir", "report", "run_service"]


def report(event: dict, names: dict[str, str] | None = None) -> None:
    """Game events go to the log (journald under systemd), each in a line a person reads,
    each seat by the game's name for it (not the LEDs' every change: those are for the page
    to draw)."""
    said = "" if event["event"] in events.QUIET else headline(event, names)
    if said:
        log.info("%s", said)


def run_service(profile_name: str, state_dir: str | None = None, game: str | None = None,
                chosen: Callable[[GameType], dict] = lambda game: {}, *, new_game: bool = False,
                extras: Callable[[GameType], dict] = lambda game: {}, solo=None) -> int:
    """Run a table until SIGTERM or Ctrl-C; the journal keeps every move.

    ``game`` is the game typed on the command line (None: the journal's
    unfinished game, else towers), ``chosen(game)`` the option fields typed
    for it and ``extras(game)`` what it is made of (``--set``); ``solo`` (a
    ``firmware.seats.solo.Solo``) seats the computer. Returns 1
    when the scanner link died (so that systemd restarts the service);
    errors a person must fix are raised for the command line.
    """
    running: list[TableService] = []
    stopped_by: list[int] = []

    def on_stop(signum: int, _frame: object) -> None:
        """systemd's stop or Ctrl-C, at any moment, ends cleanly: a running loop finishes its
        turn; while still starting there is nothing to finish (what is written is fsynced
        whole, and the kernel frees the lock), so it ends at once. Ctrl-C raising anywhere
        during the start could leave the threads begun so far running, the command hung."""
        if running:
            stopped_by.append(signum)
            running[0].stopping.set()
        else:
            os._exit(130 if signum == signal.SIGINT else 0)

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("transitions").setLevel(logging.WARNING)  # every state change is noise
    profile = load_profile(profile_name)
    where = f" --state-dir {state_dir}" if state_dir else ""
    with StateDir(state_dir or default_state_dir()).open(f"obelisk run{where}") as state:
        journal = Journal(state.path)
        resolved = resolve(journal, game, chosen, new_game=new_game, extras=extras,
                           continue_with=f"`obelisk run{where}` without game options")
        if resolved.archived is not None:
            log.info("the unfinished game is kept in %s; a new game starts", resolved.archived)
        spec = resolved.game
        computer = seated(journal, spec.id, None if solo is None else solo.far_seat(spec.id))
        # On a Pi, a table not wired up yet still starts (and tells systemd it is ready):
        # what is missing is said in the log and on the page, with what to do.
        with open_table(profile, tolerant=True) as devices, \
                contextlib.ExitStack() as later:
            around = Surroundings(listeners=[functools.partial(
                report, names=seat_names(spec.id))], beep=devices.buttons.beep)
            table = spec.table_class().for_service(resolved.make(), journal, profile,
                                                 seed=int.from_bytes(os.urandom(8), "big"),
                                                 around=around, solo=computer)
            stream = serve_table(table, state.path)  # for `obelisk watch` and the page
            if stream is not None:
                later.callback(stream.close)
            # the stream's readers hear of each move after its LED frame
            service = TableService(devices, table, spec.view_of(), stream=stream,
                                   pin_dir=state.path)
            service.start_table()
            _say_hello(profile, spec.id, journal, table.problem)
            service.after_ready.append(lambda: _after_ready(
                service, state.path, profile, journal, solo, later))
            running.append(service)
            try:
                service.run()
            except LinkDeadError as exc:
                log.error("%s", exc)
                return 1
    return 130 if signal.SIGINT in stopped_by else 0


def _after_ready(service: TableService, directory, profile: Profile, journal: Journal, solo,
                 later: contextlib.ExitStack) -> None:
    """In the loop's first turn, just after READY=1: the simulated buttons' socket, the
    page's controls (the table PIN, made once, then the command socket; without a PIN the
    table plays on, run from its buttons only), and then the collector back on.

    Until the command socket exists, a command gets "the table is starting" from
    ``firmware.service.command_socket.send``.
    """
    from firmware.service.command_socket import serve_commands
    from firmware.service.pin import PinError
    from firmware.service.table_maker import TableMaker  # the page's, not the table's
    from firmware.sim.fingers import serve_fingers

    fingers = serve_fingers(service.devices.buttons, profile, directory)
    if fingers is not None:
        later.callback(fingers.close)
    try:
        service.load_pin()
    except PinError as exc:
        log.warning("%s; the page cannot control this table", exc)
    else:
        controls = serve_commands(service, directory, TableMaker(profile, journal, solo=solo))
        if controls is not None:
            later.callback(controls.close)
    # `obelisk run` starts with the collector off (start-up makes much and frees little):
    # its garbage goes now, once. What is left lives as long as the service: the collector's
    # full passes (tens of milliseconds on a Pi, maybe in the middle of a move) need not
    # walk it.
    gc.collect()
    gc.freeze()
    gc.enable()


def _say_hello(profile: Profile, game: str, journal: Journal, waiting: str) -> None:
    """The first line a person reads: what runs, where it keeps the game, what it waits for."""
    log.info("%s table on profile %s, journal %s", game, profile.name, journal.path)
    if waiting:
        log.info("waiting for the players: %s", waiting)
    if profile.simulated:
        log.info("this is the simulated table, and nothing here moves its pieces: to watch a "
                 "whole game, run `obelisk demo %s`; to see every sensor, `obelisk diag`", game)
