"""Hardware profiles: which devices this table has and where they are wired.

A profile is a TOML file. Three ship with the project (``sim``, the default;
``reference``; ``gpio-only``) and an owner may write their own. Every key is
checked: a bad profile is refused naming the key, the problem and the fix.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar

from hardware.files import read_limited

BUILT_IN = ("sim", "sim-maze", "reference", "gpio-only")
PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "native", "default")
LED_OUTPUTS = ("sim", "pi", "scanner")
# The Pi pins that can drive NeoPixels. D10 (SPI) works for an unprivileged
# service; D12, D18 and D21 (PWM, PCM) need root on a Pi 4 or older.
PI_LED_PINS = ("D10", "D12", "D18", "D21")
_GPIO = re.compile(r"^(GPIO|BCM)?(\d{1,2})$")
BAUD_RANGE = (300, 4_000_000)
"""Serial speeds a scanner board can run at; the reference board uses 115200."""
MAX_PROFILE_BYTES = 64 * 1024
"""A profile is about a kilobyte: anything far larger is the wrong file."""
_KIND_WORDS = {int: "a whole number", float: "a number", str: "text in quotes",
               bool: "true or false", list: "a list"}


class ProfileError(ValueError):
    """A profile that cannot describe a working table."""


TomlTable = dict[str, object]
"""A TOML table as tomllib reads it: its values are checked one key at a time (``_get``)."""
_T = TypeVar("_T")


class BoardLayout(TypedDict):
    """What a scanner board is wired to: the counts its hello announces (``board_layout``)."""

    towers: int
    rods: int
    levels: int
    rows: int
    cols: int
    loads: int
    leds: int
    stack: NotRequired[int]  # stack-height levels each square senses; 1 when absent
    walls: NotRequired[bool]  # a second switch under each square sees maze walls


@dataclass(frozen=True)
class ScannerConfig:
    """Where the sensors come from: a scanner board on a serial port, or the sim."""

    port: str  # "sim", "gpio" (scanner code on the Pi's own pins) or a device path / URL
    baud: int
    towers: int
    rows: int
    cols: int
    load_cells: int
    stack_levels: int = 1
    """Stack heights each board square senses: 1 = occupancy only, up to 3."""
    wall_sensors: bool = False
    """A second switch under each square, of the other polarity, for maze walls."""

    @property
    def square_switches(self) -> int:
        return 2 if self.wall_sensors else self.stack_levels


@dataclass(frozen=True)
class ButtonsConfig:
    pin_factory: str
    player_a: str
    player_b: str
    menu: str
    buzzer: str
    hold_s: float


@dataclass(frozen=True)
class LedChain:
    output: str  # sim | pi | scanner
    pin: str
    parts: tuple[tuple[str, str, int], ...]  # (part, owner, count)


@dataclass(frozen=True)
class Profile:
    name: str
    source: str
    scanner: ScannerConfig
    buttons: ButtonsConfig
    brightness: float
    chains: tuple[LedChain, ...]

    @property
    def simulated(self) -> bool:
        return self.scanner.port == "sim"


def load_profile(name_or_path: str | Path = "sim") -> Profile:
    """A built-in profile by name, or a profile file by path."""
    text_name = str(name_or_path)
    if text_name in BUILT_IN:
        text = resources.files("hardware").joinpath("profiles", f"{text_name}.toml")\
            .read_text("utf-8")
        return parse_profile(text, source=f"{text_name} profile")
    path = Path(name_or_path)
    return parse_profile(read_profile_file(path), source=f"profile {path}")


def read_profile_file(path: Path) -> str:
    """The text of a profile file: ``--profile /dev/zero``, a folder or a FIFO is refused
    before anything is read (``hardware.files``)."""
    other = f"give the path of a profile .toml file, or one of {', '.join(BUILT_IN)}"
    try:
        return read_limited(path, MAX_PROFILE_BYTES).decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise ProfileError(
            f"no profile {str(path)!r}: use one of {', '.join(BUILT_IN)} or the path of a "
            "profile file"
        ) from None
    except OSError as exc:
        raise ProfileError(f"profile {path}: cannot be read ({exc.strerror}); {other}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProfileError(f"profile {path}: cannot be read ({exc}); {other}") from None


def parse_profile(text: str, source: str = "profile") -> Profile:
    """Check every key of a profile and build it; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML ({exc}); fix the line it names") from None
    _keys(data, {"name", "scanner", "buttons", "leds"}, source, "")
    name = _get(data, "name", str, source, "", "sim")
    scanner = _scanner(_table(data, "scanner", source), source)
    buttons = _buttons(_table(data, "buttons", source), source)
    leds = _table(data, "leds", source)
    _keys(leds, {"brightness", "chain"}, source, "[leds] ")
    brightness = float(_get(leds, "brightness", (int, float), source, "[leds] ", 0.3))
    if not 0 < brightness <= 1:
        raise ProfileError(f"{source}: [leds] brightness = {brightness} is out of range; "
                           "use a number above 0 and at most 1 (0.3 is comfortable indoors)")
    raw_chains: list[object] = _get(
        leds, "chain", list, source, "[leds] ", [],
        fix="write each chain as a [[leds.chain]] table with output and parts")
    chains = tuple(_chain(c, i, scanner, source) for i, c in enumerate(raw_chains, 1))
    _check_parts_once(chains, source)
    return Profile(name=name, source=source, scanner=scanner, buttons=buttons,
                   brightness=brightness, chains=chains)


