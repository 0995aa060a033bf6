"""Every Raspberry Pi the docs name gets its own LED driver, packages, boot settings and
unit devices, and a table not wired up yet still runs and says what is missing."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path
from typing import ClassVar

import pytest

from hardware.leds import LedError, Leds, RecordingPixels
from hardware.pi_models import PiModelError, pi_model, read_model, render_unit
from hardware.profile import parse_profile
from tests.support import ROOT
from tests.support.files import device, fifo, folder, huge, outcome_within
from tests.support.pi import pretend

UNITS = ("obelisk.service", "obelisk-web.service", "obelisk-mqtt.service",
         "obelisk-remote.service")

# (model string as the device tree gives it, family, LED driver, config.txt lines,
#  the LED driver's device nodes)
MODELS = [
    ("Raspberry Pi Zero 2 W Rev 1.0", "zero2w", "spi", ("dtparam=spi=on", "core_freq=250"),
     ("/dev/spidev0.0",)),
    ("Raspberry Pi 3 Model B Rev 1.2", "3", "spi", ("dtparam=spi=on", "core_freq=250"),
     ("/dev/spidev0.0",)),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "3", "spi", ("dtparam=spi=on", "core_freq=250"),
     ("/dev/spidev0.0",)),
    ("Raspberry Pi 4 Model B Rev 1.4", "4", "spi", ("dtparam=spi=on", "core_freq_min=500"),
     ("/dev/spidev0.0",)),
    ("Raspberry Pi 400 Rev 1.0", "4", "spi", ("dtparam=spi=on", "core_freq_min=500"),
     ("/dev/spidev0.0",)),
    ("Raspberry Pi 5 Model B Rev 1.0", "5", "pio", (), ("/dev/pio0",)),
    ("Raspberry Pi 500 Rev 1.0", "5", "pio", (), ("/dev/pio0",)),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "5", "pio", (), ("/dev/pio0",)),
]
DRIVER_PACKAGE = {"spi": "adafruit-circuitpython-neopixel-spi",
                  "pio": "Adafruit-Blinka-Raspberry-Pi5-Neopixel"}


def _extras() -> dict[str, list[str]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return data["project"]["optional-dependencies"]


@pytest.mark.parametrize(("model", "family", "driver", "boot", "devices"), MODELS)
def test_each_pi_gets_the_led_driver_its_chip_can_run(model, family, driver, boot, devices):
    pi = pi_model(model + "\0")  # the device tree ends the string with a NUL
    assert (pi.family, pi.led_driver, pi.boot_config, pi.led_devices) == (
        family, driver, boot, devices)
    wanted = " ".join(" ".join(_extras()[extra]) for extra in pi.extras)
    assert DRIVER_PACKAGE[driver] in wanted  # setup.sh installs the driver it starts
    other = DRIVER_PACKAGE["pio" if driver == "spi" else "spi"]
    assert other not in wanted
    for package in ("lgpio", "gpiod", "adafruit-blinka"):  # the buttons and Blinka's pins
        assert package in wanted


@pytest.mark.parametrize(("model", "family", "driver", "boot", "devices"), MODELS)
def test_the_table_unit_may_open_exactly_what_the_models_drivers_open(
        model, family, driver, boot, devices):
    text = render_unit((ROOT / "systemd" / "obelisk.service").read_text("utf-8"),
                       root="/home/pi/obelisk", user="pi", model=pi_model(model))
    allowed = [line.removeprefix("DeviceAllow=") for line in text.splitlines()
               if line.startswith("DeviceAllow=")]
    assert allowed == ["char-ttyACM rw", "char-gpiochip rw", *(f"{d} rw" for d in devices)]
    assert not re.search(r"@[A-Z]+@", text)  # every placeholder filled
    # lgpio makes its pipes in its working directory ("/" is read-only under the unit), and
    # Blinka reads /proc/cpuinfo and /proc/device-tree to know the Pi: both must work
    assert "\nEnvironment=LG_WD=/tmp\n" in text and "\nProcSubset=" not in text


@pytest.mark.parametrize("model", ["Raspberry Pi Model B Rev 2", "Raspberry Pi Zero W Rev 1.1",
                                   "Raspberry Pi 2 Model B Rev 1.1", "Raspberry Pi Zero Rev 1.3"])
def test_a_pi_the_table_cannot_run_on_is_named_with_the_ones_it_can(model):
    with pytest.raises(PiModelError, match=r"cannot run on a .*Zero 2 W, 3, 4 or 5"):
        pi_model(model)


@pytest.mark.processes
def test_setup_reads_the_facts_as_shell_values():
    """setup.sh evals what ``python3 -m hardware.pi_models shell`` prints: arrays stay
    arrays, and a Pi the table cannot use stops it with words, not a traceback."""
    script = ('eval "$("$PY" -m hardware.pi_models --model "$MODEL" shell)" && '
              'printf "%s|" "$pi_model" "$pi_leds" "$pi_extras" "${pi_boot_config[@]}"')
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                         env={"PY": sys.executable, "MODEL": "Raspberry Pi 4 Model B Rev 1.4",
                              "PATH": "/usr/bin:/bin"})
    assert run.stdout == ("Raspberry Pi 4 Model B Rev 1.4|spi|pi,pi-spi|dtparam=spi=on|"
                          "core_freq_min=500|"), run.stderr
    bad = subprocess.run([sys.executable, "-m", "hardware.pi_models", "--model",
                          "Raspberry Pi 2 Model B Rev 1.1", "shell"], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("setup: the table cannot run on a Raspberry Pi 2")
    assert "Traceback" not in bad.stderr


@pytest.mark.processes
@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed on this machine (Debian's systemd)")
@pytest.mark.parametrize("model", [m[0] for m in MODELS[::3]] + [None])
@pytest.mark.parametrize("unit", UNITS)
def test_every_rendered_unit_passes_systemd_analyze_verify(tmp_path, unit, model):
    """No unknown keys, no bad values, and an ExecStart that exists after setup (this
    checkout's .venv, the one running these tests)."""
    obelisk = Path(sys.executable).parent / "obelisk"
    assert obelisk.exists(), "run ./setup.sh first"
    text = render_unit((ROOT / "systemd" / unit).read_text("utf-8"),
                       root=str(Path(sys.executable).parent.parent.parent),
                       user=getpass.getuser(), model=pi_model(model) if model else None)
    path = tmp_path / unit
    path.write_text(text, "utf-8")
    run = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                         text=True)
    said = [line for line in (run.stdout + run.stderr).splitlines()
            if str(path) in line or unit in line]
    assert run.returncode == 0 and said == [], run.stdout + run.stderr


