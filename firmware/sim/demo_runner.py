"""What every table demo shares: the state directory, the simulated table, the output.

A demo gives a table (the game's state machine), players that act on the
simulated table, and how to show an event to a person; ``run_table_demo``
takes the state directory (locked, as ``obelisk run`` does), finds out which
game it holds, wires the whole stack and plays until the game is over.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ObeliskError
from firmware import typed
from firmware.core.events import QUIET
from firmware.core.surroundings import Surroundings
from firmware.core.table_state import TableState
from firmware.games import GAMES
from firmware.readers.terminal.screen import Screen
from firmware.seats.seating import seated
from firmware.service.loop import TableService
from firmware.service.stream import serve_table
from firmware.sim.table_file import TableFile
from firmware.store.journal import Journal
from firmware.store.resume import Resolved, ResumeError, resolve
from firmware.store.state_dir import StateDir
from hardware.devices import TableDevices, open_table
from hardware.profile import Profile, load_profile

PHYSICAL = "sim-table.json"
"""The simulated table as plain data, written after every act of the bots
(``firmware.sim.table_file``, as ``obelisk play``'s board keeps its own): a real table
would survive the Pi losing power."""
DEFAULT_SEED = 1
SHORTEST_REAL_TURN_S = 0.6
"""Real seconds a demo turn needs: the bots' hands, the board's debounce and its
load-cell readings (every 25 ms, LOAD_EVERY_MS) all run in real time (on 2 busy
cores 0.4 s ran out every turn and 0.5 s just held; the default 60 s hourglass at
--speed 100 is 0.6 s)."""


SHORTEST_HOLD_S = 0.3
"""A demo's hold lasts the profile's hold_s sped up like the rest of its time, but no less
than this: a bot's press must never last long enough to read as a hold, even when a busy
machine stops its thread between pressing and letting go."""


def quick_holds(profile: Profile, speed: float) -> Profile:
    """The profile with its buttons' hold as long as the demo's speed makes it (a bot holds
    a button for a time's real seconds, which the demo would otherwise wait out in full)."""
    hold = max(SHORTEST_HOLD_S, profile.buttons.hold_s / speed)
    if hold >= profile.buttons.hold_s:
        return profile
    return dataclasses.replace(profile, buttons=dataclasses.replace(profile.buttons,
                                                                    hold_s=hold))


class DemoTooFastError(ObeliskError):
    """The hourglass would run out before the simulated hands could act."""


def keep_up(options: object, speed: float) -> None:
    """Refuse a demo whose hourglass, sped up, is shorter than a turn takes in real time."""
    hourglass = getattr(options, "hourglass_s", None)
    if hourglass is None or hourglass / speed >= SHORTEST_REAL_TURN_S:
        return
    raise DemoTooFastError(
        f"at --speed {speed:g} a {hourglass:g} s hourglass lasts {hourglass / speed:.2f} s of "
        f"real time, shorter than the simulated hands need for a turn "
        f"({SHORTEST_REAL_TURN_S:g} s), so every turn would run out: use --speed "
        f"{math.floor(10 * hourglass / SHORTEST_REAL_TURN_S) / 10:g} or less, or --hourglass "
        f"{math.ceil(speed * SHORTEST_REAL_TURN_S):g} or more")


@dataclass(frozen=True)
class DemoSettings:
    """How a demo runs: what the person typed, and for tests and benches a little more."""

    seed: int | None = None  # None: the unfinished game's, else DEFAULT_SEED
    as_json: bool = False
    speed: float = 10.0
    state_dir: str | None = None
    new_game: bool = False
    chosen: dict = field(default_factory=dict)  # game options typed on the command line
    extras: dict = field(default_factory=dict)  # what the game is made of (--set), typed
    out: Any = None  # where events go (stdout)
    max_real_s: float = 900.0
    hook: Callable | None = None  # bench/faults.py starts its fault injector here
    solo: Any = None  # service.solo.Solo: the computer plays a seat, a hand makes its moves


def run_table_demo(game_id: str, settings: DemoSettings, make_table: Callable,
                   make_players: Callable, view_of: Callable, *,
                   profile: Callable[[object], Profile] | None = None,
                   prepare: Callable | None = None) -> int:
    """Play one game through the whole simulated stack; 0 when it ends.

    ``make_table(resolved, journal, around, seed, solo)`` builds the table (``solo``:
    the computer's seat, a ``firmware.seats.solo.Computer``, or None);
    ``make_players(table, devices, seed)`` the players, who offer
    ``waiting()``, ``act()``, ``physical()`` (the simulated table as plain
    data) and ``restore(data)``; the screen is drawn from the events alone
    (``firmware.readers.terminal.screen`` and the game's ``draw``); ``profile(options)`` gives
    the simulated table for the game's options (default: the sim profile); ``prepare(devices,
    journal, emit)``, if given, runs before the table is built (a
    calibration, say); ``settings.hook(table, devices)``, if given, once the
    players are ready.
    """
    out = settings.out or sys.stdout
    where = f" --state-dir {settings.state_dir}" if settings.state_dir else ""
    game = GAMES[game_id]
    keep_up(game.options_with({**game.demo_defaults, **settings.chosen}), settings.speed)
    path = settings.state_dir or tempfile.mkdtemp(prefix=f"obelisk-{game_id}-")
    if not settings.state_dir:  # say where, so `obelisk games` (and a page) can find it
        print(f"{game_id}: the journal is kept in {path} (see its games with "
              f"`{typed.obelisk()} games --state-dir {path}`)", file=sys.stderr, flush=True)
    with StateDir(path).open(f"obelisk demo {game_id}{where}") as state:
        journal = Journal(state.path)
        resolved = resolve(journal, game_id, lambda game: settings.chosen,
                           extras=lambda game: settings.extras,
                           new_game=settings.new_game, base=game.demo_defaults,
                           continue_with=f"`obelisk demo {{game}}{where}` without game options")
        keep_up(resolved.options, settings.speed)  # the unfinished game's own hourglass
        physical = TableFile(state.path / PHYSICAL, resolved.game.id, resolved.game.id)
        saved = (physical.load() or {}) if resolved.unfinished else {}
        if physical.said:  # damaged, or another game's: kept aside, the table guides the repair
            print(f"{resolved.game.id}: {physical.said}", file=sys.stderr, flush=True)
        seed = _seed(settings.seed, saved, game_id, where)
        if not resolved.unfinished and journal.path.exists():
            journal.archive()  # the finished games before: kept aside, never deleted
        table_profile = profile(resolved.options) if profile else load_profile("sim")
        devices = open_table(quick_holds(table_profile, settings.speed))
        with devices:
            return _play(settings, resolved, journal, devices, physical, saved, seed,
                         make_table, make_players, view_of, prepare, out)


def _seed(typed: int | None, saved: dict, game_id: str, where: str) -> int:
    kept = saved.get("seed")
    if typed is not None and isinstance(kept, int) and typed != kept:
        raise ResumeError(f"the unfinished demo here was started with --seed {kept}: run "
                          f"`obelisk demo {game_id}{where}` with --seed {kept} or no --seed to "
                          "continue it, or add --new-game to start a game with seed "
                          f"{typed} (the unfinished one is kept)")
    if typed is not None:
        return typed
    return kept if isinstance(kept, int) else DEFAULT_SEED


def _play(settings: DemoSettings, resolved: Resolved, journal: Journal, devices: TableDevices,
          physical: TableFile, saved: dict, seed: int, make_table: Callable, make_players: Callable,
          view_of: Callable, prepare: Callable | None, out) -> int:
    speed = settings.speed
    live = not settings.as_json and out.isatty()
    epoch = time.monotonic()

    def clock() -> float:
        return (time.monotonic() - epoch) * speed

    emit, reader_gone = _emitter(settings, resolved, out, live)
    if prepare is not None:
        prepare(devices, journal, emit)
    computer = seated(journal, resolved.game.id, None if settings.solo is None  # or the
                      else settings.solo.far_seat(resolved.game.id))  # resumed game's own
    around = Surroundings(listeners=[emit], beep=devices.buttons.beep)
    table = make_table(resolved, journal, around, seed, computer)
    stream = serve_table(table, journal.dir, clock)  # `obelisk watch` and the page see a demo too
    service = TableService(devices, table, view_of, clock, rate=speed)
    service.start_table()  # a journal that cannot be resumed is refused here, nothing touched
    controls = _match_controls(service, table, journal)
    failure: list[BaseException] = []
    loop = _service_thread(service, failure, resolved.game.id)
    players = _players(settings, resolved, saved, table, devices, seed, make_players)
    loop.start()
    name = resolved.game.id
    hand = getattr(devices.sim, "hand", None) or contextlib.nullcontext()
    deadline = time.monotonic() + settings.max_real_s
    try:
        while table.state != TableState.over:
            stop = _stop_code(name, settings, table, reader_gone, loop, failure, deadline)
            if stop is not None:
                return stop
            with hand, table.lock:  # the bots' hand, never in the middle of another's
                ready = players.waiting()
                if ready:
                    players.act()
                    physical.save(players.physical(), seed=seed)
            time.sleep(min(0.2, 0.5 / speed) if ready else 0.002)
        if not settings.state_dir:
            where = journal.path.parent
            print(f"{name}: the game is kept in {where}: `{typed.obelisk()} games --state-dir "
                  f"{where}` lists it", file=sys.stderr, flush=True)
        return 0
    finally:
        service.stopping.set()
        loop.join(timeout=5)
        if stream is not None:
            stream.close()
        if controls is not None:
            controls.close()


def _match_controls(service: TableService, table: Any, journal: Journal) -> Any:
    """A demo of a match takes the other table's moves on its command socket, from
    ``obelisk remote`` (other demos take no commands)."""
    from firmware.match.seat import MatchSeat

    if not isinstance(table.solo, MatchSeat):
        return None
    from firmware.service.command_socket import serve_commands
    from firmware.service.table_maker import TableMaker

    return serve_commands(service, journal.dir, TableMaker(None, journal, solo=table.solo.solo))


def _emitter(settings: DemoSettings, resolved: Resolved, out: Any,
             live: bool) -> tuple[Callable[[dict], None], threading.Event]:
    """(how the demo shows an event, set once whoever reads the output has gone): one event
    at a time, so lines from the service and the hands never interleave."""
    printing = threading.Lock()
    reader_gone = threading.Event()
    screen = Screen(GAMES[resolved.game.id].draw())

    def emit(event: dict) -> None:
        if event["event"] in QUIET:  # the LEDs' every change is for pages, not this output
            return
        with printing:
            try:
                if settings.as_json:
                    print(json.dumps(event), file=out, flush=True)
                elif (shown := screen.show(event)) is not None:  # (an event with no words)
                    keep = event["event"] in ("game_over", "reveal")  # the end stays readable
                    clear = "\x1b[H\x1b[2J" if live and not keep else ""
                    print(clear + shown, file=out, flush=True)
            except (BrokenPipeError, ValueError):  # whoever read our output has gone
                reader_gone.set()

    return emit, reader_gone


def _service_thread(service: TableService, failure: list[BaseException],
                    name: str) -> threading.Thread:
    """The service's loop in a thread, not yet started; what stopped it lands in ``failure``."""

    def serve() -> None:
        try:
            service.run()
        except BaseException as exc:
            failure.append(exc)
            raise

    return threading.Thread(target=serve, name=f"{name}-service", daemon=True)


def _players(settings: DemoSettings, resolved: Resolved, saved: dict, table: Any,
             devices: TableDevices, seed: int, make_players: Callable) -> Any:
    """The demo's players, a computer's hand among them when it plays a seat, with the
    pieces a killed demo left put back."""
    players = make_players(table, devices, seed)
    if table.solo is not None:  # typed, or the resumed game's own (its journal says so)
        from firmware.sim.far_hands import SoloPlayers

        players = SoloPlayers(players, table)
    if settings.hook is not None:
        settings.hook(table, devices)
    if resolved.unfinished and "table" in saved:  # else the table guides the repair
        with contextlib.suppress(ValueError, KeyError, TypeError):
            players.restore(saved["table"])
    return players


def _stop_code(name: str, settings: DemoSettings, table: Any, reader_gone: threading.Event,
               loop: threading.Thread, failure: list[BaseException],
               deadline: float) -> int | None:
    """The exit code when the demo has to stop before the game is over (None: play on)."""
    if reader_gone.is_set():
        return 0
    if failure or not loop.is_alive():
        print(f"{name}: the table service stopped: {failure[0] if failure else '?'}",
              file=sys.stderr)
        return 1
    if time.monotonic() > deadline:
        print(f"{name}: no end after {settings.max_real_s:.0f} s (table: {table.state}, "
              f"{table.problem})", file=sys.stderr)
        return 1
    return None
