"""Files that are no such file: what a bad file can be, and reading one without hanging.

A state directory's file may be a huge sparse file, a named pipe, a folder or a link to an
endless device; each test of a reader makes one of these and reads it through
``outcome_within``, so a reader that would hang fails the test instead of hanging it.
"""

from __future__ import annotations

import os
from pathlib import Path

from firmware.store.journal import Journal, JournalError


class FillingJournal(Journal):
    """A journal on a disk that is full while ``full`` is set: it filled up just after the
    game's last move was written, so only its end does not fit."""

    full = False

    def append(self, entry: dict) -> None:
        if self.full and entry.get("t") == "over":
            raise JournalError(f"not recorded: the disk holding {self.dir} is full: free "
                               "some space")
        super().append(entry)


def readers(state: Path) -> dict:
    """Each file the table reads, and how it is read (a function that raises in words)."""
    from firmware.highrise.calibrate import FILE, load_calibration
    from firmware.service.pin import PIN_FILE, read_table_pin
    from firmware.store.seal import KEY_FILE, Sealer
    from firmware.towers.sets import load_block_set
    from hardware.profile import load_profile

    return {
        "journal.jsonl": lambda: Journal(state).read(),
        PIN_FILE: lambda: read_table_pin(state),
        KEY_FILE: lambda: Sealer(state).check(journal_is_sealed=True),
        FILE: lambda: load_calibration(state, 9),
        "set.toml": lambda: load_block_set(state / "set.toml"),
        "profile.toml": lambda: load_profile(state / "profile.toml"),
    }


def huge(path: Path) -> None:
    with open(path, "wb") as f:
        f.truncate(8 << 30)  # 8 GiB, sparse: no disk taken, but far past any limit


def fifo(path: Path) -> None:
    os.mkfifo(path)  # opened to read in the usual way, it waits for a writer for ever


def folder(path: Path) -> None:
    path.mkdir()


def device(path: Path) -> None:
    path.symlink_to("/dev/zero")  # read in the usual way, it never ends


HUNG = object()
"""What ``outcome_within`` gives for a read that had not ended in time."""


def outcome_within(read, seconds: float) -> object:
    """What ``read()`` raised (None when it returned), or HUNG when it had not ended within
    ``seconds``: it runs on a thread of its own, since a FIFO read the usual way never ends
    and would take the caller with it."""
    import threading

    got: list = []

    def attempt() -> None:
        try:
            read()
            got.append(None)
        except Exception as exc:  # judged by the caller
            got.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(seconds)
    return HUNG if worker.is_alive() else got[0]