# ------------------------------------------------------------------ the LED drivers


class FakeStrip(RecordingPixels):
    """A NeoPixel strip whose device may be missing, as Blinka's drivers would be."""

    made: ClassVar[list[tuple[str, object]]] = []

    def __init__(self, how: str, where: object, n: int, **options: object) -> None:
        super().__init__(n, brightness=options["brightness"])
        self.fail: Exception | None = FakeStrip.failing
        FakeStrip.made.append((how, where))

    def show(self) -> None:
        if self.fail is not None:
            raise self.fail
        super().show()

    failing: ClassVar[Exception | None] = None


@pytest.fixture
def drivers(monkeypatch):
    """Blinka's board, neopixel and neopixel_spi, as a Pi has them."""
    board = types.SimpleNamespace(D10="D10 pin", SPI=lambda: "the SPI bus")
    neopixel = types.SimpleNamespace(GRB="GRB",
                                     NeoPixel=lambda pin, n, **o: FakeStrip("pio", pin, n, **o))
    spi = types.SimpleNamespace(GRB="GRB",
                                NeoPixel_SPI=lambda bus, n, **o: FakeStrip("spi", bus, n, **o))
    for name, module in (("board", board), ("neopixel", neopixel), ("neopixel_spi", spi)):
        monkeypatch.setitem(sys.modules, name, module)
    FakeStrip.made, FakeStrip.failing = [], None
    return FakeStrip


PI_CHAIN = parse_profile('[[leds.chain]]\noutput = "pi"\npin = "D10"\nparts = ["ring A 4"]\n',
                         "pi.toml")


