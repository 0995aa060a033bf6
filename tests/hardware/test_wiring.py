"""``obelisk wiring``: the picture a maker wires from is drawn from the code's own pins."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware.cli import main
from hardware.local_board import load_code_py
from hardware.onboard import PINS as GPIO_PINS
from hardware.profile import board_layout, load_profile
from hardware.wiring import COMPARED, disagreements, draw_svg, plan, wiring_for
from tests.support import ROOT

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    """Every text of the picture, in drawing order (parsing fails on broken XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def _pi_pins(profile_name: str) -> set[str]:
    """The Pi GPIOs the profile itself names: buttons, and LED chains on the Pi."""
    profile = load_profile(profile_name)
    b = profile.buttons
    named = [b.player_a, b.player_b, b.menu, b.buzzer]
    named += [c.pin for c in profile.chains if c.output == "pi"]
    return {"GPIO" + re.sub(r"\D", "", pin) for pin in named}


def _draw(name: str, tmp_path: Path) -> str:
    out = tmp_path / f"{name}.svg"
    assert main(["wiring", "--profile", name, "--output", str(out)]) == 0
    return out.read_text("utf-8")


# ------------------------------------------------------------------ code.py and the profile


def test_code_py_and_the_reference_profile_describe_the_same_table():
    code = load_code_py()
    assert disagreements(board_layout(load_profile("reference")), code.LAYOUT) == []
    assert wiring_for(load_profile("reference")).warnings == ()


@pytest.mark.parametrize("key", COMPARED)
def test_any_difference_between_layout_and_the_profile_is_named(key):
    code = load_code_py()
    changed = dict(code.LAYOUT, **{key: code.LAYOUT[key] + 1})
    said = disagreements(board_layout(load_profile("reference")), changed)
    assert len(said) == 1 and f"LAYOUT[{key!r}] is {changed[key]}" in said[0]


def test_a_disagreement_is_written_on_the_picture_and_said_by_the_command(
        tmp_path: Path, capsys, monkeypatch):
    def fewer_pixels():  # code.py as a builder who changed only LAYOUT would leave it
        code = load_code_py()  # a fresh module each time
        code.LAYOUT = dict(code.LAYOUT, leds=36)
        return code

    monkeypatch.setattr("hardware.local_board.load_code_py", fewer_pixels)
    texts = _texts(_draw("reference", tmp_path))
    assert "DISAGREES: code.py LAYOUT['leds'] is 36, but the profile makes it 64: change one " \
           "of them to match" in texts
    err = capsys.readouterr().err
    assert "obelisk: the profile and the code disagree: code.py LAYOUT['leds'] is 36" in err


def test_more_sense_lines_than_pins_is_a_warning():
    code = load_code_py()
    profile = load_profile("reference")
    pins = dict(code.PINS, sense=code.PINS["sense"][:8])  # the towers' 9 rods need 9
    wiring = plan(profile, board_layout(profile), pico_pins=pins, code_layout=code.LAYOUT,
                  drive_count=code.drive_lines(code.LAYOUT), gpio_pins=GPIO_PINS)
    assert wiring.warnings == ("the table needs 9 sense lines, but code.py PINS has 8",)


# ------------------------------------------------------------------ the picture


def test_the_reference_picture_names_every_pico_pin_and_every_pi_pin(tmp_path: Path):
    code = load_code_py()
    texts = set(_texts(_draw("reference", tmp_path)))
    pico = [p for value in code.PINS.values() for p in ([value] if isinstance(value, str)
                                                         else value)]
    assert len(pico) == 23
    assert set(pico) <= texts
    assert _pi_pins("reference") == {"GPIO17", "GPIO27", "GPIO22", "GPIO23", "GPIO10"}
    assert _pi_pins("reference") <= texts


def test_the_reference_picture_wires_the_matrix_loads_and_leds_as_the_code_does():
    code = load_code_py()
    wiring = wiring_for(load_profile("reference"))
    pi, pico, drive = wiring.groups
    to = {w.pin: w.goes_to for w in pico.wires}
    chips = math.ceil(code.drive_lines(code.LAYOUT) / 8)
    assert chips == 4
    assert to[code.PINS["drive_clock"]] == "SHCP (shift clock) of all 4 74HC595s"
    assert to[code.PINS["load_clock"]] == "SCK of all 9 HX711s"  # one clock for all
    assert [to[p] for p in code.PINS["load_data"]] == [
        f"DOUT of HX711 {n} (pad {n})" for n in range(1, 10)]
    assert to[code.PINS["sense"][8]] == "sense line S8: rod c3 of each tower (pulled up)"
    assert to[code.PINS["pixels"]].startswith("LED chain 2 data (64 pixels)")
    assert [(w.pin, w.goes_to) for w in drive.wires] == [
        ("Q0-Q8", "tower A, levels 1-9: that level's switch on all 9 rods"),
        ("Q9-Q17", "tower B, levels 1-9: that level's switch on all 9 rods"),
        ("Q18-Q25", "board rows 1-8"),
        ("Q26-Q31", "not wired")]
    assert [w.header for w in pi.wires[:5]] == ["pin 11", "pin 13", "pin 15", "pin 16", "pin 19"]


def test_the_led_chains_are_drawn_in_data_order_with_their_pixels(tmp_path: Path):
    texts = _texts(_draw("reference", tmp_path))
    parts = [t for t in texts if t in {"ring A", "ring B", "tower A grid", "tower B grid",
                                       "zone", "board"}]
    assert parts == ["ring A", "ring B", "tower A grid", "tower B grid", "zone", "board"]
    assert [t for t in texts if " px: " in t] == [
        "16 px: 0-15", "16 px: 16-31", "9 px: 32-40", "9 px: 41-49", "2 px: 50-51",
        "64 px: 0-63"]
    assert "chain 1: Pi GPIO10, 74AHCT125, 330 ohm" in texts
    assert "chain 2: Pico GP28, 74AHCT125, 330 ohm" in texts


def test_the_gpio_only_picture_has_no_pico_and_the_matrix_on_the_pi(tmp_path: Path):
    texts = _texts(_draw("gpio-only", tmp_path))
    wanted = _pi_pins("gpio-only") | set(GPIO_PINS["drive"]) | set(GPIO_PINS["sense"])
    assert wanted <= set(texts)
    assert not [t for t in texts if re.fullmatch(r"GP\d+", t)]  # no Pico pin
    assert not [t for t in texts if "Pico" in t or "74HC595" in t or "HX711" in t]
    wiring = wiring_for(load_profile("gpio-only"))
    (pi,) = wiring.groups
    to = {w.pin: w.goes_to for w in pi.wires}
    assert to["GPIO12"] == "drive line 3: board row 4 (the diodes' cathodes)"  # a 4x4 board
    assert to["GPIO13"] == "free: row 5 of a bigger board"
    assert to["GPIO24"] == "sense line 3: board column d (pulled up)"


@pytest.mark.parametrize("name", ["reference", "gpio-only", "sim", "sim-maze"])
def test_no_pi_pin_is_drawn_with_two_jobs(name):
    """A pin doubly used (a button on a matrix line, say) would show up here."""
    pi = wiring_for(load_profile(name)).groups[0]
    gpios = [w.pin for w in pi.wires if w.pin.startswith("GPIO")]
    assert len(gpios) == len(set(gpios))
    assert all(w.header for w in pi.wires if w.pin.startswith("GPIO"))


def test_the_picture_is_the_same_each_time():
    profile = load_profile("reference")
    assert draw_svg(wiring_for(profile)) == draw_svg(wiring_for(profile))


# ------------------------------------------------------------------ the committed pictures


@pytest.mark.parametrize("name", ["reference", "gpio-only"])
def test_the_committed_pictures_are_what_the_command_draws_now(name, tmp_path: Path):
    committed = ROOT / "hardware" / f"wiring-{name}.svg"
    assert _draw(name, tmp_path) == committed.read_text("utf-8"), (
        f"{committed.name} is stale: run obelisk wiring --profile {name} --output "
        f"hardware/{committed.name}")
    assert f"wiring-{name}.svg" in (ROOT / "hardware" / "README.md").read_text("utf-8")


# ------------------------------------------------------------------ bad input


def _one_line_refusal(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.startswith("obelisk: ") and captured.err.count("\n") == 1
    return captured.err


def test_an_unknown_profile_is_refused(tmp_path: Path, capsys):
    out = tmp_path / "w.svg"
    assert main(["wiring", "--profile", "nope", "--output", str(out)]) == 2
    assert "no profile 'nope'" in _one_line_refusal(capsys)
    assert not out.exists()


def test_a_folder_as_output_is_refused(tmp_path: Path, capsys):
    assert main(["wiring", "--output", str(tmp_path)]) == 2
    assert f"--output {tmp_path} is a folder" in _one_line_refusal(capsys)
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_cannot_be_written_is_refused(tmp_path: Path, capsys):
    (tmp_path / "plain").write_text("x", "utf-8")
    for where in (tmp_path / "plain" / "w.svg", tmp_path / "missing" / "w.svg"):
        assert main(["wiring", "--output", str(where)]) == 2
        err = _one_line_refusal(capsys)
        assert err.startswith(f"obelisk: cannot write --output {where} (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]
