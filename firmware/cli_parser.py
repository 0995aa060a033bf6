"""The ``obelisk`` command line: every command's arguments, help and checks.

build_parser() reads every command; parser_for() builds only ``obelisk run``'s for the
service. Building it imports no game engine (the registry spells each flag's words) and
none of a command's own modules: those load in firmware.cli_commands when it runs.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import NoReturn

from firmware import cli_commands
from firmware.contract import seconds_in
from firmware.games import GAMES, add_game_flags
from firmware.store.state_dir import SERVICE_STATE_DIR

SPEED_MAX = 100.0
"""Faster demos leave the load cells no time to settle in a turn (the board reads them every
25 ms, LOAD_EVERY_MS in hardware/scanner/scanner.py, in real time)."""


def _version() -> str:
    from importlib import metadata  # 30 ms: only when the version is asked for

    try:
        return metadata.version("obelisk-table")
    except metadata.PackageNotFoundError:
        return "unknown (not installed; run ./setup.sh)"


class _Version(argparse.Action):
    """``--version``, looked up only when typed (the service starts faster)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"obelisk {_version()}")
        parser.exit()


def _minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        minutes = -1.0
    if not 1 <= minutes <= 1440:
        raise argparse.ArgumentTypeError(f"--claim-after is 1 to 1440 minutes, not {text}")
    return minutes


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and 0.1 <= value <= SPEED_MAX):
        raise argparse.ArgumentTypeError(
            f"the speed is 0.1 to {SPEED_MAX:g} times real time, not {text}: faster, the "
            "sensors have no time to settle within a turn")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a seed is 0 to 2**63-1, not {text}")
    return value


def _solo_flags(parser: argparse.ArgumentParser) -> None:
    """``--solo A|B`` and ``--level N``: play alone, the computer in that seat."""
    parser.add_argument("--solo", choices=("A", "B"), default=None,
                        help="play alone: the computer plays this seat; the table lights its "
                        "moves and you make them (maze: A is the Architect)")
    parser.add_argument("--level", type=int, choices=(1, 2, 3, 4), default=None,
                        help="with --solo: how well the computer plays, 1 (easiest, the "
                        "default) to 4")
    parser.add_argument("--remote", metavar="MATCH", default=None,
                        help="play a friend at another table through the club's broker: both "
                        "tables name the same match (obelisk play starts the link itself with "
                        "--broker; obelisk run needs `obelisk remote` beside it)")
    parser.add_argument("--seat", choices=("A", "B"), default=None,
                        help="with --remote: the seat the person at this table plays (the "
                        "other table takes the other)")
    parser.add_argument("--secret", metavar="WORD", default=None,
                        help="with --remote: a word both players agree on between them and "
                        "type at both tables (High Rise needs one: its hidden values are "
                        "drawn from it); other users of this machine see it in ps, so "
                        "OBELISK_MATCH_SECRET in the environment is the better way")


def _address(text: str) -> str:
    """An address to listen on: an IP address or a host name (none: all of them)."""
    from firmware.readers.club.config import is_host

    if text and not is_host(text):
        raise argparse.ArgumentTypeError(
            f"{text[:60]!r} is not an address of this machine: give an IP address such as "
            "192.168.1.20 or ::1, a host name, or 0.0.0.0 for all of them")
    return text


