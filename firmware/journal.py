"""The on-disk journal: every accepted action, safe before the LEDs confirm it.

One JSON object per line in ``<state dir>/journal.jsonl``. ``append`` writes
a whole line and fsyncs the file (and, when the file is new, its directory)
before it returns, so an action the table confirmed survives a power cut.

Reading back tolerates the one thing a power cut can do to an append-only
file: a last line cut short. It is dropped (and the file trimmed to the last
whole line before anything more is written). Damage anywhere else is not
guessed around: the journal is refused with the line number and what to do.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

JOURNAL = "journal.jsonl"


class JournalError(RuntimeError):
    """A journal that cannot be read or written, with the fix."""


@dataclass(frozen=True)
class JournalContents:
    entries: tuple[dict, ...]
    torn_tail: bool  # a cut-short last line was found (and is dropped)


class Journal:
    """Append-only JSON-lines journal in a state directory."""

    def __init__(self, state_dir: str | Path) -> None:
        self.dir = Path(state_dir)
        self.path = self.dir / JOURNAL
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the state directory {self.dir}: {exc.strerror}; "
                               "choose another with --state-dir") from None

    def read(self) -> JournalContents:
        """Every whole entry, oldest first."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return JournalContents((), False)
        except OSError as exc:
            raise JournalError(f"cannot read {self.path}: {exc.strerror}") from None
        lines = raw.split(b"\n")
        torn = lines[-1] != b""  # a whole journal ends with a newline
        whole, tail = lines[:-1], lines[-1]
        entries = []
        for number, line in enumerate(whole, 1):
            try:
                entry = json.loads(line)
                if not isinstance(entry, dict):
                    raise ValueError("not an object")
            except ValueError as exc:
                raise JournalError(
                    f"{self.path} line {number} is damaged ({exc}); the journal cannot be "
                    f"trusted past it. Move the file aside to start afresh"
                ) from None
            entries.append(entry)
        if torn and tail.strip():
            try:
                entry = json.loads(tail)
                if isinstance(entry, dict):  # complete but for its newline: keep it
                    entries.append(entry)
                    torn = False
            except ValueError:
                pass
        return JournalContents(tuple(entries), torn)

    def unfinished(self) -> tuple[dict, ...]:
        """The last game's entries, its start first, if that game has not ended; else ()."""
        entries = self.read().entries
        starts = [i for i, e in enumerate(entries) if e.get("t") == "start"]
        if not starts or any(e.get("t") == "over" for e in entries[starts[-1]:]):
            return ()
        return entries[starts[-1]:]

    def repair(self) -> bool:
        """Cut a torn last line off the file; True if there was one."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return False
        if not raw or raw.endswith(b"\n"):
            return False
        contents = self.read()
        keep = raw[: raw.rfind(b"\n") + 1]
        if not contents.torn_tail:  # the last line was whole: only its newline was lost
            keep = raw + b"\n"
        with open(self.path, "r+b") as f:
            f.seek(0)
            f.write(keep)
            f.truncate()
            f.flush()
            os.fsync(f.fileno())
        return contents.torn_tail

    def append(self, entry: dict) -> None:
        """Write one entry and make sure it is on disk before returning."""
        line = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode() + b"\n"
        new = not self.path.exists()
        if not new:
            self.repair()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
            if new:
                dir_fd = os.open(self.dir, os.O_RDONLY)
                try:
                    os.fsync(dir_fd)
                finally:
                    os.close(dir_fd)
        except OSError as exc:
            raise JournalError(f"cannot write {self.path}: {exc.strerror}; the last action "
                               "was not recorded") from None

    def archive(self, name: str) -> Path:
        """Move a finished game's journal aside (kept, never deleted)."""
        target = self.dir / name
        os.replace(self.path, target)
        return target
