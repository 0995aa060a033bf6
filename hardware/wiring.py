"""The build's wiring as a picture: every pin used, and what it goes to.

``obelisk wiring`` draws it for a profile. Nothing in it is typed in twice:
the Pi's pins come from the profile (buttons, LED chains), the scanner
board's from ``PINS`` and ``drive_lines()`` in hardware/scanner/code.py, and
the gpio-only build's matrix pins from ``PINS`` in hardware/onboard.py. So
the picture follows the code, and where a profile and code.py's ``LAYOUT``
disagree the picture says so in red instead of quietly picking one.

``plan()`` and ``draw_svg()`` only turn values into rows and rows into SVG
text; ``wiring_for()`` gathers the values from the code.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TypedDict

from hardware.profile import BoardLayout, Profile

PI_HEADER = {0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19,
             11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38,
             21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13}
"""BCM GPIO number to pin of the 40-pin header (the same on every Pi the table runs on)."""
PICO_HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
               11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
               20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
"""Pico GPn to its numbered pin on the board's edge."""
COMPARED = ("towers", "rods", "levels", "rows", "cols", "loads", "leds", "stack")
"""What both code.py's ``LAYOUT`` and the profile state, and must agree on."""

_PART_NAMES = {"ring": "ring {}", "tower": "tower {} grid", "zone": "zone", "board": "board"}
_LED_DATA = "through a 74AHCT125 gate and 330 ohm"


class PicoPins(TypedDict):
    """hardware/scanner/code.py's ``PINS``: the Pico's pins, named by what they do."""

    drive_data: str
    drive_clock: str
    drive_latch: str
    sense: list[str]
    load_clock: str
    load_data: list[str]
    pixels: str


GpioPins = dict[str, list[str]]
"""hardware/onboard.py's ``PINS``: the Pi's pins of the gpio-only build ("drive", "sense")."""


@dataclass(frozen=True)
class Wire:
    """One row of the picture: a pin, and what it goes to."""

    pin: str  # as the code names it: "GPIO17", "GP2", or a range like "Q0-Q8"
    goes_to: str
    header: str = ""  # where to find it on the board's edge: "pin 11"


@dataclass(frozen=True)
class Group:
    """A board (or a chip chain) and its wires, drawn as one box."""

    title: str
    wires: tuple[Wire, ...]


@dataclass(frozen=True)
class Chain:
    """A NeoPixel chain: where its data comes from, then its parts in order."""

    number: int
    source: str
    parts: tuple[tuple[str, int], ...]  # (what, pixels)


@dataclass(frozen=True)
class Wiring:
    """Everything the picture shows, in the order it shows it."""

    title: str
    groups: tuple[Group, ...]
    chains: tuple[Chain, ...]
    notes: tuple[str, ...]
    warnings: tuple[str, ...]


# ------------------------------------------------------------------ from the code


def wiring_for(profile: Profile) -> Wiring:
    """The wiring of this profile's build, from the very values the table's code runs on."""
    # Imported here: they bring the device layer, which plan() and draw_svg() need none of.
    from hardware.local_board import load_code_py
    from hardware.onboard import PINS as GPIO_PINS
    from hardware.profile import board_layout

    code = load_code_py()
    layout = board_layout(profile)
    if profile.scanner.port == "gpio":  # hardware/onboard.py: no towers, no load cells
        drive_count = code.drive_lines(dict(layout, towers=0))
    else:
        drive_count = code.drive_lines(layout)
    return plan(profile, layout, pico_pins=code.PINS, code_layout=code.LAYOUT,
                drive_count=drive_count, gpio_pins=GPIO_PINS)


def disagreements(profile_layout: BoardLayout, code_layout: BoardLayout) -> list[str]:
    """Where code.py's LAYOUT and the profile describe different tables, one line each.

    The scanner board announces its LAYOUT and the Pi reads the sensors as the
    profile says, so any difference misreads a switch, a pad or a pixel.
    """
    said = []
    for key in COMPARED:
        default = 1 if key == "stack" else None
        ours, theirs = code_layout.get(key, default), profile_layout.get(key, default)
        if ours != theirs:
            said.append(f"code.py LAYOUT[{key!r}] is {ours}, but the profile makes it {theirs}: "
                        "change one of them to match")
    return said


