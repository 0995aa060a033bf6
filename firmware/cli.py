"""The ``obelisk`` command: one entry point for everything a person runs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata

from engine.errors import ObeliskError
from engine.highrise_sensing import CalibrationError
from engine.towers import TowersOptions
from engine.towers_rules import rules_text
from firmware.journal import JournalError
from firmware.seal import SealError
from firmware.sets import load_block_set
from hardware.leds import LedError
from hardware.profile import ProfileError


def _version() -> str:
    try:
        return metadata.version("obelisk-table")
    except metadata.PackageNotFoundError:
        return "unknown (not installed; run ./setup.sh)"


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the hourglass needs a positive time, not {text}")
    return value


def _rules_towers(args: argparse.Namespace) -> int:
    options = TowersOptions(hourglass_s=args.hourglass, sudden_death=args.sudden_death)
    print(rules_text(options, load_block_set(args.set)), end="")
    return 0


def _diag(args: argparse.Namespace) -> int:
    from firmware.diag import run_diag  # starts devices: only load it when asked

    return run_diag(args.profile, once=args.once, seconds=args.seconds,
                    led_test=not args.no_led_test, demo=not args.still)


def _demo_towers(args: argparse.Namespace) -> int:
    from firmware.demo import run_demo  # starts the simulated table: only when asked

    return run_demo(args.seed, as_json=args.json, speed=args.speed, state_dir=args.state_dir)


def _demo_stones(args: argparse.Namespace) -> int:
    from firmware.stones_demo import run_stones_demo

    return run_stones_demo(args.seed, as_json=args.json, speed=args.speed, mode=args.mode,
                           edition=args.edition, ply_limit=args.ply_limit or 200,
                           stack_sensors=args.stack_sensors, state_dir=args.state_dir)


def _demo_highrise(args: argparse.Namespace) -> int:
    from firmware.highrise_demo import run_highrise_demo

    return run_highrise_demo(args.seed, as_json=args.json, speed=args.speed, size=args.size,
                             state_dir=args.state_dir)


def _demo_maze(args: argparse.Namespace) -> int:
    from firmware.maze_demo import run_maze_demo

    return run_maze_demo(args.seed, as_json=args.json, speed=args.speed, turns=args.turns,
                         state_dir=args.state_dir)


def _rules_maze(args: argparse.Namespace) -> int:
    from engine.maze_rules import rules_text as maze_rules

    print(maze_rules(_game_options(args)), end="")
    return 0


def _rules_highrise(args: argparse.Namespace) -> int:
    from engine.highrise_rules import rules_text

    print(rules_text(_game_options(args)), end="")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from firmware.calibrate import run_calibrate
    from firmware.run import default_state_dir

    return run_calibrate(args.profile, args.state_dir or default_state_dir())


def _run(args: argparse.Namespace) -> int:
    from firmware.run import run_service

    return run_service(args.profile, args.state_dir, _game_options(args))


def _speed(text: str) -> float:
    value = _positive_seconds(text)
    if value > 1000:
        raise argparse.ArgumentTypeError("a speed above 1000 leaves the sensors no time to settle")
    return value


def _rules_stones(args: argparse.Namespace) -> int:
    from engine.stones_rules import rules_text as stones_rules

    print(stones_rules(_game_options(args)), end="")
    return 0


def _board_size(text: str) -> tuple[int, int]:
    """Rows x columns; each game checks the sizes it plays (stones 4x4, High Rise 3x3 up)."""
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write rows x columns, like 6x4") from None
    if not (3 <= rows <= 8 and 3 <= cols <= 8):
        raise argparse.ArgumentTypeError(f"{text}: a board is 3x3 to 8x8")
    return rows, cols


def _game_options(args: argparse.Namespace):
    """The chosen game's options; a size that game cannot play is refused, named."""
    if args.game == "stones":
        from engine.stones import Edition, Mode, StonesOptions

        rows, cols = args.size or (6, 4)
        if min(rows, cols) < 4:
            raise argparse.ArgumentTypeError(f"--size {rows}x{cols}: a stones board is 4x4 "
                                             "to 8x8")
        return StonesOptions(rows=rows, cols=cols, mode=Mode(args.mode),
                             edition=Edition(args.edition), ply_limit=args.ply_limit)
    if args.game == "maze":
        from engine.maze import MazeOptions

        return MazeOptions(turns=args.turns)
    if args.game == "highrise":
        from engine.highrise import HighriseOptions

        return HighriseOptions(*(args.size or (3, 3)))
    return TowersOptions(hourglass_s=args.hourglass, sudden_death=args.sudden_death)


def _stones_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", choices=("classic", "second"), default="classic",
                        help="the words used: classic (cornerstone, keystone) or second "
                        "(base, pedestal)")
    parser.add_argument("--mode", choices=("open", "bounded", "balanced"), default="open",
                        help="the symmetry each move must keep (default: open)")
    parser.add_argument("--size", type=_board_size, default=None, metavar="RxC",
                        help="rows x columns: stones 4x4 to 8x8 (default 6x4), High Rise "
                        "3x3 (default) to 8x8")
    parser.add_argument("--ply-limit", type=int, default=None, metavar="N",
                        help="draw after N moves in all (default: none)")


def _maze_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--turns", type=int, choices=(15, 20, 25), default=20,
                        help="the turn limit (default: 20; 25 helps the Architect, 15 the "
                        "Maze Master)")


