"""The suite's own machine: a home, state directories and a service directory of its own.

The tables a person plays keep their games under ``~/.local/state/obelisk`` (and a Pi's
service under ``/var/lib/obelisk``); commands such as ``obelisk diag`` and ``obelisk games``
look there when no ``--state-dir`` is typed. A test run must never find, read or change
those, so before the first test the run gets a directory of its own and every place the
table's commands look is moved into it, for this process and every process it starts.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from firmware.store.state_dir import SERVICE_STATE_ENV

CLEARED = ("STATE_DIRECTORY", "RUNTIME_DIRECTORY", "NOTIFY_SOCKET", "WATCHDOG_USEC",
           "WATCHDOG_PID", "OBELISK_GAMES", "OBELISK_MATCH_SECRET", "OBELISK_STATE_LOCK_FD",
           "GPIOZERO_PIN_FACTORY")
"""What a person's shell or a systemd unit may have set that steers the table's commands:
none of it reaches a test, which sets what it wants itself."""


@dataclass(frozen=True)
class Seal:
    """Where this run keeps what a person's machine would: ``root`` and all under it."""

    root: Path
    user_home: str  # the HOME the run was started with: kept only to prove it is not used

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def state_home(self) -> Path:
        return self.home / ".local" / "state"

    @property
    def service_dir(self) -> Path:
        """Stands for a Pi's ``/var/lib/obelisk``: made, and left empty."""
        return self.root / "var-lib-obelisk"

    def environment(self) -> dict[str, str]:
        return {"HOME": str(self.home), "XDG_STATE_HOME": str(self.state_home),
                "XDG_CONFIG_HOME": str(self.home / ".config"),
                "XDG_CACHE_HOME": str(self.home / ".cache"),
                "XDG_DATA_HOME": str(self.home / ".local" / "share"),
                "XDG_RUNTIME_DIR": str(self.root / "run"),
                SERVICE_STATE_ENV: str(self.service_dir)}


def seal() -> Seal:
    """Make this run's machine and move this process (and so its children) into it.

    The directory is short (``/tmp/obelisk-run-XXXXXXXX``): a table's sockets live in its
    state directory, and the kernel takes Unix socket paths of at most 107 bytes.
    """
    made = Seal(Path(tempfile.mkdtemp(prefix="obelisk-run-", dir="/tmp")),
                os.environ.get("HOME", ""))
    for name, value in made.environment().items():
        Path(value).mkdir(mode=0o700, parents=True, exist_ok=True)
        os.environ[name] = value
    for name in CLEARED:
        os.environ.pop(name, None)
    return made


def unseal(made: Seal) -> None:
    """Remove the run's machine (its processes are gone by now: ``reaper``)."""
    shutil.rmtree(made.root, ignore_errors=True)
