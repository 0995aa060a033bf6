"""Which Raspberry Pi this is, and what the table needs on it.

One table of facts per Pi family, read by two people: ``setup.sh`` (which
packages to install, which boot settings to write, which devices the table's
systemd unit may open) and ``hardware.leds`` (which NeoPixel driver to start).
Both ask the same ``pi_model`` with the device tree's model string, so the
install and the running service can never disagree.

The NeoPixel driver is the one real difference between the models:

- a Pi 5 (and 500, CM5) drives the strip with its RP1 chip's PIO through
  ``/dev/pio0`` (Adafruit's Pi 5 NeoPixel driver); the older Pis' PWM, PCM and
  SPI tricks do not work on the RP1;
- a Pi Zero 2 W, 3 or 4 drives it from the SPI bus's MOSI pin (GPIO10) through
  ``/dev/spidev0.0`` (Adafruit's NeoPixel SPI driver, pure Python, no root).
  The SPI clock is divided from the VPU's core clock, which these Pis scale
  with load, so the core clock is held still in ``config.txt``.

Runs on the system Python before the venv exists (``python3 -m
hardware.pi_models shell`` prints shell assignments), so it imports nothing
outside the standard library.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from hardware.files import KIB, read_limited

MODEL_FILE = Path("/proc/device-tree/model")
"""Where the Pi's firmware names the board (setup.sh reads the same file)."""
MODEL_FILE_ENV = "OBELISK_DEVICE_TREE_MODEL"
"""A file to read instead of ``MODEL_FILE`` (setup.sh honours it too): a machine made to look
like a given Pi, or a Pi made to look like none, for the tests and the pretend-Pi checks."""
MODEL_MOST = 4 * KIB
"""A device tree's model string is a line; anything longer is not one."""
UNIT_MOST = 64 * KIB
"""A unit of systemd/ is a page of text."""


class PiModelError(ValueError):
    """A Raspberry Pi the table cannot run on, with what to use instead."""


@dataclass(frozen=True)
class PiModel:
    """What one family of Raspberry Pi needs for the table."""

    family: str
    """"zero2w", "3", "4" or "5": the families the table supports."""
    model: str
    """The board as its device tree names it ("Raspberry Pi 4 Model B Rev 1.4")."""
    led_driver: str
    """"spi" (GPIO10 through /dev/spidev0.0) or "pio" (any GPIO through /dev/pio0)."""
    extras: tuple[str, ...]
    """The pyproject.toml extras setup.sh installs here (besides "dev")."""
    boot_config: tuple[str, ...]
    """Lines config.txt must hold for the LEDs (read at boot: a reboot applies them)."""
    cmdline: tuple[str, ...]
    """Words the kernel's command line must hold (cmdline.txt)."""
    led_devices: tuple[str, ...]
    """The device nodes the LED driver opens: the table unit allows exactly these."""

    @property
    def unit_devices(self) -> tuple[str, ...]:
        """Every ``DeviceAllow=`` of the table's unit: the scanner board on USB serial, the
        GPIO chips (buttons, buzzer), then the LED driver's own devices."""
        return ("char-ttyACM rw", "char-gpiochip rw",
                *(f"{path} rw" for path in self.led_devices))

    @property
    def led_pins(self) -> tuple[str, ...]:
        """The Blinka pins this driver can drive a chain from."""
        return ("D10",) if self.led_driver == "spi" else ("D10", "D12", "D18", "D21")


class _DriverFacts(TypedDict):
    """``PiModel``'s facts that follow from its LED driver."""

    led_driver: str
    extras: tuple[str, ...]
    cmdline: tuple[str, ...]
    led_devices: tuple[str, ...]


class _Facts(_DriverFacts):
    """Every fact of a ``PiModel`` but the model's own name."""

    family: str
    boot_config: tuple[str, ...]


_SPI: _DriverFacts = {"led_driver": "spi", "extras": ("pi", "pi-spi"),
                      "cmdline": ("spidev.bufsiz=32768",), "led_devices": ("/dev/spidev0.0",)}
_FAMILIES: tuple[tuple[tuple[str, ...], _Facts], ...] = (
    # The order matters: "Raspberry Pi 5" before anything that could match it by prefix.
    (("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5"),
     {"family": "5", "led_driver": "pio", "extras": ("pi", "pi5"), "boot_config": (),
      "cmdline": (), "led_devices": ("/dev/pio0",)}),
    (("Raspberry Pi 4", "Raspberry Pi 400", "Raspberry Pi Compute Module 4"),
     {"family": "4", "boot_config": ("dtparam=spi=on", "core_freq_min=500"), **_SPI}),
    (("Raspberry Pi 3", "Raspberry Pi Compute Module 3"),
     {"family": "3", "boot_config": ("dtparam=spi=on", "core_freq=250"), **_SPI}),
    (("Raspberry Pi Zero 2",),
     {"family": "zero2w", "boot_config": ("dtparam=spi=on", "core_freq=250"), **_SPI}),
)
SUPPORTED = "a Raspberry Pi Zero 2 W, 3, 4 or 5 (or a 400, 500, or Compute Module 3 to 5)"
BOOT_KEYS = frozenset(line.rsplit("=", 1)[0] for _, facts in _FAMILIES
                      for line in facts["boot_config"])