# ------------------------------------------------------------------ sections


def _scanner(t: TomlTable, source: str) -> ScannerConfig:
    where = "[scanner] "
    _keys(t, {"port", "baud", "towers", "board", "load_cells", "stack_levels", "wall_sensors"},
          source, where)
    port = _get(t, "port", str, source, where, "sim")
    if not port.strip() or not port.isprintable():
        raise ProfileError(f"{source}: {where}port = {port!r} is not a serial port; write the "
                           "board's device path, like \"/dev/ttyACM0\", or \"sim\" or \"gpio\"")
    baud = _get(t, "baud", int, source, where, 115200)
    low, high = BAUD_RANGE
    if not low <= baud <= high:
        raise ProfileError(f"{source}: {where}baud = {baud} is out of range; use the board's "
                           f"speed, {low} to {high} (the reference board uses 115200)")
    towers = _get(t, "towers", int, source, where, 2)
    if towers not in (0, 2):
        raise ProfileError(f"{source}: {where}towers = {towers}; a table has 2 towers, or 0 "
                           "for a board-only table")
    rows, cols = _board_size(t, source, where)
    loads = _get(t, "load_cells", int, source, where, 0)
    if not 0 <= loads <= 64:
        raise ProfileError(f"{source}: {where}load_cells = {loads}; a table has 0 to 64 "
                           "HX711 load cells (one per square at most)")
    stack = _stack_levels(t, port, rows, source, where)
    walls = _wall_sensors(t, port, rows, stack, source, where)
    return ScannerConfig(port, baud, towers, rows, cols, loads, stack, walls)


def _board_size(t: TomlTable, source: str, where: str) -> tuple[int, int]:
    """Rows and columns of ``board = "8x8"``; (0, 0) for a table without a board."""
    board = _get(t, "board", str, source, where, "none")
    if board == "none":
        return 0, 0
    match = re.fullmatch(r"(\d)x(\d)", board)
    if not match or not all(3 <= int(v) <= 8 for v in match.groups()):
        raise ProfileError(f"{source}: {where}board = {board!r}; write rows x columns "
                           "from 3x3 to 8x8, like \"8x8\", or \"none\"")
    return int(match[1]), int(match[2])


def _stack_levels(t: TomlTable, port: str, rows: int, source: str, where: str) -> int:
    """Stack-height sensors need board squares to sit under and drive lines to spare."""
    stack = _get(t, "stack_levels", int, source, where, 1)
    if not 1 <= stack <= 3:
        raise ProfileError(f"{source}: {where}stack_levels = {stack}; use 1 (a switch per "
                           "square) or 2 to 3 (stack-height sensors, see hardware/README.md)")
    if stack > 1 and not rows:
        raise ProfileError(f"{source}: {where}stack_levels = {stack}, but board = \"none\"; "
                           "stack-height sensors sit under board squares")
    if stack > 1 and port == "gpio":
        raise ProfileError(f"{source}: {where}stack_levels = {stack} needs more drive lines "
                           "than the gpio-only build has; use a scanner board, or 1")
    return stack


