"""The table's block of a Raspberry Pi's ``config.txt``: one, matching the Pi it boots.

setup.sh keeps the boot settings the LEDs need (``hardware.pi_models``) in one block of its
own, headed ``# Obelisk Table (setup.sh)``. An SD card moved to another Pi gets that block
rewritten for the new model (a Pi 4's ``core_freq_min=500`` gone on a Pi 3, a Pi 5's block
gone entirely), never a second block beside the first. Lines a person wrote elsewhere in the
file are theirs: a setting they already have is not repeated, and one they set otherwise is
said and left alone.

Runs on the system Python before the venv exists (``python3 -m hardware.boot_config FILE
--model M`` prints the file as it should be), so it imports nothing outside the standard
library and this package's ``files``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from hardware.files import KIB, read_limited
from hardware.pi_models import BOOT_KEYS, PiModelError, pi_model

HEADING = "# Obelisk Table (setup.sh)"
"""How the table's block starts (every version of setup.sh wrote this)."""
BLOCK_HEADING = f"{HEADING}: NeoPixels on SPI need SPI on and a steady core clock"
"""The heading in full, as setup.sh has always written it (a block it wrote before stays)."""
CONFIG_MOST = 256 * KIB
"""A config.txt is a page or two of text."""


@dataclass(frozen=True)
class BootConfig:
    """config.txt as it should be for a model, and what a person should know about it."""

    text: str
    notes: tuple[str, ...]
    """Settings of the person's own that differ from what the LEDs want, left as they are."""


def _key(line: str) -> str:
    """``core_freq=250``: ``core_freq``; ``dtparam=spi=on``: ``dtparam=spi``."""
    return line.strip().rsplit("=", 1)[0]


def _split(lines: list[str]) -> tuple[list[str], int | None]:
    """The file's lines without any block of the table's, and where the first one stood."""
    kept: list[str] = []
    first: int | None = None
    inside = False
    for line in lines:
        bare = line.strip()
        if bare.startswith(HEADING):
            inside = True
            if first is None:
                while kept and not kept[-1].strip():  # the blank line setup.sh put before it
                    kept.pop()
                first = len(kept)
            continue
        if inside and (bare == "[all]" or _key(bare) in BOOT_KEYS):
            continue  # its own lines (a person's appended right after it are kept)
        inside = False
        kept.append(line)
    return kept, first


def boot_config(text: str, wanted: tuple[str, ...]) -> BootConfig:
    """``text`` (a config.txt) with one block of the ``wanted`` lines, or none when the
    person's own lines already hold them all (or none are wanted)."""
    kept, first = _split(text.splitlines())
    own = {_key(line): line.strip() for line in kept
           if "=" in line and not line.strip().startswith(("#", "["))}
    block: list[str] = []
    notes: list[str] = []
    for line in wanted:
        theirs = own.get(_key(line))
        if theirs is None:
            block.append(line)
        elif theirs != line:
            notes.append(f"config.txt sets {theirs}; the LEDs want {line}, so it is left for "
                         "you to decide")
    if first is None and not block:
        return BootConfig(text, tuple(notes))  # none there, none wanted: the file as it is
    if block:
        where = len(kept) if first is None else first
        lines = ["", BLOCK_HEADING, "[all]", *block]
        if where < len(kept) and kept[where].strip():
            lines.append("")
        kept[where:where] = lines if where else lines[1:]
    new = "\n".join(kept)
    return BootConfig(new + "\n" if new else "", tuple(notes))


def main(argv: list[str] | None = None) -> int:
    """Print FILE as it should be for the model; notes on stderr; 2 with words on a
    file that cannot be read or a Pi the table cannot use."""
    parser = argparse.ArgumentParser(prog="python3 -m hardware.boot_config",
                                     description="config.txt with the table's one block.")
    parser.add_argument("file", type=Path, help="the Pi's config.txt")
    parser.add_argument("--model", required=True, help="the device tree's model string")
    args = parser.parse_args(argv)
    try:
        model = pi_model(args.model)
        text = read_limited(args.file, CONFIG_MOST).decode("utf-8", "replace")
    except PiModelError as exc:
        print(f"setup: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"setup: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    made = boot_config(text, model.boot_config)
    for note in made.notes:
        print(f"setup: note: {args.file} {note.removeprefix('config.txt ')}", file=sys.stderr)
    print(made.text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