"""Every config.txt setting any model's table writes (``dtparam=spi``, ``core_freq``...)."""
_OLD = ("Raspberry Pi Model ", "Raspberry Pi 2 Model", "Raspberry Pi Zero Rev",
        "Raspberry Pi Zero W", "Raspberry Pi Compute Module Rev")
"""The 32-bit-only boards (Pi 1 A/B/A+/B+, 2, Zero, Zero W, Compute Module 1), by how their
names start; any other name of a Raspberry Pi that no family above has is unknown."""


def pi_model(model: str) -> PiModel:
    """The table's facts for the Pi the device tree names; PiModelError for a Pi it cannot
    run on (the 32-bit-only Pi 1, 2, Zero and Zero W) or does not know (a newer one)."""
    name = model.replace("\0", "").strip()
    for prefixes, facts in _FAMILIES:
        for prefix in prefixes:
            rest = name[len(prefix):]
            if name.startswith(prefix) and (not rest or not rest[0].isdigit()):
                return PiModel(model=name, **facts)
    if not name.startswith("Raspberry Pi"):
        raise PiModelError(f"{name!r} is not a Raspberry Pi; the table runs on {SUPPORTED}")
    if name.startswith(_OLD):
        raise PiModelError(f"the table cannot run on a {name}: it needs {SUPPORTED} with a "
                           "64-bit Raspberry Pi OS (Bookworm or newer)")
    raise PiModelError(f"this Raspberry Pi is a model the table does not know: its device tree "
                       f"names it {name!r}, and the table knows {SUPPORTED}. If it is a newer "
                       "Pi, update this checkout (git pull) and run ./setup.sh again; if that "
                       "does not know it either, report the name above as an issue of the "
                       "project")


def model_file() -> Path:
    """The file naming this board: ``MODEL_FILE``, or the one ``MODEL_FILE_ENV`` names."""
    other = os.environ.get(MODEL_FILE_ENV)
    return Path(other) if other else MODEL_FILE


def read_model(path: Path | None = None) -> str | None:
    """The device tree's model string, or None off a Raspberry Pi (or any board without
    one). ``path``: another file to read (tests)."""
    try:
        text = read_limited(path or model_file(), MODEL_MOST).decode("utf-8", "replace")
    except OSError:
        return None
    text = text.replace("\0", "").strip()
    return text if text.startswith("Raspberry Pi") else None


def this_pi(path: Path | None = None) -> PiModel | None:
    """This machine's facts; None off a Pi; PiModelError on a Pi the table cannot use."""
    model = read_model(path)
    return None if model is None else pi_model(model)


def render_unit(text: str, *, root: str, user: str, model: PiModel | None) -> str:
    """A unit of systemd/ as setup.sh installs it: the checkout, the user, and the table
    unit's devices for this model (off a Pi: only the serial port and GPIO chips)."""
    devices = model.unit_devices if model is not None else ("char-ttyACM rw",
                                                             "char-gpiochip rw")
    allow = "".join(f"DeviceAllow={device}\n" for device in devices)
    text = re.sub(r"(?m)^@DEVICES@\n", lambda _: allow, text)  # a line of its own only
    return text.replace("@ROOT@", root).replace("@USER@", user)


def _shell(model: PiModel) -> str:
    """The facts as shell assignments for setup.sh's ``eval``."""
    def array(name: str, values: tuple[str, ...]) -> str:
        return f"{name}=({' '.join(shlex.quote(v) for v in values)})"

    return "\n".join([
        f"pi_model={shlex.quote(model.model)}",
        f"pi_family={shlex.quote(model.family)}",
        f"pi_leds={shlex.quote(model.led_driver)}",
        f"pi_extras={shlex.quote(','.join(model.extras))}",
        array("pi_boot_config", model.boot_config),
        array("pi_cmdline", model.cmdline),
    ])


def main(argv: list[str] | None = None) -> int:
    """``shell``: this Pi's facts for setup.sh; ``unit FILE --root R --user U``: a unit of
    systemd/ rendered for this Pi. Exit 2 with words on a Pi the table cannot use."""
    parser = argparse.ArgumentParser(prog="python3 -m hardware.pi_models",
                                     description="What the table needs on this Raspberry Pi.")
    parser.add_argument("--model", help="the device tree's model string (default: this Pi's)")
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("shell", help="this Pi's facts as shell assignments (setup.sh)")
    unit = sub.add_parser("unit", help="a unit of systemd/ rendered for this Pi")
    unit.add_argument("file", type=Path)
    unit.add_argument("--root", required=True, help="the checkout")
    unit.add_argument("--user", required=True, help="who runs the table")
    args = parser.parse_args(argv)
    try:
        model = pi_model(args.model) if args.model else this_pi()
    except PiModelError as exc:
        print(f"setup: {exc}", file=sys.stderr)
        return 2
    if args.what == "shell":
        if model is None:
            print("setup: this machine is not a Raspberry Pi", file=sys.stderr)
            return 2
        print(_shell(model))
    else:
        try:
            unit_text = read_limited(args.file, UNIT_MOST).decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
                "it is not UTF-8 text"
            print(f"setup: cannot read the unit {args.file}: {why}", file=sys.stderr)
            return 2
        print(render_unit(unit_text, root=args.root, user=args.user, model=model), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
