"""``obelisk scanner install PATH``: put the scanner board's code on its CIRCUITPY drive.

The board (a Raspberry Pi Pico running CircuitPython) shows up as a USB drive
named CIRCUITPY. This copies the four files of ``hardware/scanner/`` to its
root and the NeoPixel library (``neopixel.py``, from the installed
adafruit-circuitpython-neopixel package) to its ``lib/``, after reading the
board's CircuitPython version from ``boot_out.txt``.

Each file is written under a temporary name, flushed to the drive, then
renamed over the old one, so the board never runs half a ``code.py``. Files
already identical are left alone, and nothing else on the drive is touched.
``adafruit_pixelbuf``, which ``neopixel.py`` imports, is built into
CircuitPython on the RP2040 (a C module, faster than the pure-Python copy), so
it is not copied.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from dataclasses import dataclass
from pathlib import Path

from hardware.files import KIB, MIB, read_limited

OLDEST_MAJOR = 8
"""CircuitPython 8 or newer; 9 and 10 are the ones to flash today."""
BOARD_FILES = ("obelisk_proto.py", "scanner.py", "boot.py", "code.py")
"""Copied to the drive's root in this order: code.py last, so a reload runs the new set."""
DATA_CHANNEL = "/dev/serial/by-id/usb-Raspberry_Pi_Pico_...-if02"
_PART = ".obelisk-part"
BOOT_OUT_MOST = 64 * KIB
"""boot_out.txt is a few lines CircuitPython writes at each start."""
ON_THE_BOARD_MOST = 2 * MIB
"""No file of the scanner code is near the Pico's whole flash (2 MiB); one that big is not
one of ours, old or new."""
_FIRST_LINE = re.compile(
    r"CircuitPython\s+(?P<version>(?P<major>\d+)\.(?P<minor>\d+)\.(?P<patch>\d+)\S*)"
    r"(?:\s+on\s+[^;]*)?(?:;\s*(?P<board>.+))?")


class ScannerInstallError(Exception):
    """The drive cannot take the scanner code; the message says what to do."""


@dataclass(frozen=True)
class Board:
    """What ``boot_out.txt`` says about the board."""

    version: str  # "9.2.1", "10.0.0-beta.2"
    major: int
    name: str  # "Raspberry Pi Pico with rp2040"; "" when it does not say

    @property
    def is_pico(self) -> bool:
        name = self.name.lower()
        return "pico" in name or "rp2040" in name


def parse_boot_out(text: str) -> Board:
    """The version and board from ``boot_out.txt``'s first line."""
    first = text.splitlines()[0].strip() if text.strip() else ""
    found = _FIRST_LINE.search(first)
    if found is None:
        raise ScannerInstallError(
            f"boot_out.txt does not say which CircuitPython the board runs (its first line is "
            f"{first!r}): flash CircuitPython {OLDEST_MAJOR} or newer on it (9 or 10 "
            "recommended), then run this again")
    return Board(found["version"], int(found["major"]), (found["board"] or "").strip())


def read_board(drive: Path) -> Board:
    """Check that ``drive`` is a CIRCUITPY drive with a new enough CircuitPython."""
    if not drive.is_dir():
        raise ScannerInstallError(
            f"{drive} is not a folder: give the CIRCUITPY drive's mount point (on Raspberry "
            "Pi OS it is /media/$USER/CIRCUITPY once the board is plugged in)")
    try:
        text = read_limited(drive / "boot_out.txt", BOOT_OUT_MOST).decode("utf-8", "replace")
    except FileNotFoundError:
        raise ScannerInstallError(
            f"{drive} is not a CircuitPython drive (it has no boot_out.txt): plug the scanner "
            "board in and give the CIRCUITPY drive's mount point (on Raspberry Pi OS "
            "/media/$USER/CIRCUITPY; `lsblk -o NAME,LABEL,MOUNTPOINT` shows it); a board "
            "that shows up as RPI-RP2 has no CircuitPython yet: copy its .uf2 there first"
        ) from None
    except OSError as exc:
        raise ScannerInstallError(f"cannot read {drive / 'boot_out.txt'}: "
                                  f"{exc.strerror or exc}") from None
    board = parse_boot_out(text)
    if board.major < OLDEST_MAJOR:
        raise ScannerInstallError(
            f"the board runs CircuitPython {board.version}; the scanner code needs "
            f"CircuitPython {OLDEST_MAJOR} or newer (9 or 10 recommended): flash a newer "
            "one (hold BOOTSEL while plugging it in, copy the .uf2 to RPI-RP2), then run "
            "this again; nothing was copied")
    return board