def _wall_sensors(t: TomlTable, port: str, rows: int, stack: int, source: str, where: str) -> bool:
    """Wall sensors take the second switch under a square, which stack sensors also want."""
    walls = _get(t, "wall_sensors", bool, source, where, False)
    if walls and stack > 1:
        raise ProfileError(f"{source}: {where}wall_sensors = true and stack_levels = {stack}: "
                           "the second switch under a square is one or the other; pick one")
    if walls and (not rows or port == "gpio"):
        raise ProfileError(f"{source}: {where}wall_sensors = true needs a board and a scanner "
                           "board (more drive lines than the gpio-only build has)")
    return walls


def _buttons(t: TomlTable, source: str) -> ButtonsConfig:
    where = "[buttons] "
    _keys(t, {"pin_factory", "player_a", "player_b", "menu", "buzzer", "hold_s"}, source, where)
    factory = _get(t, "pin_factory", str, source, where, "default")
    if factory not in PIN_FACTORIES:
        raise ProfileError(f"{source}: {where}pin_factory = {factory!r}; use one of "
                           f"{', '.join(PIN_FACTORIES)} (mock for the simulated table)")
    pins: dict[str, str] = {}
    numbers: dict[str, int] = {}  # the GPIO number of each pin in ``pins``
    for key, default in (("player_a", "GPIO17"), ("player_b", "GPIO27"), ("menu", "GPIO22"),
                         ("buzzer", "GPIO23")):
        pin = _get(t, key, str, source, where, default)
        gpio = _GPIO.match(pin)
        if not gpio:
            raise ProfileError(f"{source}: {where}{key} = {pin!r} is not a GPIO pin; "
                               "write it like \"GPIO17\"")
        number = int(gpio[2])
        if number > 27:
            raise ProfileError(f"{source}: {where}{key} = {pin!r}; the Pi header has GPIO0 "
                               "to GPIO27")
        for other, used in numbers.items():
            if used == number:
                raise ProfileError(f"{source}: {where}{key} and {other} both use GPIO{number}; "
                                   "give each its own pin")
        pins[key] = pin
        numbers[key] = number
    hold = float(_get(t, "hold_s", (int, float), source, where, 1.0))
    if not 0.05 <= hold <= 10:
        raise ProfileError(f"{source}: {where}hold_s = {hold}; a hold (undo) should take "
                           "between 0.05 and 10 seconds")
    return ButtonsConfig(factory, pins["player_a"], pins["player_b"], pins["menu"],
                         pins["buzzer"], hold)


_PART = re.compile(r"^(ring|tower|zone|board)(?: (A|B))?(?: (\d+))?$")


def _chain(t: object, number: int, scanner: ScannerConfig, source: str) -> LedChain:
    where = f"[[leds.chain]] #{number} "
    if not isinstance(t, dict):
        raise ProfileError(f"{source}: {where}must be a table with output and parts")
    _keys(t, {"output", "pin", "parts"}, source, where)
    output = _get(t, "output", str, source, where, None)
    if output not in LED_OUTPUTS:
        raise ProfileError(f"{source}: {where}output = {output!r}; use one of "
                           f"{', '.join(LED_OUTPUTS)}")
    pin = _get(t, "pin", str, source, where, "D10" if output == "pi" else "")
    if output == "pi" and pin not in PI_LED_PINS:
        raise ProfileError(f"{source}: {where}pin = {pin!r} cannot drive NeoPixels; use one "
                           f"of {', '.join(PI_LED_PINS)} (D10, the SPI pin, needs no root)")
    if output == "scanner" and scanner.port == "gpio":
        raise ProfileError(f"{source}: {where}output = \"scanner\" but this table has no "
                           "scanner board ([scanner] port = \"gpio\"); use output = \"pi\"")
    raw: list[object] = _get(t, "parts", list, source, where, None)
    if not raw:
        raise ProfileError(f"{source}: {where}needs parts, like parts = [\"ring A 16\"]")
    return LedChain(output, pin, tuple(_part(p, scanner, source, where) for p in raw))


