"""The one registry of games: every game the table plays, and what it is made of.

One entry per game: its options and the command-line flags that set them,
its engine (the rules), how its actions read as plain data, its rules
sheet, its table (the state machine on the sensors), the view of a sensor
snapshot it compares, its demo and the simulated table it plays on. The
command line, the service, the benches and the tests go through this
registry; nothing else names a game. A game is added with ``register``
(the tests add a fifth game of their own that way).

The parts are named as ``"module:attribute"`` and loaded when first asked
for, the options classes too: ``obelisk --help`` imports no game, and the
service imports only the game it plays (every engine costs start-up time).
For the same reason a flag's words (``--mode open``) are written here; a
test checks them against the engine's.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

PLY_LIMIT_MAX = 10_000


def seconds_in(low: float, high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high`` (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"{what} is {low:g} to {high:g} seconds, not {text}")
        return value

    return parse


def board_size(text: str) -> tuple[int, int]:
    """Rows x columns; each game checks the sizes it plays (stones 4x4, High Rise 3x3 up)."""
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write rows x columns, like 6x4") from None
    if not (3 <= rows <= 8 and 3 <= cols <= 8):
        raise argparse.ArgumentTypeError(f"{text}: a board is 3x3 to 8x8")
    return rows, cols


def ply_limit(text: str) -> int:
    """A number of moves after which the game is drawn."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of moves") from None
    if not 1 <= value <= PLY_LIMIT_MAX:
        raise argparse.ArgumentTypeError(f"the ply limit is 1 to {PLY_LIMIT_MAX} moves, not "
                                         f"{text}")
    return value


