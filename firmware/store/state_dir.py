"""The state directory: one service at a time, found writable, files replaced whole.

Everything a table must not lose lives in one directory (the journal, the
calibration, the seal key, the simulated table). Three promises keep it:

- **One owner.** Whoever plays or calibrates takes an exclusive ``flock`` on
  ``<dir>/lock`` for as long as it runs. A second ``run``, ``demo`` or
  ``calibrate`` on the same directory is refused, naming the process that
  holds it. The kernel drops the lock when its holder dies, even by SIGKILL,
  so a crash never leaves the directory locked. ``obelisk play`` takes it
  before it makes anything and lends it to the table service it starts
  (``lend``), so a second play is refused before it can touch the first.
- **Checked at start.** A directory that cannot be written is reported before
  the first move, not at it.
- **Whole files.** A file is replaced by writing a temporary file, syncing
  it, renaming it over the old one and syncing the directory: after a power
  cut or a full disk there is either the old file or the new one, never half.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

LOCK = "lock"
LENT = "OBELISK_STATE_LOCK_FD"
"""Set by a command that holds a directory for a child of its own (``obelisk play`` for its
table service): the number of the lock's descriptor, which the child was given."""
SERVICE_STATE_DIR = Path("/var/lib/obelisk")
"""The table service's directory on a Pi (its unit's ``StateDirectory=obelisk``)."""
SERVICE_STATE_ENV = "OBELISK_SERVICE_STATE_DIR"
"""Names the table service's directory where it is not ``SERVICE_STATE_DIR`` (a unit given
another ``StateDirectory=``; the test suite, which never looks at this machine's table)."""
PLAY = "play"
"""Under the default directory, ``obelisk play``'s tables: ``play/<game>``, one a game."""


SOCKET_NAME_MAX = len("buttons.sock")
"""The longest name of a socket the table serves in its directory (``buttons.sock``,
``control.sock``, ``events.sock``, ``hands.sock``)."""
SOCKET_PATH_MAX = 107
"""The most bytes the kernel takes in a Unix socket's path (``sun_path`` less its end)."""


class StateDirError(RuntimeError):
    """The state directory cannot be used; the message says why and what to do."""


def default_state_dir() -> Path:
    """systemd's StateDirectory when it set one, else ~/.local/state/obelisk."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "obelisk"


def play_state_dir(game: str) -> Path:
    """Where ``obelisk play GAME`` keeps its table when no --state-dir is named: the same
    directory each time, so that the game typed again resumes and ``obelisk games`` finds
    what was played."""
    return default_state_dir() / PLAY / game


def service_state_dir() -> Path:
    """Where this machine's table service keeps its state, for the commands that look for it
    (``obelisk diag``, ``obelisk games``)."""
    return Path(os.environ.get(SERVICE_STATE_ENV) or SERVICE_STATE_DIR)


def table_dirs() -> list[Path]:
    """Where the tables of this machine keep their state when no --state-dir is named, in
    the order they are looked at: the default directory, the Pi's service directory, then
    each game's ``obelisk play`` directory made so far."""
    default = default_state_dir()
    try:
        plays = sorted(path for path in (default / PLAY).iterdir() if path.is_dir())
    except OSError:  # none made yet (or not readable: then none can be used either)
        plays = []
    return list(dict.fromkeys([default, service_state_dir(), *plays]))


def dir_words(path: Path) -> str:
    """Whose directory of ``table_dirs`` this is, in words."""
    if path.parent == default_state_dir() / PLAY:
        return f"`obelisk play {path.name}`'s table"
    if path == service_state_dir():
        return "the table service's"
    return "the default state directory" if path == default_state_dir() else \
        "named with --state-dir"


def kept_a_table(path: Path) -> bool:
    """Whether a table ever ran on ``path`` (each takes its lock: "One owner")."""
    try:
        return (path / LOCK).is_file()
    except OSError:
        return False


