"""What a game declares: one value per game, in its own package, naming all its parts.

Each game's package (``firmware/towers/__init__.py`` and the rest) holds one
``GameType``: its id and words, the flags that set its options, and where
each of its parts is: the engine's game, its record format, its rules
sheet, the table that reads its sensors, its LEDs (drawn by the table),
its screen, its demo, its opponent's tuning, its simulated hands and its
page modules. The registry (``firmware.games``) lists these declarations;
the rest of the system asks a declaration for a part (``game.table()``,
``game.tuning()``) and never looks one up by its name.

A part is written as ``".module:attribute"`` relative to the game's own
package (or a full dotted name) and imported when first asked for:
``obelisk --help`` imports no game, and the service only the game it plays
(every engine costs start-up time on a Pi). ``tests/core/test_contract.py``
resolves every declared part of every game, so a wrong name fails there.
A part a game does not declare has one fallback, said beside its field.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.record import Options

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


def board_size(game: str, low: int) -> Callable[[str], tuple[int, int]]:
    """An argparse type: rows x columns of ``game``'s board, ``low`` to 8 each way (the
    game's own bounds, so a refusal says the same as its --help)."""

    def parse(text: str) -> tuple[int, int]:
        try:
            rows, cols = (int(v) for v in text.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: write rows x columns, like 6x4") \
                from None
        if not (low <= rows <= 8 and low <= cols <= 8):
            raise argparse.ArgumentTypeError(f"a {game} board is {low}x{low} to 8x8, not {text}")
        return rows, cols

    return parse


def ply_limit(text: str) -> int:
    """A number of moves after which the game is drawn."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of moves") from None
    if not 1 <= value <= PLY_LIMIT_MAX:
        raise argparse.ArgumentTypeError(f"the move limit is 1 to {PLY_LIMIT_MAX} moves, not "
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
    words: str = ""  # what a person calls it (the form's label), if not the flag's own name

    @property
    def label(self) -> str:
        """The option as the new-game form names it: the rules' words."""
        return self.words or self.name.lstrip("-").replace("-", " ")

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
        if not isinstance(given, tuple):  # a game's flag whose type gives one value for many
            raise TypeError(f"{self.name} sets {', '.join(self.fields)}: its type gives "
                            f"{given!r}, not one value each")
        return dict(zip(self.fields, given, strict=True))  # e.g. --size sets rows and cols

    def shown(self, options: object) -> str | None:
        """How a person would type this flag to get ``options`` (None: nothing to type; a
        field left None is typed as ``none``, which the flag's type must read back)."""
        values = [getattr(options, f) for f in self.fields]
        if self.switch:
            return self.name if values[0] else None
        if values[0] is None:  # such a flag takes the word: --ply-limit none
            return f"{self.name} none"
        text = "x".join(_word(v) for v in values)
        return f"{self.name} {text}"


def _word(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def load(ref: str, package: str | None = None) -> Any:
    """``"package.module:attribute"`` (or just a module) imported and looked up; a name
    starting with a dot is relative to ``package``."""
    module, _, attribute = ref.partition(":")
    found = importlib.import_module(module, package)
    return getattr(found, attribute) if attribute else found


@dataclass(frozen=True)
class GameType:
    """One game the table plays: its words, its options' flags, and where each part is.

    The parts every game has come first; the optional ones after, each with
    what the table does for a game that leaves it out.
    """

    id: str
    help: str
    package: str  # the declaring package: relative parts (".table:X") start from it
    options_class: str  # the options dataclass
    engine: str  # the engine's Game class, made as Game(options)
    record: str  # module with action_to_dict and action_from_dict
    rules: str  # rules_text(game) -> the rules sheet
    table: str  # the table class (firmware.core.table.Table): sensing, LEDs, buttons
    view: str  # view_of(snapshot) -> what the table compares
    demo: str  # run_demo(settings, **extra) -> exit status
    screen: str  # draw(observation) -> the board in text, for terminal views
    flags: tuple[Flag, ...] = ()  # set the game's options
    profile: str = "sim"  # the simulated table it plays on
    demo_defaults: dict = field(default_factory=dict)  # what a demo plays unless told
    maker: str = ""  # make(options, extras) when the game is built from more than options
    extra_flags: tuple[Flag, ...] = ()  # set what the game is made of (a towers set): extras
    demo_flags: tuple[Flag, ...] = ()  # a demo's own choices, passed to run_demo by name
    tuning: str = ""  # the opponent's search tuning; none: the generic search's defaults
    solo: str = ""  # the module lighting the computer's moves; none: the computer does not
    # play this game, and --solo says so
    hands: str = ""  # Hands(sim): a person's hands on the simulated table, with act, look,
    # and physical/restore (what stands there as plain data, kept across restarts); none:
    # no `obelisk play` (it says so)
    prepare: str = ""  # prepare(state_dir, board_profile, ask) before play's service starts
    calibrate: str = ""  # run_calibrate(profile, state_dir) for sensors measured once
    calibrate_help: str = ""
    page: str = ""  # the page's module drawing the board (static/<page>.js); none: the
    # page shows the game's words without a drawing
    hands_page: str = "hands_stones"  # the page's module of the hands panel; the default
    # draws pieces standing on squares (``firmware.sim.hands.SquareHands``)
    hidden_chance: bool = False  # its chance stays hidden until the end: a remote match
    # cannot draw it from the match's name (``firmware.match.seat``)
    first_by: str = ""  # what decides who begins, where chance does ("the coin toss"), so
    # a person who pressed A is told why B begins; none: the rules name who begins
    seats: str = ""  # {seat: name} where the game names its seats (the maze's roles) in
    # every word said; none: player A and player B

    def _part(self, ref: str) -> Any:
        return load(ref, self.package)

    @property
    def options(self) -> type[Options]:
        """The game's options dataclass (its engine is imported on first use)."""
        return self._part(self.options_class)

    def make(self, options: object, extras: dict | None = None) -> Any:
        """The engine's game for these options (and extras a record kept, like a towers set)."""
        if self.maker:
            return self._part(self.maker)(options, extras or {})
        return self._part(self.engine)(options)

    def codec(self) -> tuple[Callable[[Any], dict], Callable[[object], Any]]:
        """(action_to_dict, action_from_dict) of this game's records."""
        module = self._part(self.record)
        return module.action_to_dict, module.action_from_dict

    def rules_text(self, game: Any) -> str:
        """The rules sheet of an engine game (its options change the words)."""
        return self._part(self.rules)(game)

    def table_class(self) -> Any:
        """The table class the service plays this game on."""
        return self._part(self.table)

    def view_of(self) -> Callable[[Any], Any]:
        """The function from a sensor snapshot to what the table compares."""
        return self._part(self.view)

    def run_demo(self) -> Callable[..., int]:
        """The demo: the simulated table played by bots."""
        return self._part(self.demo)

    def draw(self) -> Callable[[Any], str]:
        """The board in text from an observation, for terminal views."""
        return self._part(self.screen)

    def opponent_tuning(self) -> Any:
        """The search tuning of the computer's play: the game's own, or the defaults."""
        if self.tuning:
            return self._part(self.tuning)
        from engine.search.base import DEFAULT

        return DEFAULT

    def solo_rules(self) -> Any | None:
        """How the computer's moves light up and are made (None: it does not play)."""
        return self._part(self.solo) if self.solo else None

    def seat_names(self) -> dict[str, str]:
        """The seats as the game names them ({"A": "the Architect", ...}; {}: as players)."""
        return dict(self._part(self.seats)) if self.seats else {}

    def hands_class(self) -> Any | None:
        """A person's hands on the simulated table (None: the game declares none)."""
        return self._part(self.hands) if self.hands else None

    def prepare_play(self) -> Callable[..., Any] | None:
        """What ``obelisk play`` does before its service starts (None: nothing)."""
        return self._part(self.prepare) if self.prepare else None

    def run_calibrate(self) -> Callable[..., int] | None:
        """``obelisk calibrate <game>`` (None: the game measures nothing once)."""
        return self._part(self.calibrate) if self.calibrate else None

    def parts(self) -> dict[str, str]:
        """Every part this game declares, by field: what a test resolves."""
        refs = ("options_class", "engine", "record", "rules", "table", "view", "demo",
                "screen", "maker", "tuning", "solo", "hands", "prepare", "calibrate", "seats")
        return {name: ref for name in refs if (ref := getattr(self, name))}

    def resolve(self, ref: str) -> Any:
        """One declared part, imported (for the test that checks them all)."""
        return self._part(ref)

    def options_with(self, chosen: dict[str, object], base: Options | None = None) -> Options:
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


