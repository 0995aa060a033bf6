"""What every table demo shares: the simulated table, the service, the output.

A demo gives a table (the game's state machine), players that act on the
simulated table, and how to show an event to a person; ``run_table_demo``
wires the whole stack and plays until the game is over.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable

from firmware.journal import Journal
from firmware.service import TableService
from hardware.devices import TableDevices, open_table
from hardware.profile import Profile, load_profile


def run_table_demo(make_table: Callable, make_players: Callable, view_of: Callable, *,
                   screen: Callable[[object, dict, float], str], as_json: bool = False,
                   speed: float = 1.0, state_dir: str | None = None, out=None,
                   max_real_s: float = 900.0, name: str = "demo",
                   profile: Profile | None = None, prepare: Callable | None = None,
                   hook: Callable | None = None) -> int:
    """Play one game through the whole simulated stack; 0 when it ends.

    ``make_table(journal, emit)`` builds the table; ``make_players(table,
    devices)`` the players, who offer ``waiting()``, ``act()``, ``physical()``
    (the simulated table as plain data, kept in the state directory because a
    real table would survive the Pi losing power) and ``restore(data)``;
    ``screen(table, event, now)`` renders an event for a person;
    ``prepare(devices, journal, emit)``, if given, runs before the table is
    built (a calibration, say); ``hook(table, devices)``, if given, runs once
    the players are ready (bench/faults.py starts its fault injector there).
    """
    out = out or sys.stdout
    live = not as_json and out.isatty()
    devices: TableDevices = open_table(profile or load_profile("sim"))
    journal = Journal(state_dir or tempfile.mkdtemp(prefix=f"obelisk-{name}-"))
    physical = journal.dir / "sim-table.json"
    unfinished = bool(journal.unfinished())
    epoch = time.monotonic()

    def clock() -> float:
        return (time.monotonic() - epoch) * speed

    printing = threading.Lock()
    reader_gone = threading.Event()
    holder: dict = {}

    def emit(event: dict) -> None:
        with printing:
            try:
                if as_json:
                    print(json.dumps(event), file=out, flush=True)
                else:
                    keep = event["event"] in ("game_over", "reveal")  # the end stays readable
                    clear = "\x1b[H\x1b[2J" if live and not keep else ""
                    print(clear + screen(holder.get("table"), event, clock()), file=out,
                          flush=True)
            except (BrokenPipeError, ValueError):  # whoever read our output has gone
                reader_gone.set()

    try:
        if prepare is not None:
            prepare(devices, journal, emit)
        table = holder["table"] = make_table(journal, emit)
    except BaseException:
        devices.close()
        raise
    service = TableService(devices, table, view_of, clock)
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            service.run()
        except BaseException as exc:
            failure.append(exc)
            raise

    loop = threading.Thread(target=serve, name=f"{name}-service", daemon=True)
    players = make_players(table, devices)
    if hook is not None:
        hook(table, devices)
    if unfinished:  # without a record of the table, the table guides the repair instead
        with contextlib.suppress(OSError, ValueError, KeyError):
            players.restore(json.loads(physical.read_text("utf-8")))
    elif journal.path.exists():
        journal.archive(f"journal-{int(time.time())}.jsonl")  # a finished game: keep it aside
    loop.start()
    deadline = time.monotonic() + max_real_s
    try:
        while table.state != "over":
            if reader_gone.is_set():
                return 0
            if failure or not loop.is_alive():
                print(f"{name}: the table service stopped: {failure[0] if failure else '?'}",
                      file=sys.stderr)
                return 1
            if time.monotonic() > deadline:
                print(f"{name}: no end after {max_real_s:.0f} s (table: {table.state}, "
                      f"{table.problem})", file=sys.stderr)
                return 1
            with table.lock:
                ready = players.waiting()
                if ready:
                    players.act()
                    tmp = physical.with_suffix(".tmp")
                    tmp.write_text(json.dumps(players.physical()), "utf-8")
                    tmp.replace(physical)
            time.sleep(min(0.2, 0.5 / speed) if ready else 0.002)
        return 0
    finally:
        service.stopping.set()
        loop.join(timeout=5)
        devices.close()
