"""What each ``obelisk`` command does, once firmware.cli_parser has read its arguments.

One function a command, taking the parsed arguments and giving the exit status. Each
imports the modules only it needs inside itself, so ``obelisk --help`` and the service
load no more than their own. Errors meant for people are raised (firmware.cli says them)
or said here in one ``obelisk: ...`` line with EXIT_PERSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from firmware.contract import GameType
from firmware.games import GAMES, chosen_demo, chosen_extras, chosen_options

EXIT_PERSON = 2
"""A person must fix something first (the unit's RestartPreventExitStatus)."""


def _options(game: GameType, args: argparse.Namespace, base: dict | None = None):
    return game.options_with({**(base or {}), **chosen_options(game, args)})


def _solo(args: argparse.Namespace):
    """Who plays the far seat: the computer (``--solo``, ``--level``), a friend at another
    table (``--remote``, ``--seat``), or no one (None: two people play here)."""
    if args.remote is not None or args.seat is not None or args.secret is not None:
        return _match(args)
    if args.solo is None:
        if args.level is not None:
            raise argparse.ArgumentTypeError("--level is the computer's: add --solo A or "
                                             "--solo B to play alone against it")
        return None
    from engine.players import Player
    from firmware.seats.solo import Solo

    return Solo(Player(args.solo), args.level or 1)


def _match(args: argparse.Namespace):
    """What ``--remote`` and ``--seat`` ask for."""
    if args.remote is None:
        raise argparse.ArgumentTypeError("--seat is for a match with another table: add "
                                         "--remote MATCH (the name both tables use)")
    if args.solo is not None or args.level is not None:
        raise argparse.ArgumentTypeError("--remote plays a friend at another table, --solo the "
                                         "computer: choose one")
    if args.seat is None:
        raise argparse.ArgumentTypeError("--remote needs --seat A or --seat B: the seat the "
                                         "person at this table plays")
    from engine.players import Player
    from firmware.match.seat import SECRET_ENV, Match

    secret = args.secret if args.secret is not None else os.environ.get(SECRET_ENV, "")
    return Match(args.remote, Player(args.seat), secret)


def rules(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    print(game.rules_text(game.make(_options(game, args), chosen_extras(game, args))), end="")
    return 0


def diag(args: argparse.Namespace) -> int:
    from firmware.diag import run_diag  # starts devices: only load it when asked

    return run_diag(args.profile, once=args.once, seconds=args.seconds,
                    led_test=not args.no_led_test, demo=not args.still,
                    state_dir=args.state_dir)


def calibrate(args: argparse.Namespace) -> int:
    measure = GAMES[args.game].run_calibrate()
    assert measure is not None  # the parser offers calibrate only to games that declare it
    return measure(args.profile, args.state_dir)


def run(args: argparse.Namespace) -> int:
    import gc

    gc.disable()  # start-up allocates much and frees little: the service turns it back on
    try:
        from firmware.run import run_service

        return run_service(args.profile, args.state_dir, args.game,
                           lambda game: chosen_options(game, args), new_game=args.new_game,
                           extras=lambda game: chosen_extras(game, args), solo=_solo(args))
    finally:
        gc.enable()


def demo(args: argparse.Namespace, hook: Callable | None = None) -> int:
    """``obelisk demo``; ``hook(table, devices)``, for tests, runs once the players are ready."""
    from firmware.sim.demo_runner import DemoSettings

    game = GAMES[args.game]
    settings = DemoSettings(seed=args.seed, as_json=args.json, speed=args.speed,
                            state_dir=args.state_dir, new_game=args.new_game,
                            chosen=chosen_options(game, args),
                            extras=chosen_extras(game, args), solo=_solo(args), hook=hook)
    return game.run_demo()(settings, **chosen_demo(game, args))


def watch(args: argparse.Namespace) -> int:
    """Follow the table running on a state directory; wait for it when it stops a while."""
    import time

    from firmware.service.stream import StreamError, read_events

    where = args.state_dir or _running_table("watch")
    if where is None:
        return EXIT_PERSON
    live = not args.json and sys.stdout.isatty()
    seen_once = waiting = False
    while True:
        try:
            screen = None
            for event in read_events(where):
                seen_once, waiting = True, False
                screen = _watched(event, screen, args.json, live)
        except StreamError:
            if not seen_once:
                raise
        if not seen_once:
            return 0
        if not waiting:  # said once; the screen stays as the table left it
            print(f"obelisk: the table on {where} has stopped; waiting for it to start again "
                  "(Ctrl-C to leave)", file=sys.stderr, flush=True)
        waiting = True
        time.sleep(1.0)


def _watched(event: dict, screen: Any, as_json: bool, live: bool) -> Any:
    """Print one event as ``watch`` shows it (a JSON line, or the screen after it); the screen
    to go on with (a ``table`` event begins a new one)."""
    from firmware.readers.terminal.screen import Screen

    if as_json:
        print(json.dumps(event), flush=True)
        return screen
    if screen is None or event["event"] == "table":
        screen = Screen(GAMES[event["game"]].draw())
    shown = screen.show(event)
    if shown is not None:
        print(("\x1b[H\x1b[2J" if live else "") + shown, flush=True)
    return screen


def web(args: argparse.Namespace) -> int:
    from firmware.readers.web.server import Limits, serve
    from firmware.store.state_dir import default_state_dir

    limits = Limits(connections=args.max_connections, idle_s=args.idle_timeout)
    where = args.state_dir or _running_table("web", needed=False)
    if where is None:
        where = default_state_dir()
        print(f"obelisk web: no table is running yet; this page follows the one that starts "
              f"on {where} (name another with --state-dir)", file=sys.stderr, flush=True)
    return serve(where, args.address, args.port, limits)


def mqtt(args: argparse.Namespace) -> int:
    from firmware.readers.club.config import find_config, load_config
    from firmware.readers.club.mqtt_command import run
    from firmware.store.state_dir import default_state_dir

    where = args.state_dir or default_state_dir()
    return run(where, load_config(find_config(where, args.config)))


def _broker_and_table(args: argparse.Namespace) -> None:
    """``--broker`` and ``--table`` come together, and never with ``--config``."""
    if args.config is not None:
        raise argparse.ArgumentTypeError("give either --broker with --table, or a "
                                         "configuration file (--config), not both")
    if args.table is None:
        raise argparse.ArgumentTypeError("--broker needs --table too: this table's name on "
                                         "the broker, a different one at each table")
    if args.broker is None:
        raise argparse.ArgumentTypeError("--table needs --broker too: the club's broker, "
                                         "mqtt://host[:port]")


def remote(args: argparse.Namespace) -> int:
    from firmware.match.link import run_link
    from firmware.readers.club.config import config_from, find_config, load_config
    from firmware.store.state_dir import default_state_dir

    where = args.state_dir or default_state_dir()
    if args.broker is not None or args.table is not None:
        _broker_and_table(args)
        config = config_from({"broker": args.broker, "table": args.table}, "the command line")
    else:
        config = load_config(find_config(where, args.config))
    return run_link(where, config, args.claim_after)


def club(args: argparse.Namespace) -> int:
    from firmware.readers.club.config import parse_broker
    from firmware.readers.club.viewer import serve

    return serve(parse_broker(args.broker, "--broker"), args.address, args.port, args.user,
                 args.password_file, args.ca_file)


def play(args: argparse.Namespace) -> int:
    from firmware.sim.play import run_play

    game = GAMES[args.game]
    flags = game.describe(_options(game, args)).split()  # the game's options, for its service
    solo = _solo(args)  # checked here: --level alone is refused before anything starts
    if solo is not None:
        flags += solo.flag_values()
        if getattr(solo, "secret", ""):  # to the service by its environment, not its argv
            from firmware.match.seat import SECRET_ENV

            os.environ[SECRET_ENV] = solo.secret
    if args.new_game:
        flags.append("--new-game")
    return run_play(args.game, args.state_dir, args.port, args.address, flags,
                    chosen=None if args.new_game else chosen_options(game, args),
                    link=_link_flags(args, solo))


def _link_flags(args: argparse.Namespace, setting) -> list[str] | None:
    """``obelisk play --broker``: the flags of its link to the club's broker, which carries
    a match begun with --remote or from the page (None: no broker, no match)."""
    if args.broker is None:
        if args.remote is not None:
            raise argparse.ArgumentTypeError("--remote with obelisk play needs the club's "
                                             "broker: add --broker mqtt://HOST")
        return None
    import re
    import socket

    seat = f"-{setting.seat.value.lower()}" if args.remote is not None else ""
    name = args.table or re.sub(r"[^a-z0-9_-]", "-", socket.gethostname().lower())[:30] + seat
    return ["--broker", args.broker, "--table", name]


def games(args: argparse.Namespace) -> int:
    """``obelisk games``: the games played (to their end or set aside before it; not the one
    still on) of the directory named, else of every directory this machine's tables keep
    (the default, the service's, each ``obelisk play`` game's), each under its directory's
    name."""
    from firmware.store.history import finished_games, finished_in
    from firmware.store.state_dir import dir_words, table_dirs

    if args.state_dir:
        games, warnings = finished_games(args.state_dir)
        found = [(args.state_dir, games)] if games else []
    else:
        found, warnings = finished_in(table_dirs())
    for warning in warnings:
        print(f"obelisk: {warning}", file=sys.stderr)
    for where, games in found:
        if not args.state_dir:
            print(f"{where} ({dir_words(where)}):")
        for game in games:
            print(("" if args.state_dir else "  ") + game.summary())
    if not found:
        looked = args.state_dir or _listed(table_dirs())
        print(f"no games played in {looked} yet (the one still on is listed once it ends)",
              file=sys.stderr)
    return 0


def export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware.store.history import export_json, export_text, find_in
    from firmware.store.state_dir import table_dirs

    places = [Path(args.state_dir)] if args.state_dir else table_dirs()
    game = find_in(places, args.id)
    write = export_json if args.format == "json" else export_text
    sys.stdout.write(write(game, game.state_dir))
    return 0


def _running_table(command: str, needed: bool = True):
    """The directory of the table running, for a command typed with no --state-dir, said in
    words; none: None, and (``needed``) what to type said instead."""
    from firmware.service.command_socket import running_tables
    from firmware.store.state_dir import dir_words, kept_a_table, table_dirs

    places = table_dirs()
    found = list(running_tables(places))
    if found:
        others = "".join(f"; another runs on {p} (obelisk {command} --state-dir {p})"
                         for p in found[1:])
        print(f"obelisk {command}: the table running on {found[0]} ({dir_words(found[0])})"
              f"{others}", file=sys.stderr, flush=True)
        return found[0]
    if needed:
        kept = [f"{p} ({dir_words(p)})" for p in places if kept_a_table(p)]
        ran = f"; {'tables' if len(kept) > 1 else 'a table'} ran on {_listed(kept)}" \
            if kept else ""
        print(f"obelisk: no table is running (none answers in {_listed(places)}): start one "
              f"with `obelisk play GAME` (or `obelisk run`), or name the state directory of "
              f"the one you mean: obelisk {command} --state-dir DIR{ran}", file=sys.stderr)
    return None


def _listed(things: list) -> str:
    """"A", "A or B", "A, B or C"."""
    words = [str(thing) for thing in things]
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def pin(args: argparse.Namespace) -> int:
    """``obelisk pin``: the table PIN a phone enters to run the table (made the first time)."""
    from pathlib import Path

    from firmware.service.pin import PinError, new_pin, table_pin

    named = args.state_dir or _running_table("pin")
    if named is None:
        return EXIT_PERSON
    where = Path(named)
    if not where.is_dir():
        print(f"obelisk: there is no state directory {where}: start the table there first "
              "(obelisk run)", file=sys.stderr)
        return EXIT_PERSON
    try:
        pin = new_pin(where).pin if args.new else table_pin(where)
    except PinError as exc:
        print(f"obelisk: {exc}", file=sys.stderr)
        return EXIT_PERSON
    if args.new:
        print(f"the new table PIN is {pin}: every phone that ran the table with the old one "
              "only watches now, until it enters this one")
        return 0
    print(f"the table PIN is {pin}: enter it on the page to run the table (holding the menu "
          "button shows it on the rings)")
    return 0


def scanner_install(args: argparse.Namespace) -> int:
    """``obelisk scanner install PATH``: the scanner board's code onto its CIRCUITPY drive."""
    from pathlib import Path

    from hardware.scanner_install import ScannerInstallError, install

    try:
        said = install(Path(args.drive))
    except ScannerInstallError as exc:
        print(f"obelisk: {exc}", file=sys.stderr)
        return EXIT_PERSON
    print("\n".join(said))
    return 0


def wiring(args: argparse.Namespace) -> int:
    """``obelisk wiring``: the build's wiring as an SVG picture, drawn from the code's own pins."""
    from pathlib import Path

    from hardware.profile import load_profile
    from hardware.wiring import draw_svg, wiring_for

    profile = load_profile(args.profile)
    wiring = wiring_for(profile)
    svg = draw_svg(wiring)
    if args.output == "-":
        sys.stdout.write(svg)
    else:
        out = Path(args.output)
        if out.is_dir():
            print(f"obelisk: --output {out} is a folder; name a file in it, like "
                  f"{out / 'wiring.svg'}", file=sys.stderr)
            return EXIT_PERSON
        try:
            out.write_text(svg, "utf-8")
        except OSError as exc:
            print(f"obelisk: cannot write --output {out} ({exc.strerror or exc}); name a file "
                  "in a folder you can write to", file=sys.stderr)
            return EXIT_PERSON
        print(f"wrote the wiring of the {profile.name} build to {out}: open it in a web "
              "browser")
    for warning in wiring.warnings:
        print(f"obelisk: the profile and the code disagree: {warning}", file=sys.stderr)
    return 0
