"""The scanner board's shipped settings agree with the reference profile."""

from __future__ import annotations

from hardware.local_board import load_code_py
from hardware.profile import board_layout, load_profile


def test_code_py_layout_matches_the_reference_profile():
    code = load_code_py()
    assert board_layout(load_profile("reference")) == code.LAYOUT


def test_the_pico_pin_map_has_no_pin_twice_and_enough_lines():
    pins = load_code_py().PINS
    used = [pins["drive_data"], pins["drive_clock"], pins["drive_latch"], *pins["sense"],
            pins["load_clock"], *pins["load_data"], pins["pixels"]]
    assert len(used) == len(set(used))
    assert len(pins["sense"]) == 9 and len(pins["load_data"]) == 9