def neopixel_library() -> Path:
    """``neopixel.py`` of the installed adafruit-circuitpython-neopixel package."""
    from importlib.util import find_spec

    spec = find_spec("neopixel")
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ScannerInstallError(
            "the NeoPixel library is not installed here: run ./setup.sh (or pip install "
            "adafruit-circuitpython-neopixel in the project's .venv), then run this again")
    return Path(spec.origin)


def scanner_sources() -> list[tuple[Path, str]]:
    """Every file the board needs, and where it goes on the drive, in copying order."""
    from hardware import scanner
    here = Path(scanner.__file__).resolve().parent
    return [(neopixel_library(), "lib/neopixel.py"),
            *((here / name, name) for name in BOARD_FILES)]


def _person_words(exc: OSError, drive: Path) -> str:
    if exc.errno == errno.ENOSPC:
        return (f"the CIRCUITPY drive at {drive} is full: delete files you no longer need "
                "from it (never boot_out.txt), then run this again")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (f"cannot write to the CIRCUITPY drive at {drive} (read-only or not yours): "
                "check it is mounted read-write and that your user may write to it; a board "
                "whose boot.py remounted its drive for itself needs that boot.py removed "
                "(from the REPL: import os; os.remove('/boot.py')) and a reset")
    return f"cannot write to the CIRCUITPY drive at {drive}: {exc.strerror or exc}"


def _write_whole(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` so that the drive holds either the old or the new file."""
    part = target.with_name(target.name + _PART)
    try:
        with open(part, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        raise
    try:  # the rename itself on the drive (FAT on Linux may refuse to sync a folder)
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def install(drive: Path, sources: list[tuple[Path, str]] | None = None) -> list[str]:
    """Copy the scanner code to ``drive``; what was done and what to do next, a line each."""
    drive = Path(drive)
    board = read_board(drive)
    said = [f"CIRCUITPY at {drive}: CircuitPython {board.version} on "
            f"{board.name or 'a board it does not name'}"]
    if not board.is_pico:
        said.append("warning: this is not a Raspberry Pi Pico (RP2040): the pins in code.py's "
                    "PINS are the Pico's; check them against your wiring before playing")
    changed: list[str] = []
    for source, where in sources or scanner_sources():
        data = read_limited(source, ON_THE_BOARD_MOST)  # the project's own files
        target = drive / where
        try:  # what the drive holds there: anything may lie on a drive (a pipe, a huge file)
            old = read_limited(target, ON_THE_BOARD_MOST) if target.is_file() else None
        except OSError:
            old = None
        if old == data:
            said.append(f"{where}: unchanged")
            continue
        try:
            target.parent.mkdir(exist_ok=True)
            _write_whole(target, data)
        except OSError as exc:
            done = f" (already written: {', '.join(changed)})" if changed else ""
            raise ScannerInstallError(_person_words(exc, drive) + done) from None
        changed.append(where)
        said.append(f"{where}: {'new' if old is None else 'updated'}")
    if "boot.py" in changed:
        said.append("next: unplug and replug the board (or press RESET): boot.py opens the "
                    "data channel only at a hard reset")
    elif changed:
        said.append("next: press RESET (or unplug and replug the board): while it scans, "
                    "the board does not reload saved files by itself")
    else:
        said.append("nothing to do on the board: it already has this code")
    said.append(f"then: `obelisk diag --profile reference` should show the board's hello; "
                f"its data channel is {DATA_CHANNEL} (ls /dev/serial/by-id/)")
    return said