def pi_gpio(name: str) -> str:
    """A Pi pin as the profile writes it ("D10", "GPIO17", "BCM17", "17") as GPIOn."""
    match = re.fullmatch(r"(?:D|GPIO|BCM)?(\d{1,2})", name)
    return f"GPIO{match[1]}" if match else name


def _pi_header(gpio: str) -> str:
    number = int(gpio[4:]) if gpio[4:].isdigit() else None
    return f"pin {PI_HEADER[number]}" if number in PI_HEADER else ""


def _pico_header(gp: str) -> str:
    number = int(gp[2:]) if gp[2:].isdigit() else None
    return f"pin {PICO_HEADER[number]}" if number in PICO_HEADER else ""


def _rod(index: int) -> str:
    """Sense line to rod, named as the towers game names rods (a1 b1 c1 a2 ... c3)."""
    return f"{'abc'[index % 3]}{index // 3 + 1}"


def _part(kind: str, owner: str) -> str:
    return _PART_NAMES[kind].format(owner)


def plan(profile: Profile, layout: BoardLayout, *, pico_pins: PicoPins,
         code_layout: BoardLayout, drive_count: int, gpio_pins: GpioPins) -> Wiring:
    """Every wire of the profile's table, as rows to draw.

    ``layout`` is the table the profile describes (as ``board_layout`` gives
    it). A scanner board uses ``pico_pins``, runs ``code_layout`` and drives
    ``drive_count`` lines; the gpio-only build has the matrix on the Pi's
    ``gpio_pins`` instead.
    """
    scanner = profile.scanner
    chains = tuple(Chain(number, _chain_source(chain.output, chain.pin, pico_pins),
                         tuple((_part(kind, owner), count) for kind, owner, count in chain.parts))
                   for number, chain in enumerate(profile.chains, 1))
    pi = _button_wires(profile)
    pi += [Wire(pi_gpio(raw.pin), f"LED chain {chain.number} data, {_LED_DATA}",
                _pi_header(pi_gpio(raw.pin)))
           for chain, raw in zip(chains, profile.chains, strict=True) if raw.output == "pi"]
    power = Wire("5 V, GND", "the LED rail, fed from the supply; one ground for everything",
                 "pins 2, 6")
    warnings: list[str] = []
    groups: tuple[Group, ...]
    if scanner.port == "gpio":
        pi += _matrix_on_pi(layout, drive_count, gpio_pins)
        groups = (Group("Raspberry Pi: no scanner board, the switch matrix is on its own pins",
                        (*pi, power)),)
        for key, what in (("towers", "towers"), ("load_cells", "load cells")):
            if getattr(scanner, key):
                warnings.append(f"the gpio-only build senses no {what} (hardware/onboard.py), "
                                f"but [scanner] {key} = {getattr(scanner, key)}: set it to 0")
    else:
        port = "simulated: a pseudo-terminal" if profile.simulated else scanner.port
        usb = Wire("USB", f"the Pico's micro-USB: its power and data ({port})")
        outputs, spans = _drive_outputs(layout, drive_count)
        chips = math.ceil(drive_count / 8)
        groups = (Group("Raspberry Pi", (*pi, usb, power)),
                  Group("Raspberry Pi Pico: the scanner board (PINS in "
                        "hardware/scanner/code.py)", _pico_wires(layout, pico_pins, chips, chains)),
                  Group(f"Drive lines: {chips} x 74HC595 in a chain, {drive_count} of {chips * 8} "
                        "outputs used, one low at a time", outputs))
        if not profile.simulated:  # the simulator runs the profile's layout, not LAYOUT
            warnings += disagreements(layout, code_layout)
        if spans != drive_count:
            warnings.append(f"code.py drives {drive_count} lines, but the towers and board "
                            f"need {spans}")
        sense = max(layout["rods"] if layout["towers"] else 0, layout["cols"])
        if sense > len(pico_pins["sense"]):
            warnings.append(f"the table needs {sense} sense lines, but code.py PINS has "
                            f"{len(pico_pins['sense'])}")
        if layout["loads"] > len(pico_pins["load_data"]):
            warnings.append(f"the profile has {layout['loads']} load cells, but code.py PINS "
                            f"has {len(pico_pins['load_data'])} HX711 data pins")
    title = f"Obelisk Table wiring: {profile.name}"
    if profile.simulated:
        title += " (simulated: nothing to wire, drawn as the board the simulator plays)"
    return Wiring(title, groups, chains, _notes(profile, layout), tuple(warnings))