def _in_words(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Bad options answered in one line (cli.main says it, status 2), not usage and a line."""
    def error(message: str) -> NoReturn:
        raise argparse.ArgumentTypeError(f"{parser.prog.removeprefix('obelisk ')}: {message} "
                                         f"(see {parser.prog} --help)")

    # add_parser makes every subcommand's parser of one class: this one's errors are
    # replaced on the instance, which argparse allows and mypy flags as a method assigned
    parser.error = error  # type: ignore[method-assign]
    return parser


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (0: any free one), not {text}")
    return value


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(f"give 1 to 1000000, not {text}")
    return value


def _profile(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="sim",
                        help="hardware profile: sim (default), sim-maze, reference, gpio-only "
                        "or a file")


RUNNING = ("the table running, looked for in ~/.local/state/obelisk, each game's "
           f"`obelisk play` directory under it (play/GAME) and {SERVICE_STATE_DIR}, and said")
"""Where pin, watch and web look with no --state-dir."""
EVERY = ("~/.local/state/obelisk, each game's `obelisk play` directory under it (play/GAME) "
         f"and {SERVICE_STATE_DIR}, together")
"""Where games and export look with no --state-dir."""


def _state_dir(parser: argparse.ArgumentParser, what: str,
               default: str = "systemd's StateDirectory, else ~/.local/state/obelisk") -> None:
    parser.add_argument("--state-dir", help=f"{what} (default: {default})")


def _new_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--new-game", action="store_true",
                        help="start afresh even if the state directory holds an unfinished "
                        "game (it is kept in an archived journal, never deleted)")


def _top() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(
        prog="obelisk",
        description="Obelisk Table: a smart table for the Obelisk family of games.",
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    return parser, commands


def _add_rules(commands: argparse._SubParsersAction) -> None:
    rules = commands.add_parser("rules", help="print the rules of a game as the table plays them")
    rule_games = rules.add_subparsers(dest="game", title="games")
    rule_games.required = True
    for game in GAMES.values():
        sub = rule_games.add_parser(game.id, help=game.help)
        add_game_flags(sub, [game])
        sub.set_defaults(run=cli_commands.rules)


def _add_diag(commands: argparse._SubParsersAction) -> None:
    diag = commands.add_parser("diag", help="live view of every sensor and the scanner board's "
                               "measured scan period, and an LED test")
    diag.add_argument("--profile", default=None,
                      help="hardware profile whose devices diag opens: sim, sim-maze, "
                      "reference, gpio-only or a file (default: the table running, else sim)")
    diag.add_argument("--once", action="store_true", help="print one view and exit")
    diag.add_argument("--seconds", type=seconds_in(0.1, 86_400, "--seconds"),
                      help="stop after this many seconds")
    diag.add_argument("--no-led-test", action="store_true", help="leave the LEDs dark")
    diag.add_argument("--still", action="store_true",
                      help="sim profile: no demo hand moving pieces")
    _state_dir(diag, "a running table service's directory: diag asks it, since it holds the "
               "devices", default=f"with no --profile, the first that runs of "
               f"~/.local/state/obelisk, {SERVICE_STATE_DIR} and each game's `obelisk play` "
               "directory, and said")
    diag.set_defaults(run=cli_commands.diag)


def _add_calibrate(commands: argparse._SubParsersAction) -> None:
    calibrate = commands.add_parser("calibrate", help="measure the sensors a game needs")
    cal_games = calibrate.add_subparsers(dest="game", title="games")
    cal_games.required = True
    for game in GAMES.values():
        if game.calibrate:
            sub = cal_games.add_parser(game.id, help=game.calibrate_help)
            _profile(sub)
            _state_dir(sub, "where the calibration is kept")
            sub.set_defaults(run=cli_commands.calibrate)


def _add_run(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser("run", help="the table service (on a Pi, systemd starts it)")
    _profile(run)
    _state_dir(run, "where the journal lives")
    run.add_argument("--game", choices=tuple(GAMES), default=None,
                     help="the game to play (default: the unfinished game in the journal, "
                     "else towers)")
    add_game_flags(run, list(GAMES.values()))
    _solo_flags(run)
    _new_game(run)
    run.set_defaults(run=cli_commands.run)


def _add_demo(commands: argparse._SubParsersAction) -> None:
    demo = commands.add_parser("demo", help="bots play a whole game on the simulated table")
    demo_games = demo.add_subparsers(dest="game", title="games")
    demo_games.required = True
    for game in GAMES.values():
        sub = demo_games.add_parser(game.id, help=f"{game.help}: a whole game through the "
                                    "whole stack")
        sub.add_argument("--seed", type=_seed, default=None,
                         help="same seed, same game (default: 1, or the unfinished game's)")
        sub.add_argument("--json", action="store_true",
                         help="one JSON event per line instead of the live view")
        sub.add_argument("--speed", type=_speed, default=10.0,
                         help="how much faster than real time (default: %(default)g, at most "
                         f"{SPEED_MAX:g})")
        _state_dir(sub, "keep the journal here; a killed demo started again with the same "
                   "arguments resumes", default="a new directory under /tmp, named when the "
                   "demo starts and ends")
        sub.set_defaults(state_dir=None)
        _new_game(sub)
        add_game_flags(sub, [game], ("flags", "extra_flags", "demo_flags"))
        _solo_flags(sub)
        sub.set_defaults(run=cli_commands.demo)


def _add_watch(commands: argparse._SubParsersAction) -> None:
    watch = commands.add_parser("watch", help="the live view of a running table (a demo too), "
                                "from its event stream",
                                description="Follow the table running on a state directory in "
                                "this terminal: the board, whose turn, what is wrong, every "
                                "event. Ctrl-C leaves.")
    watch.add_argument("--json", action="store_true",
                       help="one JSON event per line: the whole state first, then each event")
    _state_dir(watch, "the running table's state directory (a demo names its own)",
               default=RUNNING)
    watch.set_defaults(run=cli_commands.watch)


def _add_web(commands: argparse._SubParsersAction) -> None:
    web = commands.add_parser("web", help="serve the table's live page to phones on this "
                              "network", description="Serve the live page of the table "
                              "running on a state directory (a demo too) to phones and "
                              "laptops on this network; it prints the address to open.")
    web.add_argument("--address", default="0.0.0.0",
                     help="where to listen (default: %(default)s, every network of this machine)")
    web.add_argument("--port", type=_port, default=8080,
                     help="the port to serve on (default: %(default)s; 0: any free one)")
    web.add_argument("--max-connections", type=_at_least_one, default=1000,
                     help="connections served at once (default: %(default)s; never more than "
                     "the process's file limit allows); when all are taken, the one idle the "
                     "longest makes room")
    web.add_argument("--idle-timeout", type=seconds_in(0.1, 3600, "--idle-timeout"), default=10.0,
                     help="seconds a connection may wait to send a request's headers or its "
                     "body before it is closed (default: %(default)s)")
    _state_dir(web, "the running table's state directory (a demo names its own)",
               default=f"{RUNNING}; none: ~/.local/state/obelisk, for the table that starts "
               "there")
    web.set_defaults(run=cli_commands.web)


def _club_config(parser: argparse.ArgumentParser) -> None:
    """Where a club reader finds its broker (``mqtt.toml``) and the table it reads."""
    parser.add_argument("--config", help="the configuration file (default: mqtt.toml in the "
                        "state directory, else /etc/obelisk/mqtt.toml)")
    _state_dir(parser, "the table's state directory")


def _add_mqtt(commands: argparse._SubParsersAction) -> None:
    mqtt = commands.add_parser("mqtt", help="publish the table's games and results to a "
                               "club's MQTT broker", description="Publish the table running on "
                               "a state directory to the MQTT broker named in mqtt.toml (in the "
                               "state directory or /etc/obelisk): broker = \"mqtt://host\" or "
                               "\"mqtts://host\", table = \"a name\", optionally user, "
                               "password_file, ca_file, home_assistant = true.")
    _club_config(mqtt)
    mqtt.set_defaults(run=cli_commands.mqtt)
    _in_words(mqtt)


def _add_remote(commands: argparse._SubParsersAction) -> None:
    remote = commands.add_parser("remote", help="link the table to the other table of a remote "
                                 "match, through the club's broker", description="Carry the "
                                 "remote match of the table running on a state directory (started "
                                 "with --remote MATCH --seat A|B): its moves out to the other "
                                 "table, the other table's moves in, to be lit and made here. "
                                 "The broker is the one in mqtt.toml, as for obelisk mqtt, or "
                                 "--broker with --table.")
    _club_config(remote)
    remote.add_argument("--broker", help="the club's broker, mqtt://host[:port] or "
                        "mqtts://host[:port], instead of a configuration file")
    remote.add_argument("--table", help="with --broker: this table's name on the broker "
                        "(lowercase letters, digits, - and _)")
    remote.add_argument("--claim-after", metavar="MINUTES", type=_minutes, default=None,
                        help="let the person here claim the game once the other table has "
                        "been out of touch this long (1 to 1440; by default never: the match "
                        "waits for it)")
    remote.set_defaults(run=cli_commands.remote)
    _in_words(remote)


def _add_club(commands: argparse._SubParsersAction) -> None:
    club = commands.add_parser("club", help="serve the club's page: every table on a broker, "
                               "live, and their results", description="Serve a page showing "
                               "every table publishing to a broker (obelisk mqtt): game, scores, "
                               "whose turn, the last event, and the results to download.")
    club.add_argument("--broker", required=True, help="the club's broker, mqtt://host[:port] "
                      "or mqtts://host[:port]")
    club.add_argument("--user", help="the broker user to read as (if it asks for one)")
    club.add_argument("--password-file", help="a file holding that user's password")
    club.add_argument("--ca-file", help="for mqtts://: the certificate of the club's own "
                      "certificate authority (else this machine's authorities are trusted)")
    club.add_argument("--address", default="0.0.0.0", type=_address,
                      help="where to listen (default: %(default)s, every network of this machine)")
    club.add_argument("--port", type=_port, default=8090,
                      help="the port to serve on (default: %(default)s; 0: any free one)")
    club.set_defaults(run=cli_commands.club)
    _in_words(club)


def _add_play(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser("play", help="play with no table: the simulated board, the "
                               "service and the page with hands to move the pieces",
                               description="Start the simulated board, the table service on "
                               "it and the page, whose hands panel moves the pieces; it prints "
                               "the address to open. Ctrl-C stops all three.")
    play.add_argument("game", choices=tuple(GAMES), help="the game to play")
    play.add_argument("--port", type=_port, default=8080,
                      help="the page's port (default: %(default)s; 0: any free one)")
    play.add_argument("--address", default="127.0.0.1",
                      help="where the page listens (default: %(default)s, this machine only: "
                      "the hands move the pieces)")
    _state_dir(play, "where the journal lives", default="this game's own, "
               "~/.local/state/obelisk/play/GAME: the same each time, so that a game "
               "stopped resumes, and `obelisk games` lists it")
    add_game_flags(play, list(GAMES.values()), ("flags",))
    _solo_flags(play)
    play.add_argument("--broker", help="the club's broker, mqtt://host[:port] or "
                      "mqtts://host[:port], for a match with another table (--remote, or set "
                      "up from the page): obelisk play starts the link to it")
    play.add_argument("--table", help="with --broker: this table's name on the broker "
                      "(default: this machine's name and the seat)")
    _new_game(play)
    play.set_defaults(run=cli_commands.play)


def _add_games(commands: argparse._SubParsersAction) -> None:
    games = commands.add_parser("games", help="list the games played, however they ended "
                                "(the one still on is not), one a line: id, when, game, "
                                "options, how it ended")
    _state_dir(games, "the table's state directory", default=EVERY)
    games.set_defaults(run=cli_commands.games)


def _add_export(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser("export", help="write one game's record, as `obelisk games` "
                                 "lists it")
    export.add_argument("id", help="the game's id, as `obelisk games` lists it (its start is "
                        "enough)")
    export.add_argument("--format", choices=("json", "text"), default="text",
                        help="text: a record a person reads, a numbered line per action "
                        "(default); json: the record `replay` reads back")
    _state_dir(export, "the table's state directory", default=EVERY)
    export.set_defaults(run=cli_commands.export)


def _add_pin(commands: argparse._SubParsersAction) -> None:
    pin = commands.add_parser("pin", help="show the table PIN that lets a phone run the table "
                              "from the page")
    _state_dir(pin, "the table's state directory", default=RUNNING)
    pin.add_argument("--new", action="store_true",
                     help="make a new PIN: every phone's session made with the old one ends")
    pin.set_defaults(run=cli_commands.pin)


def _add_scanner(commands: argparse._SubParsersAction) -> None:
    scanner = commands.add_parser("scanner", help="the scanner board (a Pico running "
                                  "CircuitPython)")
    scanner_commands = scanner.add_subparsers(dest="action", title="actions")
    scanner_commands.required = True
    scanner_install = scanner_commands.add_parser(
        "install", help="copy the scanner code and the NeoPixel library to its CIRCUITPY drive",
        description="Check the board's CircuitPython version (boot_out.txt), copy the scanner "
        "code to the drive's root and neopixel.py to its lib/ (files already there unchanged "
        "are left alone, other files are never touched), and say what to do next.")
    scanner_install.add_argument("drive", metavar="PATH", help="where the CIRCUITPY drive is "
                                 "mounted (on Raspberry Pi OS: /media/$USER/CIRCUITPY)")
    scanner_install.set_defaults(run=cli_commands.scanner_install)


def _add_wiring(commands: argparse._SubParsersAction) -> None:
    wiring = commands.add_parser(
        "wiring", help="draw the build's wiring as an SVG picture: every pin and where it goes",
        description="Draw every pin the build uses (the Pi's, and the scanner board's from its "
        "code.py), the switch matrix lines, the load cells and the LED chains in order.")
    wiring.add_argument("--profile", default="reference",
                        help="hardware profile: reference (default), gpio-only or a file")
    wiring.add_argument("--output", required=True, metavar="FILE.svg",
                        help="where to write the picture (-: print it)")
    wiring.set_defaults(run=cli_commands.wiring)


def build_parser() -> argparse.ArgumentParser:
    """Every command's parser, in the order ``obelisk --help`` lists them."""
    parser, commands = _top()
    for add in (_add_rules, _add_diag, _add_calibrate, _add_run, _add_demo, _add_watch,
                _add_web, _add_mqtt, _add_remote, _add_club, _add_play, _add_games, _add_export,
                _add_pin, _add_scanner, _add_wiring):
        add(commands)
    return parser


def parser_for(argv: Sequence[str] | None) -> argparse.ArgumentParser:
    """The whole parser, or for ``obelisk run`` (systemd starts it, and must hear it is ready
    within 0.3 s) only its own: building every command's costs it tens of milliseconds on a
    Pi. Its help, errors and values are the same either way."""
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] == "run":
        parser, commands = _top()
        _add_run(commands)
        return parser
    return build_parser()