def disk_advice(exc: OSError, path: Path) -> str:
    """What a failed write means for a person, and what to do about it."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return (f"the disk holding {path.parent} is full: free some space there (for example "
                "`sudo journalctl --vacuum-size=50M`, or delete files you do not need)")
    if exc.errno == errno.EROFS:
        return (f"{path.parent} is on a read-only file system: remount it read-write, or "
                "choose another --state-dir")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"{path.parent} may not be written by this user: fix its owner or "
                "permissions, or choose another --state-dir")
    return f"{path} cannot be written ({exc.strerror or exc}): check the disk"


def sync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` survive a power cut."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_whole(path: str | Path, data: bytes, mode: int = 0o640) -> None:
    """Replace ``path`` with ``data`` so that it is either all old or all new.

    Raises StateDirError (with the fix) before anything of the old file is lost.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        sync_dir(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StateDirError(f"cannot save {path}: {disk_advice(exc, path)}") from None


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is out: a write may take only part of them."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # no progress and no error: treat it as the full disk it is
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


class StateDir:
    """A state directory held by this process: locked, and checked writable."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock_fd: int | None = None

    def open(self, doing: str) -> StateDir:
        """Create, lock and check the directory; ``doing`` says who holds it (for others)."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StateDirError(f"cannot create the state directory {self.path}: "
                                f"{exc.strerror}; choose another with --state-dir") from None
        if not self.path.is_dir():
            raise StateDirError(f"the state directory {self.path} is not a directory: "
                                "choose another with --state-dir")
        self._check_socket_room()
        self._lock(doing)
        self.check_writable()
        return self

    def _lock(self, doing: str) -> None:
        where = self.path / LOCK
        lent = _lent(where)
        try:
            fd = lent if lent is not None else os.open(where, os.O_RDWR | os.O_CREAT, 0o640)
        except OSError as exc:
            raise StateDirError(f"cannot use the state directory {self.path}: "
                                f"{disk_advice(exc, where)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StateDirError(
                f"the state directory {self.path} is in use by {holder}. Only one table "
                "service, play, demo or calibration may use it at a time: stop that one first "
                "(on the Pi: sudo systemctl stop obelisk), or give this one another "
                "--state-dir") from None
        self._lock_fd = fd
        if lent is not None:
            return  # whoever lent it is the holder others are told of
        note = f"process {os.getpid()} ({doing})\n".encode()
        with contextlib.suppress(OSError):  # only a courtesy to whoever is refused
            os.ftruncate(fd, 0)
            os.pwrite(fd, note, 0)

    def lend(self) -> tuple[int, dict[str, str]]:
        """The lock's descriptor, and the environment that tells a child given it (Popen's
        ``pass_fds``) to hold the directory with us: a child opening the lock afresh would
        be refused by our own lock."""
        if self._lock_fd is None:
            raise StateDirError(f"the state directory {self.path} is not held: open it first")
        return self._lock_fd, {LENT: str(self._lock_fd)}

    def _check_socket_room(self) -> None:
        """The sockets in the directory (the page's, the hands', the buttons') need a short
        path: a deep one is refused now, not by the first socket with the kernel's words."""
        longest = len(os.fsencode(self.path.absolute() / ("x" * SOCKET_NAME_MAX)))
        if longest > SOCKET_PATH_MAX:
            raise StateDirError(
                f"the state directory {self.path} is too long a path for the table's sockets "
                f"({longest} bytes with a socket's name; the kernel takes {SOCKET_PATH_MAX}): "
                "choose a shorter --state-dir")

    def check_writable(self) -> None:
        """Write, sync and remove a small file: a read-only or full disk shows now."""
        probe = self.path / ".write-test"
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            try:
                write_all(fd, b"obelisk\n")
                os.fsync(fd)
            finally:
                os.close(fd)
            probe.unlink()
        except OSError as exc:
            with contextlib.suppress(OSError):
                probe.unlink()
            raise StateDirError(f"the state directory cannot be written: "
                                f"{disk_advice(exc, probe)}") from None

    def close(self) -> None:
        """Let the next service have the directory (the kernel also does this on exit)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> StateDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lent(where: Path) -> int | None:
    """The lock's descriptor our parent lent us, if it is that very file (taken from the
    environment, so that a process of ours started later is not told of it)."""
    given = os.environ.pop(LENT, "")
    if not given.isdigit():
        return None
    try:
        mine, there = os.fstat(int(given)), os.stat(where)
    except OSError:
        return None
    return int(given) if (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino) else None


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another process"