def _chain_source(output: str, pin: str, pico_pins: PicoPins) -> str:
    if output == "pi":
        return f"Pi {pi_gpio(pin)}"
    if output == "scanner":
        return f"Pico {pico_pins['pixels']}"
    return "simulated (no pin)"


def _button_wires(profile: Profile) -> list[Wire]:
    buttons = profile.buttons
    words = [(buttons.player_a, "player A button; its other side to GND (internal pull-up)"),
             (buttons.player_b, "player B button; its other side to GND"),
             (buttons.menu, "menu button; its other side to GND"),
             (buttons.buzzer, "buzzer: 1 k to the base of a 2N2222 (emitter to GND); the "
                              "buzzer between 5 V and its collector")]
    return [Wire(pi_gpio(pin), goes_to, _pi_header(pi_gpio(pin))) for pin, goes_to in words]


def _matrix_on_pi(layout: BoardLayout, drive_count: int, gpio_pins: GpioPins) -> list[Wire]:
    """The gpio-only build: drive rows and sense columns straight on the Pi's pins."""
    wires = []
    for line, pin in enumerate(gpio_pins["drive"]):
        if line < drive_count:
            goes_to = f"drive line {line}: board row {line + 1} (the diodes' cathodes)"
        else:
            goes_to = f"free: row {line + 1} of a bigger board"
        wires.append(Wire(pin, goes_to, _pi_header(pin)))
    for line, pin in enumerate(gpio_pins["sense"]):
        column = "abcdefgh"[line]
        if line < layout["cols"]:
            goes_to = f"sense line {line}: board column {column} (pulled up)"
        else:
            goes_to = f"not wired: column {column} of a bigger board (read all the same)"
        wires.append(Wire(pin, goes_to, _pi_header(pin)))
    return wires


def _pico_wires(layout: BoardLayout, pins: PicoPins, chips: int,
                chains: tuple[Chain, ...]) -> tuple[Wire, ...]:
    wires = [Wire(pins["drive_data"], "DS (serial data) of the first 74HC595; each chip's "
                  "Q7' on to the next one's DS"),
             Wire(pins["drive_clock"], f"SHCP (shift clock) of all {chips} 74HC595s"),
             Wire(pins["drive_latch"], f"STCP (latch) of all {chips} 74HC595s; their OE to "
                  "GND, MR to 3.3 V")]
    for line, pin in enumerate(pins["sense"]):
        uses = []
        if layout["towers"] and line < layout["rods"]:
            uses.append(f"rod {_rod(line)} of each tower")
        if layout["rows"] and line < layout["cols"]:
            uses.append(f"board column {'abcdefgh'[line]}")
        what = " and ".join(uses) + " (pulled up)" if uses else "not wired (read all the same)"
        wires.append(Wire(pin, f"sense line S{line}: {what}"))
    loads = layout["loads"]
    wires.append(Wire(pins["load_clock"],
                      f"SCK of all {loads} HX711s" if loads else "free: no load cells"))
    for pad, pin in enumerate(pins["load_data"], 1):
        wires.append(Wire(pin, f"DOUT of HX711 {pad} (pad {pad})" if pad <= loads
                          else f"free: pad {pad} of a bigger board"))
    here = [c for c in chains if c.source == f"Pico {pins['pixels']}"]
    wires.append(Wire(pins["pixels"], "; ".join(
        f"LED chain {c.number} data ({sum(n for _, n in c.parts)} pixels), {_LED_DATA}"
        for c in here) or "free: no LED chain on the scanner board"))
    wires = [Wire(w.pin, w.goes_to, _pico_header(w.pin)) for w in wires]
    wires += [Wire("3V3", "VCC of the 74HC595s and the HX711s", "pin 36"),
              Wire("GND", "common ground (any GND pin)", "pin 38")]
    return tuple(wires)