def _demo_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, help="same seed, same game")
    parser.add_argument("--json", action="store_true",
                        help="one JSON event per line instead of the live view")
    parser.add_argument("--speed", type=_speed, default=10.0,
                        help="how much faster than real time (default: %(default)g)")
    parser.add_argument("--state-dir", help="keep the journal here; a killed demo "
                        "started again with the same arguments resumes")


def _towers_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hourglass", metavar="SECONDS", type=_positive_seconds,
                        default=TowersOptions.hourglass_s,
                        help="towers: the active player's time to choose (default: %(default)g)")
    parser.add_argument("--sudden-death", action="store_true",
                        help="towers: no points, the first tower over the top loses")


def _profile(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="sim",
                        help="hardware profile: sim (default), reference, gpio-only or a file")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="obelisk",
        description="Obelisk Table: a smart table for the Obelisk family of games.",
    )
    parser.add_argument("--version", action="version", version=f"obelisk {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    rules = commands.add_parser("rules", help="print the rules of a game as the table plays them")
    games = rules.add_subparsers(dest="game", title="games")
    games.required = True
    towers = games.add_parser("towers", help="3D head-to-head tower packing")
    towers.add_argument("--set", metavar="FILE", help="your own block set (TOML)")
    _towers_options(towers)
    towers.set_defaults(run=_rules_towers)
    stones = games.add_parser("stones", help="SE20ND Obelisk: three stones and symmetry")
    _stones_options(stones)
    stones.set_defaults(run=_rules_stones)
    highrise = games.add_parser("highrise", help="High Rise: stacks over hidden values")
    highrise.add_argument("--size", type=_board_size, default=None, metavar="RxC",
                          help="board size, 3x3 (default) to 8x8")
    highrise.set_defaults(run=_rules_highrise)
    maze = games.add_parser("maze", help="the Architect against the Maze Master")
    _maze_options(maze)
    maze.set_defaults(run=_rules_maze)

    diag = commands.add_parser("diag", help="live view of every sensor, and an LED test")
    _profile(diag)
    diag.add_argument("--once", action="store_true", help="print one view and exit")
    diag.add_argument("--seconds", type=float, help="stop after this many seconds")
    diag.add_argument("--no-led-test", action="store_true", help="leave the LEDs dark")
    diag.add_argument("--still", action="store_true",
                      help="sim profile: no demo hand moving pieces")
    diag.set_defaults(run=_diag)

    calibrate = commands.add_parser("calibrate", help="measure the sensors a game needs")
    cal_games = calibrate.add_subparsers(dest="game", title="games")
    cal_games.required = True
    cal_highrise = cal_games.add_parser("highrise", help="weigh an empty board and one piece "
                                        "of each size")
    _profile(cal_highrise)
    cal_highrise.add_argument("--state-dir", help="where the calibration is kept (default: as "
                              "for obelisk run)")
    cal_highrise.set_defaults(run=_calibrate)

    run = commands.add_parser("run", help="the table service (on a Pi, systemd starts it)")
    _profile(run)
    run.add_argument("--state-dir", help="where the journal lives (default: systemd's "
                     "StateDirectory, else ~/.local/state/obelisk)")
    run.add_argument("--game", choices=("towers", "stones", "highrise", "maze"),
                     default="towers",
                     help="the game the table plays (default: towers)")
    _towers_options(run)
    _stones_options(run)
    _maze_options(run)
    run.set_defaults(run=_run)

    demo = commands.add_parser("demo", help="bots play a whole game on the simulated table")
    demo_games = demo.add_subparsers(dest="game", title="games")
    demo_games.required = True
    demo_towers = demo_games.add_parser("towers", help="a towers game through the whole stack")
    _demo_options(demo_towers)
    demo_towers.set_defaults(run=_demo_towers)
    demo_stones = demo_games.add_parser("stones", help="a stones game through the whole stack")
    _demo_options(demo_stones)
    demo_stones.add_argument("--mode", choices=("open", "bounded", "balanced"), default="open")
    demo_stones.add_argument("--edition", choices=("classic", "second"), default="classic")
    demo_stones.add_argument("--ply-limit", type=int, default=200, metavar="N",
                             help="draw after N moves in all (default: %(default)s)")
    demo_stones.add_argument("--stack-sensors", action="store_true",
                             help="simulate stack-height sensors: stacking needs no button")
    demo_stones.set_defaults(run=_demo_stones)
    demo_highrise = demo_games.add_parser("highrise", help="a High Rise game, hidden values "
                                          "and all, through the whole stack")
    _demo_options(demo_highrise)
    demo_highrise.add_argument("--size", type=_board_size, default=(3, 3), metavar="RxC",
                               help="board size, 3x3 (default) to 8x8")
    demo_highrise.set_defaults(run=_demo_highrise)
    demo_maze = demo_games.add_parser("maze", help="a maze game, walls and all, through the "
                                      "whole stack")
    _demo_options(demo_maze)
    _maze_options(demo_maze)
    demo_maze.set_defaults(run=_demo_maze)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``obelisk`` command; errors meant for people end with exit status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (ObeliskError, ProfileError, LedError, JournalError, CalibrationError,
            SealError, argparse.ArgumentTypeError) as exc:
        print(f"obelisk: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