@dataclass(frozen=True)
class Flag:
    """A command-line flag that sets one or more fields of a game's options."""

    name: str
    fields: tuple[str, ...]
    help: str
    type: Callable[[str], object] | None = None
    choices: tuple[object, ...] | None = None
    metavar: str | None = None
    switch: bool = False  # a flag with no value that turns the option on
    enum: str = ""  # "module:Enum": the value is one of its members, typed as its word

    @property
    def dest(self) -> str:
        return self.name.lstrip("-").replace("-", "_")

    def add_to(self, parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
        """Add the flag; it is absent from the parsed arguments unless it was typed."""
        kwargs: dict = {"dest": self.dest, "default": argparse.SUPPRESS,
                        "help": help_text or self.help}
        if self.switch:
            kwargs["action"] = "store_true"
        else:
            kwargs.update({k: v for k, v in (("type", self.type), ("choices", self.choices),
                                             ("metavar", self.metavar)) if v is not None})
        parser.add_argument(self.name, **kwargs)

    def values(self, given: object) -> dict[str, object]:
        """The option fields a typed value sets."""
        if self.enum:
            given = load(self.enum)(given)
        if len(self.fields) == 1:
            return {self.fields[0]: given}
        return dict(zip(self.fields, given, strict=True))  # e.g. --size sets rows and cols

    def shown(self, options: object) -> str | None:
        """How a person would type this flag to get ``options`` (None: nothing to type)."""
        values = [getattr(options, f) for f in self.fields]
        if self.switch:
            return self.name if values[0] else None
        if values[0] is None:
            return None
        text = "x".join(_word(v) for v in values)
        return f"{self.name} {text}"


def _word(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def load(ref: str) -> Any:
    """``"package.module:attribute"`` (or just a module) imported and looked up."""
    module, _, attribute = ref.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@dataclass(frozen=True)
class Game:
    """One game the table plays, and where each of its parts is."""

    id: str
    help: str
    options_class: str  # the options dataclass, as "module:attribute"
    flags: tuple[Flag, ...]
    engine: str  # the engine's Game class, made with make(options, extras)
    record: str  # module with action_to_dict and action_from_dict
    rules: str  # rules_text(options) -> the rules sheet
    table: str  # the table class (firmware.table.Table)
    view: str  # view_of(snapshot) -> what the table compares
    demo: str  # run_demo(settings, **extra) -> exit status
    screen: str  # draw(observation) -> the board in text, for terminal views
    profile: str = "sim"  # the simulated table it plays on
    demo_defaults: dict = field(default_factory=dict)  # what a demo plays unless told
    maker: str = ""  # make(options, extras) when the engine's Game is not made as Game(options)
    extra_flags: tuple[Flag, ...] = ()  # set what the game is made of (a towers set): extras
    demo_flags: tuple[Flag, ...] = ()  # a demo's own choices, passed to run_demo by name
    calibrate: str = ""  # run_calibrate(profile, state_dir) for sensors measured once
    calibrate_help: str = ""
    hands: str = ""  # Hands(sim): a person's hands on the simulated table (obelisk play)
    prepare: str = ""  # prepare(state_dir, board_profile, ask): before play's service starts
    solo: str = ""  # the module lighting the computer's moves (lights, together, hand):
    # "" when the computer does not play this game

    @property
    def options(self) -> type:
        """The game's options dataclass (its engine is imported on first use)."""
        return load(self.options_class)

    def make(self, options: object, extras: dict | None = None) -> Any:
        """The engine's game for these options (and extras a record kept, like a towers set)."""
        if self.maker:
            return load(self.maker)(options, extras or {})
        return load(self.engine)(options)

    def codec(self) -> tuple[Callable[[Any], dict], Callable[[object], Any]]:
        """(action_to_dict, action_from_dict) of this game's records."""
        module = load(self.record)
        return module.action_to_dict, module.action_from_dict

    def options_with(self, chosen: dict[str, object], base: object | None = None) -> object:
        """``base`` (or the defaults) with the typed fields changed; checked by the options."""
        base = base if base is not None else self.options()
        try:
            return dataclasses.replace(base, **chosen)
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    def flag_of(self, field_name: str) -> str:
        """The flag a person types to set an option field (``hourglass_s``: ``--hourglass``)."""
        for flag in (*self.flags, *self.extra_flags):
            if field_name in flag.fields:
                return flag.name
        return field_name

    def describe(self, options: object) -> str:
        """The options as the flags a person would type (empty for the defaults)."""
        return " ".join(s for f in self.flags if (s := f.shown(options))
                        and f.shown(options) != f.shown(self.options()))


_SIZE = "rows x columns"

def _own_set(path: str) -> dict:
    """``--set FILE``: an owner's wooden set, checked, as the plain data a journal keeps."""
    from engine.errors import BlockSetError
    from engine.towers.blocks import block_set_to_dict
    from firmware.towers.sets import load_block_set

    try:
        return block_set_to_dict(load_block_set(path))
    except BlockSetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _hourglass(text: str) -> float:
    """``--hourglass``: seconds in the towers engine's range (imported once it is typed)."""
    from engine.towers.game import HOURGLASS_RANGE_S

    return seconds_in(*HOURGLASS_RANGE_S, "the hourglass")(text)


def _parts(game: str, engine: str) -> dict[str, str]:
    """Where a game's parts are when they follow the layout (engine/<game>, firmware/<game>)."""
    name = engine.removesuffix("Game")
    return {"options_class": f"engine.{game}.game:{name}Options",
            "engine": f"engine.{game}.game:{engine}", "record": f"engine.{game}.record",
            "rules": f"engine.{game}.rules:rules_text",
            "table": f"firmware.{game}.table:{name}Table",
            "view": f"firmware.{game}.view:view_of", "demo": f"firmware.{game}.demo:run_demo",
            "screen": f"firmware.{game}.screen:draw", "hands": f"firmware.{game}.hands:Hands",
            "solo": f"firmware.{game}.solo"}


GAMES: dict[str, Game] = {game.id: game for game in (
    Game("towers", "3D head-to-head tower packing", flags=(
        Flag("--hourglass", ("hourglass_s",),
             "the active player's time to choose, in seconds (default: 60)",
             type=_hourglass, metavar="SECONDS"),
        Flag("--sudden-death", ("sudden_death",), "no points: the first tower over the top "
             "loses", switch=True),
    ), **_parts("towers", "TowersGame"), maker="firmware.towers.sets:make_game",
        extra_flags=(Flag("--set", ("set",), "your own wooden block set (TOML; see `obelisk "
                          "rules towers`)", type=_own_set, metavar="FILE"),)),
    Game("stones", "SE20ND Obelisk: three stones and symmetry", flags=(
        Flag("--size", ("rows", "cols"), f"{_SIZE}, 4x4 to 8x8 (default 6x4)", type=board_size,
             metavar="RxC"),
        Flag("--mode", ("mode",), "the symmetry each move must keep (default: open)",
             choices=("open", "bounded", "balanced"), enum="engine.stones.game:Mode"),
        Flag("--edition", ("edition",), "the words used: classic (cornerstone, keystone) or "
             "second (base, pedestal)", choices=("classic", "second"),
             enum="engine.stones.game:Edition"),
        Flag("--ply-limit", ("ply_limit",), "draw after N moves in all (default: none; the "
             "demo: 200)", type=ply_limit, metavar="N"),
    ), **_parts("stones", "StonesGame"), demo_defaults={"ply_limit": 200},
        demo_flags=(Flag("--stack-sensors", ("stack_sensors",), "simulate stack-height "
                         "sensors: stacking needs no button", switch=True),)),
    Game("highrise", "High Rise: stacks over hidden values", flags=(
        Flag("--size", ("rows", "cols"), f"{_SIZE}, 3x3 (default) to 8x8", type=board_size,
             metavar="RxC"),
    ), **_parts("highrise", "HighriseGame"), prepare="firmware.highrise.hands:prepare",
        calibrate="firmware.highrise.calibrate:run_calibrate",
        calibrate_help="weigh an empty board and one piece of each size"),
    Game("maze", "the Architect against the Maze Master", flags=(
        Flag("--turns", ("turns",), "the turn limit (default: 20; 25 helps the Architect, 15 "
             "the Maze Master)", type=int, choices=(15, 20, 25)),  # the engine's TURN_LIMITS
    ), **_parts("maze", "MazeGame"), profile="sim-maze"),
)}

DEFAULT_GAME = "towers"


def register(game: Game) -> None:
    """Add a game to the registry (a new game needs nothing else outside its own files)."""
    GAMES[game.id] = game


def chosen_options(game: Game, args: argparse.Namespace) -> dict[str, object]:
    """The option fields the person typed flags for (nothing typed: nothing chosen).

    A typed flag that belongs to another game is refused, so that ``--turns``
    on a towers table does not pass unnoticed.
    """
    return _typed(game, args, "flags")


def chosen_extras(game: Game, args: argparse.Namespace) -> dict[str, object]:
    """What the person typed about what the game is made of (``--set``)."""
    return _typed(game, args, "extra_flags")


def chosen_demo(game: Game, args: argparse.Namespace) -> dict[str, object]:
    """A demo's own choices typed (``--stack-sensors``)."""
    return _typed(game, args, "demo_flags")


def _typed(game: Game, args: argparse.Namespace, kind: str) -> dict[str, object]:
    mine = {f.dest for f in getattr(game, kind)}
    for other in GAMES.values():
        for f in getattr(other, kind):
            if f.dest not in mine and hasattr(args, f.dest):
                raise argparse.ArgumentTypeError(
                    f"{f.name} is an option of {other.id}, not of {game.id}")
    chosen: dict[str, object] = {}
    for f in getattr(game, kind):
        if hasattr(args, f.dest):
            chosen.update(f.values(getattr(args, f.dest)))
    return chosen


def add_game_flags(parser: argparse.ArgumentParser, games: list[Game],
                   kinds: tuple[str, ...] = ("flags", "extra_flags")) -> None:
    """The flags of ``games`` on one parser; a flag two games share is added once."""
    helps: dict[str, list[str]] = {}
    flags: dict[str, Flag] = {}
    for game in games:
        for f in (f for kind in kinds for f in getattr(game, kind)):
            flags.setdefault(f.name, f)
            helps.setdefault(f.name, []).append(f.help if len(games) == 1
                                                else f"{game.id}: {f.help}")
    for name, f in flags.items():
        f.add_to(parser, "; ".join(helps[name]))