@pytest.mark.parametrize(("model", "how", "where"), [
    ("Raspberry Pi 5 Model B Rev 1.0", "pio", "D10 pin"),
    ("Raspberry Pi 4 Model B Rev 1.4", "spi", "the SPI bus"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "spi", "the SPI bus"),
])
def test_the_leds_start_the_driver_the_model_needs_and_start_dark(drivers, monkeypatch, model,
                                                                  how, where):
    monkeypatch.delenv("BLINKA_SKIP_DEPENDENCY_CHECK", raising=False)
    leds = Leds(PI_CHAIN, model=pi_model(model))
    # Blinka offers to pip-install its backends in a terminal: never at run time
    assert os.environ["BLINKA_SKIP_DEPENDENCY_CHECK"] == "1"
    assert drivers.made == [(how, where)]
    assert leds.chains[0].frames == [((0, 0, 0),) * 4]  # shown dark once, at start
    assert leds.missing == []


def test_an_spi_pi_refuses_a_pwm_pin_in_words(drivers):
    profile = parse_profile('[[leds.chain]]\noutput = "pi"\npin = "D18"\nparts = ["ring A 4"]\n',
                            "pi.toml")
    with pytest.raises(LedError, match=r"only from D10 .*move the data wire to GPIO10"):
        Leds(profile, model=pi_model("Raspberry Pi 4 Model B Rev 1.4"))
    assert drivers.made == []


def test_a_missing_led_device_is_said_with_its_fix_not_a_traceback(drivers):
    drivers.failing = FileNotFoundError(2, "No such file or directory")
    pi5 = pi_model("Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(LedError, match=r"/dev/pio0 is missing.*full-upgrade\) and reboot"):
        Leds(PI_CHAIN, model=pi5)
    leds = Leds(PI_CHAIN, model=pi5, tolerant=True)  # the service: it runs on, dark
    assert [m.device for m in leds.missing] == ["LEDs"]
    assert "/dev/pio0 is missing" in leds.missing[0].words
    leds[("ring", "A", 0)] = (9, 9, 9)
    leds.show()  # a chain nobody can see takes frames and says nothing more


def test_a_chain_that_fails_mid_game_goes_dark_and_is_said(drivers):
    leds = Leds(PI_CHAIN, model=pi_model("Raspberry Pi 4 Model B Rev 1.4"), tolerant=True)
    leds.chains[0].fail = OSError(5, "Input/output error")
    leds[("ring", "A", 1)] = (1, 2, 3)
    leds.show()  # no exception: the game goes on
    assert [m.device for m in leds.missing] == ["LEDs"]
    assert "Input/output error" in leds.missing[0].words
    leds[("ring", "A", 2)] = (1, 2, 3)
    leds.show()
    assert len(leds.missing) == 1  # said once


def test_the_leds_off_a_pi_still_say_to_use_the_sim_profile(monkeypatch, tmp_path):
    pretend(monkeypatch, tmp_path, None)  # the device tree's model file is missing
    with pytest.raises(LedError, match=r"needs a Raspberry Pi .*use the sim profile"):
        Leds(PI_CHAIN)


def test_an_led_pin_held_by_the_running_service_is_said_so(drivers):
    """A Pi 5's PIO driver claims its pin: diag beside the running service finds it busy."""
    drivers.failing = OSError(16, "Device or resource busy")
    with pytest.raises(LedError, match=r"the LED pin is in use, most likely by the table "
                                       r"service.*sudo systemctl stop obelisk"):
        Leds(PI_CHAIN, model=pi_model("Raspberry Pi 5 Model B Rev 1.0"))


@pytest.mark.parametrize("make", [huge, fifo, folder, device])
def test_a_model_file_that_is_no_such_file_is_no_pi_and_never_read_for_ever(tmp_path, make):
    """The device tree's model names a Pi in a line; a pipe, a folder, a link to /dev/zero or
    a huge file there is no Pi's (and reading one must not hang setup.sh)."""
    make(tmp_path / "model")
    got: list = []
    assert outcome_within(lambda: got.append(read_model(tmp_path / "model")), 20) is None
    assert got == [None]


def test_a_pi_the_table_does_not_know_is_named_as_unknown_not_as_32_bit():
    with pytest.raises(PiModelError) as err:
        pi_model("Raspberry Pi 9 Model Z Rev 1.0\0")
    words = str(err.value)
    assert words.startswith("this Raspberry Pi is a model the table does not know: its device "
                            "tree names it 'Raspberry Pi 9 Model Z Rev 1.0'"), words
    assert "Zero 2 W, 3, 4 or 5" in words and "git pull" in words
    assert "64-bit" not in words and "cannot run" not in words
