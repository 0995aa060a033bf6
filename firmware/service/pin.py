"""The table PIN: four digits that let the people at the table run it from a phone.

The PIN is made once, the first time the service (or ``obelisk pin``) asks
for it, and kept in ``<state dir>/pin`` (mode 0600: the table's user only;
``obelisk web`` runs as that user and reads it). Whoever can see the table
can learn it: ``obelisk pin`` prints it, and holding the menu button shows
it on the rings (``firmware.service.overlays``).

``obelisk pin --new`` makes another PIN and counts its generation up (the
file's second line); the page's sessions remember the generation they were
made in, so every session made with the old PIN ends at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from firmware.store.state_dir import StateDirError, write_whole
from hardware.files import FileRefused, read_limited

PIN_FILE = "pin"
DIGITS = 4


class PinError(OSError):
    """The PIN cannot be read or kept (says which file and what to do)."""


@dataclass(frozen=True)
class TablePin:
    """The PIN and its generation (how many times a new one replaced the first)."""

    pin: str
    generation: int = 0


def _valid(text: str) -> bool:
    return len(text) == DIGITS and text.isascii() and text.isdigit()


def read_table_pin(directory: str | Path) -> TablePin | None:
    """The table's PIN and its generation, or None when none was made yet; PinError when it
    cannot be read."""
    path = Path(directory) / PIN_FILE
    try:
        lines = read_limited(path, 64).decode("ascii", "replace").split()
    except FileNotFoundError:
        return None
    except FileRefused as exc:
        raise PinError(f"{path} is no PIN file ({exc.strerror}): delete it, and the table "
                       "makes a new PIN when it starts") from None
    except OSError as exc:
        raise PinError(f"cannot read the table PIN in {path}: {exc.strerror}; run as the "
                       "table's user") from None
    generation = lines[1] if len(lines) == 2 else "0"
    if len(lines) not in (1, 2) or not _valid(lines[0]) or not (
            generation.isascii() and generation.isdigit() and len(generation) < 10):
        raise PinError(f"{path} does not hold a {DIGITS}-digit PIN: delete it, and the "
                       "table makes a new one when it starts")
    return TablePin(lines[0], int(generation))


def _digit() -> str:
    """One random digit from the system's randomness (``random`` would cost the service's
    start-up the import of hashlib)."""
    while (byte := os.urandom(1)[0]) >= 250:  # 250 = 25 tens: every digit equally likely
        continue
    return str(byte % 10)


def read_pin(directory: str | Path) -> str | None:
    """The table's PIN, or None when none was made yet; PinError when it cannot be read."""
    found = read_table_pin(directory)
    return None if found is None else found.pin


def _write(directory: str | Path, made: TablePin) -> None:
    text = made.pin + (f"\n{made.generation}" if made.generation else "") + "\n"
    try:
        write_whole(Path(directory) / PIN_FILE, text.encode(), mode=0o600)
    except StateDirError as exc:
        raise PinError(str(exc)) from None


def _digits(unlike: str = "") -> str:
    while True:
        made = "".join(_digit() for _ in range(DIGITS))
        if made != unlike:
            return made


def table_pin(directory: str | Path) -> str:
    """The table's PIN, made (and kept, mode 0600) the first time it is asked for."""
    found = read_pin(directory)
    if found is not None:
        return found
    made = TablePin(_digits())
    _write(directory, made)
    return made.pin


def new_pin(directory: str | Path) -> TablePin:
    """Another PIN, of the next generation: every page session made with the old one ends.

    A PIN file that cannot be read is replaced too (that is the way out of it).
    """
    try:
        old = read_table_pin(directory)
    except PinError:
        old = None
    made = TablePin(_digits(old.pin if old else ""), old.generation + 1 if old else 1)
    _write(directory, made)
    return made