def _part(text: object, scanner: ScannerConfig, source: str, where: str) -> tuple[str, str, int]:
    match = _PART.match(text) if isinstance(text, str) else None
    fix = ("write parts like \"ring A 16\", \"ring B 16\", \"tower A\", \"tower B\", "
           "\"zone 2\" or \"board\"")
    if not match:
        raise ProfileError(f"{source}: {where}part {text!r} is unknown; {fix}")
    kind, owner, count = match[1], match[2] or "", match[3]
    if kind in ("ring", "tower") and not owner:
        raise ProfileError(f"{source}: {where}part {text!r} needs a player: A or B; {fix}")
    if kind == "ring":
        n = int(count or 0)
        if not 1 <= n <= 64:
            raise ProfileError(f"{source}: {where}part {text!r}: a ring has 1 to 64 pixels")
    elif kind == "zone":
        n = int(count or 0)
        if not 1 <= n <= 8:
            raise ProfileError(f"{source}: {where}part {text!r}: a zone has 1 to 8 pixels")
    elif kind == "tower":
        if not scanner.towers:
            raise ProfileError(f"{source}: {where}part {text!r}, but [scanner] towers = 0")
        n = 9
    else:
        if not scanner.rows:
            raise ProfileError(f"{source}: {where}part {text!r}, but [scanner] board = \"none\"")
        n = scanner.rows * scanner.cols
    return (kind, owner, n)


def _check_parts_once(chains: tuple[LedChain, ...], source: str) -> None:
    seen = set()
    for chain in chains:
        for kind, owner, _ in chain.parts:
            if (kind, owner) in seen:
                label = f"{kind} {owner}".strip()
                raise ProfileError(f"{source}: the LED part {label!r} is on two chains; "
                                   "list each part once")
            seen.add((kind, owner))


# ------------------------------------------------------------------ helpers


def _table(data: TomlTable, key: str, source: str) -> TomlTable:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ProfileError(f"{source}: {key} must be a [{key}] table")
    return value


def _keys(t: TomlTable, known: set[str], source: str, where: str) -> None:
    unknown = sorted(set(t) - known)
    if unknown:
        raise ProfileError(f"{source}: {where}unknown key {unknown[0]!r}; the keys here are "
                           f"{', '.join(sorted(known))}")


def _get(t: TomlTable, key: str, kind: type[_T] | tuple[type[_T], ...], source: str, where: str,
         default: _T | None, *, fix: str = "") -> _T:
    """``t[key]`` checked to be of ``kind``; ``default`` when absent (None: it is required)."""
    if key not in t:
        if default is None:
            raise ProfileError(f"{source}: {where}{key} is missing; add it")
        return default
    value = t[key]
    kinds = (kind,) if isinstance(kind, type) else kind
    if not isinstance(value, kinds) or (isinstance(value, bool) and kind is not bool):
        names = " or ".join(dict.fromkeys(_KIND_WORDS.get(k, k.__name__) for k in kinds))
        if float in kinds:
            names = _KIND_WORDS[float]
        raise ProfileError(f"{source}: {where}{key} = {value!r} should be {names}"
                           + (f"; {fix}" if fix else ""))
    return value


def board_layout(profile: Profile) -> BoardLayout:
    """The scanner board's layout as the profile describes the table: what the simulated
    board is built with, and what a real board's code.py must agree with."""
    scanner = profile.scanner
    leds = sum(count for chain in profile.chains if chain.output == "scanner"
               for _, _, count in chain.parts)
    layout: BoardLayout = {"towers": scanner.towers, "rods": 9, "levels": 9, "rows": scanner.rows,
              "cols": scanner.cols, "loads": scanner.load_cells, "leds": leds,
              "stack": scanner.square_switches}
    if scanner.wall_sensors:
        layout["walls"] = True  # the second switch under each square sees walls
    return layout
