"""Faults a new owner meets when a profile asks for hardware this machine lacks.

Off a Raspberry Pi the reference and gpio-only profiles (and any profile whose
buttons use the Pi's pins) must be refused with one clear line naming the key
and the profile to use here, never a gpiozero or import traceback; and a
table that cannot start leaves nothing running behind it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device

import hardware.buttons
from hardware.buttons import on_raspberry_pi
from hardware.devices import expected_layout, open_table
from hardware.leds import LedError
from hardware.profile import ProfileError, board_layout, load_profile, parse_profile
from tests.support.pi import pretend

OBELISK = str(Path(sys.executable).parent / "obelisk")
OFF_A_PI = pytest.mark.skipif(on_raspberry_pi(), reason="a Raspberry Pi has these GPIO pins")

NATIVE = '[scanner]\nport = "sim"\n[buttons]\npin_factory = "native"\n'
NO_BUTTONS = '[scanner]\nport = "sim"\nboard = "4x4"\n'


@pytest.fixture
def off_a_pi(monkeypatch, tmp_path):
    """This machine, and the commands the test starts, are no Raspberry Pi (even on one: for
    a test that opens no real pins, only the table's judgement of the machine counts)."""
    pretend(monkeypatch, tmp_path, None)


@pytest.fixture
def no_default_factory(monkeypatch):
    """gpiozero's own choice of pins, made afresh (not one an earlier test left behind)."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)


def _threads() -> set[threading.Thread]:
    return set(threading.enumerate())


@OFF_A_PI
@pytest.mark.parametrize(("text", "source", "factory"), [
    (None, "reference", "lgpio"),
    (None, "gpio-only", "lgpio"),
    (NATIVE, "native.toml", "native"),
    ("", "empty.toml", "default"),
    (NO_BUTTONS, "no-buttons.toml", "default"),
])
def test_a_gpio_profile_off_a_pi_is_refused_naming_the_key_and_the_profile_to_use(
        no_default_factory, text, source, factory):
    profile = load_profile(source) if text is None else parse_profile(text, source)
    before = _threads()
    with pytest.raises(ProfileError) as err:
        open_table(profile)
    message = str(err.value)
    assert message.startswith(f"{profile.source}: [buttons] pin_factory = {factory!r}")
    assert "this machine is not a Raspberry Pi" in message
    assert "--profile sim (or --profile sim-maze for the maze)" in message
    assert _threads() <= before, "nothing may keep running after a refusal"


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed")
def test_on_a_pi_without_lgpio_the_fix_is_setup(monkeypatch):
    monkeypatch.setattr(hardware.buttons, "on_raspberry_pi", lambda: True)
    with pytest.raises(ProfileError) as err:
        open_table(load_profile("reference"))
    message = str(err.value)
    assert message.startswith("reference profile: [buttons] pin_factory = 'lgpio': the Pi's "
                              "GPIO pins cannot be used (ModuleNotFoundError")
    assert "run ./setup.sh on the Pi (it installs lgpio)" in message


@pytest.mark.parametrize(("chips", "usable", "fix"), [
    ([], False, "this Pi shows no GPIO chip (/dev/gpiochip0 is missing): in a container"),
    (["/dev/gpiochip0"], False, "no permission to use /dev/gpiochip0: setup.sh adds you to "
                                "the gpio group"),
    (["/dev/gpiochip0"], True, "if the table service runs, stop it first (sudo systemctl stop "
                               "obelisk)"),
])
def test_on_a_pi_whose_pins_cannot_be_claimed_the_fix_fits_the_cause(monkeypatch, chips, usable,
                                                                     fix):
    """No chip (a chroot, an old kernel), a chip this user may not open (not yet in the gpio
    group), or a chip that is there and open to us (the pins are busy: the service holds them)."""
    monkeypatch.setattr(hardware.buttons, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(hardware.buttons.glob, "glob", lambda pattern: list(chips))
    monkeypatch.setattr(hardware.buttons.os, "access", lambda path, mode: usable)
    message = str(hardware.buttons.gpio_error("lgpio", OSError("can not open gpiochip"),
                                              "reference profile"))
    assert message.startswith("reference profile: [buttons] pin_factory = 'lgpio': the Pi's "
                              "GPIO pins cannot be used (OSError: can not open gpiochip); ")
    assert fix in message


@pytest.mark.processes
@OFF_A_PI
@pytest.mark.parametrize("profile", ["reference", "gpio-only", "empty"])
def test_obelisk_diag_with_a_pi_profile_off_a_pi_says_so_in_one_line(tmp_path, profile):
    if profile == "empty":
        (tmp_path / "empty.toml").write_text("", "utf-8")
        profile = str(tmp_path / "empty.toml")
    run = subprocess.run([OBELISK, "diag", "--profile", profile, "--once"], capture_output=True,
                         text=True, timeout=60,
                         env={k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"})
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith("obelisk: ") and "[buttons] pin_factory = " in run.stderr
    assert "--profile sim" in run.stderr
    assert run.stdout == ""


def test_the_default_pin_factory_is_the_one_the_gpio_only_board_scans_with(monkeypatch):
    """With pin_factory = "default", the board's pins come from gpiozero's choice too."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    profile = parse_profile('[scanner]\nport = "gpio"\ntowers = 0\nboard = "4x4"\n', "g.toml")
    with open_table(profile) as devices:
        assert devices.buttons.factory is not None
        seen = devices.link.wait_for(lambda s: True, 30.0)
        assert seen is not None and (seen.layout.rows, seen.layout.cols) == (4, 4)


def test_a_table_that_cannot_start_stops_what_it_had_started(off_a_pi):
    """The LEDs fail last (no NeoPixels here): the simulated board and the link stop again."""
    text = ('[scanner]\nport = "sim"\n[buttons]\npin_factory = "mock"\n'
            '[[leds.chain]]\noutput = "pi"\nparts = ["ring A 4"]\n')
    profile = parse_profile(text, "pi-leds.toml")
    before = _threads()
    with pytest.raises(LedError, match="needs a Raspberry Pi"):
        open_table(profile)
    deadline = time.monotonic() + 5
    while not _threads() <= before and time.monotonic() < deadline:
        time.sleep(0.01)  # the link's reader ends within its read timeout
    assert _threads() <= before, sorted(t.name for t in _threads() - before)


def test_open_table_tells_the_link_the_layout_the_profile_describes():
    profile = load_profile("sim-maze")
    with open_table(profile) as devices:
        want = devices.link.expected
        assert want == expected_layout(profile)
        lay = board_layout(profile)
        assert (want.towers, want.rows, want.cols, want.loads, want.stack) == (
            lay["towers"], lay["rows"], lay["cols"], lay["loads"], 2)
        assert devices.link.wait_for(lambda s: True, 30.0) is not None
        assert devices.link.health.layout_mismatch == ""


def test_lgpio_in_a_folder_it_cannot_write_says_so_not_no_chip(monkeypatch):
    """lgpio makes a pipe in its working directory: under systemd that is "/", and the error
    (a missing '.lgd-nfy' file) is no missing chip. Seen in the arm64 root of tools/pi-root.sh."""
    monkeypatch.setattr(hardware.buttons, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(hardware.buttons.glob, "glob", lambda pattern: [])
    exc = FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")
    message = str(hardware.buttons.gpio_error("lgpio", exc, "reference profile"))
    assert "could not make its notification pipe in the working directory" in message
    assert "LG_WD=/tmp" in message and "no GPIO chip" not in message
    assert "pick another pin_factory: rpigpio, native, default" in message  # not lgpio again