def _drive_outputs(layout: BoardLayout, drive_count: int) -> tuple[tuple[Wire, ...], int]:
    """The shift registers' outputs, in scan order; and how many lines the table needs."""
    wires = []
    first = 0

    def span(count: int, goes_to: str) -> None:
        nonlocal first
        last = first + count - 1
        chips = sorted({first // 8 + 1, last // 8 + 1})
        where = f"chip {chips[0]}" if len(chips) == 1 else f"chips {chips[0]}-{chips[1]}"
        wires.append(Wire(f"Q{first}-Q{last}" if count > 1 else f"Q{first}", goes_to, where))
        first += count

    levels, rods = layout["levels"], layout["rods"]
    for tower in range(layout["towers"]):
        span(levels, f"tower {'AB'[tower]}, levels 1-{levels}: that level's switch on all "
                     f"{rods} rods")
    stack = layout.get("stack", 1)
    for level in range(stack if layout["rows"] else 0):
        which = ""
        if layout.get("walls"):
            which = ", the wall switches" if level else ", the piece switches"
        elif stack > 1:
            which = f", the switches for {level + 1} stone{'s' if level else ''}"
        span(layout["rows"], f"board rows 1-{layout['rows']}{which}")
    needed = first
    spare = math.ceil(drive_count / 8) * 8 - first
    if spare > 0:
        span(spare, "not wired")
    return tuple(wires), needed


def _notes(profile: Profile, layout: BoardLayout) -> tuple[str, ...]:
    notes = ["Every switch has a 1N4148 in series, cathode to the drive line, so any number "
             "of closed switches read right."]
    if layout["loads"] and profile.scanner.port != "gpio":
        notes.append("Each HX711: VCC to 3.3 V and GND; E+, E-, A+, A- to its 1 kg bar "
                     "load cell.")
    notes.append("LEDs: 5 V from the supply, not through the Pi; 1000 uF across 5 V and GND "
                 "at each chain's start; join all grounds.")
    code = ("hardware/onboard.py (PINS)" if profile.scanner.port == "gpio"
            else "hardware/scanner/code.py (PINS, LAYOUT, drive_lines)")
    notes.append(f"Drawn by obelisk wiring from the {profile.source} and {code}.")
    return tuple(notes)


# ------------------------------------------------------------------ the picture

FONT_PX = 12
CHAR_PX = 7.3
"""About how wide one character of a 12 px monospace font is."""
ROW_PX = 20
MARGIN_PX = 20
BOX_PX = 170
"""The board's box, holding each pin's name and where it is on the edge."""
LEAD_PX = 36
"""The wire drawn from a pin to the words saying where it goes."""
_STYLE = """
text { font-family: monospace; font-size: 12px; fill: #222; }
.title { font-size: 16px; font-weight: bold; }
.head { font-weight: bold; }
.dim { fill: #666; }
.warn { fill: #b00000; font-weight: bold; }
.board { fill: #eef5ee; stroke: #2a6b2a; }
.part { fill: #fff8e0; stroke: #8a6d00; }
line { stroke: #333; stroke-width: 1.5; }
circle { fill: #c9a227; stroke: #333; }
"""


class _Canvas:
    """An SVG element tree that remembers how far right and down it has been drawn."""

    def __init__(self) -> None:
        self.root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg"})
        ET.SubElement(self.root, "style").text = _STYLE
        marker = ET.SubElement(ET.SubElement(self.root, "defs"), "marker", {
            "id": "arrow", "viewBox": "0 0 10 10", "refX": "10", "refY": "5",
            "markerWidth": "7", "markerHeight": "7", "orient": "auto"})
        ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z"})
        self.right = 0
        self.y = MARGIN_PX

    def text(self, x: int, y: int, words: str, kind: str = "") -> None:
        element = ET.SubElement(self.root, "text", {"x": str(x), "y": str(y)})
        if kind:
            element.set("class", kind)
        element.text = words
        self.right = max(self.right, x + _wide(words, 16 / FONT_PX if kind == "title" else 1))

    def shape(self, tag: str, kind: str = "", **at: int | str) -> None:
        element = ET.SubElement(self.root, tag, {k.replace("_", "-"): str(v)
                                                 for k, v in at.items()})
        if kind:
            element.set("class", kind)

    def svg(self) -> str:
        width, height = self.right + MARGIN_PX, self.y + MARGIN_PX
        self.root.set("width", str(width))
        self.root.set("height", str(height))
        self.root.set("viewBox", f"0 0 {width} {height}")
        ET.indent(self.root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(
            self.root, encoding="unicode") + "\n"


def _wide(words: str, scale: float = 1) -> int:
    return math.ceil(len(words) * CHAR_PX * scale)


def draw_svg(wiring: Wiring) -> str:
    """The wiring as SVG text: one box per board with a wire per pin, then the LED chains."""
    canvas = _Canvas()
    canvas.y += 16
    canvas.text(MARGIN_PX, canvas.y, wiring.title, "title")
    canvas.y += 10
    for warning in wiring.warnings:
        canvas.y += ROW_PX
        canvas.text(MARGIN_PX, canvas.y, f"DISAGREES: {warning}", "warn")
    canvas.y += 30
    for group in wiring.groups:
        _draw_group(canvas, group)
    canvas.text(MARGIN_PX, canvas.y, "LED chains, pixels in data order", "head")
    canvas.y += 12
    for chain in wiring.chains:
        _draw_chain(canvas, chain)
    canvas.y += 10
    for note in wiring.notes:
        canvas.text(MARGIN_PX, canvas.y, note, "dim")
        canvas.y += ROW_PX
    return canvas.svg()


def _draw_group(canvas: _Canvas, group: Group) -> None:
    x = MARGIN_PX
    canvas.text(x, canvas.y, group.title, "head")
    top = canvas.y + 8
    canvas.shape("rect", "board", x=x, y=top, width=BOX_PX, height=len(group.wires) * ROW_PX + 8,
                 rx=6)
    for row, wire in enumerate(group.wires):
        middle = top + 4 + row * ROW_PX + ROW_PX // 2
        canvas.text(x + 8, middle + 4, wire.pin)
        if wire.header:
            canvas.text(x + 84, middle + 4, wire.header, "dim")
        canvas.shape("line", x1=x + BOX_PX, y1=middle, x2=x + BOX_PX + LEAD_PX, y2=middle)
        canvas.shape("circle", cx=x + BOX_PX, cy=middle, r=3)
        canvas.text(x + BOX_PX + LEAD_PX + 6, middle + 4, wire.goes_to)
    canvas.y = top + len(group.wires) * ROW_PX + 8 + 36


def _draw_chain(canvas: _Canvas, chain: Chain) -> None:
    top, height = canvas.y, 40
    middle = top + height // 2
    x = MARGIN_PX
    label = f"chain {chain.number}: {chain.source}"
    if not chain.source.startswith("simulated"):
        label += ", 74AHCT125, 330 ohm"
    canvas.text(x, middle + 4, label)
    x += _wide(label) + 8
    first = 0
    for what, count in chain.parts:
        span = f"{count} px: {first}-{first + count - 1}" if count > 1 else f"1 px: {first}"
        canvas.shape("line", x1=x, y1=middle, x2=x + 24, y2=middle, marker_end="url(#arrow)")
        x += 26
        width = max(_wide(what), _wide(span)) + 16
        canvas.shape("rect", "part", x=x, y=top, width=width, height=height, rx=4)
        canvas.text(x + 8, top + 16, what)
        canvas.text(x + 8, top + 32, span, "dim")
        x += width
        canvas.right = max(canvas.right, x)
        first += count
    canvas.y = top + height + 12
