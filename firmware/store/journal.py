"""The on-disk journal: every accepted action, safe before the LEDs confirm it.

One JSON object per line in ``<state dir>/journal.jsonl``. ``append`` writes
a whole line and fsyncs the file (and, when the file is new, its directory)
before it returns, so an action the table confirmed survives a power cut.
When the line cannot be written whole (a full disk, a read-only remount),
whatever part of it did reach the file is cut off again and ``append``
raises: the action was not recorded, and the table must not confirm it.

Reading back tolerates the one thing a power cut can do to an append-only
file: a last line cut short, that is, the start of an entry with no newline
(``begins_an_entry``). It is dropped (and the file trimmed to the last whole
line before anything more is written). Anything else is damage, on the last
line as on any other (a whole entry whose newline became another byte holds a
confirmed action), and is not guessed around: the journal is refused with the
line number and what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from firmware.store.state_dir import StateDirError, disk_advice, sync_dir, write_all
from firmware.store.torn import begins_an_entry
from hardware.files import MIB, read_limited, read_tail

JOURNAL = "journal.jsonl"
MAX_JOURNAL_BYTES = 16 * MIB
"""The most of a journal file read: a long game's journal is some tens of kilobytes, and a
table's journal is moved aside (``ROTATE_BYTES``) before a new game when it has grown."""
ROTATE_BYTES = 1 * MIB
"""A journal this large is archived (kept, never deleted) when the next game starts: it is
read whole at every start, and a table plays for years."""
ENDED = "ended"
"""The entry kind that closes a game set aside before its end (``Journal.set_aside``): the
history lists it with how it ended, as it lists a game played out (an ``over`` entry)."""
ENDS = ("over", ENDED)
START_AFRESH = ("to start afresh without losing it, run again with --new-game (the journal "
                "is kept beside it under another name)")


class JournalError(StateDirError):
    """A journal that cannot be read or written, with the fix."""


@dataclass(frozen=True)
class JournalContents:
    entries: tuple[dict, ...]
    torn_tail: bool  # a cut-short last line was found (and is dropped)


@dataclass(frozen=True)
class GameEntries:
    """One game's entries as the journal holds them, its start first.

    ``first_line`` is the line number of the first entry, so that whoever
    replays them can name the line of an entry that does not make sense.
    """

    path: Path
    entries: tuple[dict, ...] = ()
    first_line: int = 1

    def __bool__(self) -> bool:
        return bool(self.entries)

    @property
    def start(self) -> dict:
        return self.entries[0]

    def line(self, index: int) -> int:
        return self.first_line + index

    def standing(self) -> int:
        """How many actions the game holds after its takebacks: what its moves list shows
        and a resumed game counts (not every action line: a takeback undid some)."""
        held = 0
        for entry in self.entries:
            if entry.get("t") == "action":
                held += 1
            elif entry.get("t") == "takeback" and type(entry.get("to")) is int:
                held = min(held, entry["to"])
        return held

    def damaged(self, index: int, what: str) -> JournalError:
        """The error for entry ``index``: the file, its line, what is wrong, what to do."""
        return JournalError(f"{self.path} line {self.line(index)}: {what}. The unfinished game "
                            f"cannot be resumed past it; {START_AFRESH}")


class Journal:
    """Append-only JSON-lines journal in a state directory."""

    def __init__(self, state_dir: str | Path, name: str = JOURNAL) -> None:
        self.dir = Path(state_dir)
        self.path = self.dir / name  # another name: an archived journal (``set_aside``)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the state directory {self.dir}: {exc.strerror}; "
                               "choose another with --state-dir") from None

    def read(self, path: Path | None = None) -> JournalContents:
        """Every whole entry, oldest first (of ``path``: an archived journal)."""
        path = path or self.path
        try:
            raw = read_limited(path, MAX_JOURNAL_BYTES)
        except FileNotFoundError:
            return JournalContents((), False)
        except OSError as exc:
            raise JournalError(f"cannot read {path}: {exc.strerror}") from None
        lines = raw.split(b"\n")
        whole, tail = lines[:-1], lines[-1]  # a whole journal ends with a newline
        entries = [_entry(path, number, line) for number, line in enumerate(whole, 1)]
        torn = False
        if tail:
            try:
                entries.append(_entry(path, len(lines), tail))  # whole but for its newline
            except JournalError:
                if not begins_an_entry(tail):
                    raise _damaged(path, len(lines), _end_damage(tail)) from None
                torn = True  # the start of an entry a power cut cut short: never confirmed
        return JournalContents(tuple(entries), torn)

    def unfinished(self) -> GameEntries:
        """The last game's entries, its start first, if that game has not ended."""
        entries = self.read().entries
        starts = [i for i, e in enumerate(entries) if e.get("t") == "start"]
        if not starts or any(e.get("t") in ENDS for e in entries[starts[-1]:]):
            return GameEntries(self.path)
        return GameEntries(self.path, entries[starts[-1]:], starts[-1] + 1)

    def holds(self, key: str) -> bool:
        """Whether any entry has ``key`` (say, sealed High Rise facts)."""
        return any(key in e for e in self.read().entries)

    def repair(self) -> bool:
        """Cut a torn last line off the file; True if there was one."""
        if self._ends_whole():
            return False  # the common case, before every append: one byte read, not the file
        try:
            raw = read_limited(self.path, MAX_JOURNAL_BYTES)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise JournalError(f"cannot read {self.path}: {exc.strerror}") from None
        if not raw or raw.endswith(b"\n"):
            return False
        contents = self.read()
        keep = raw[: raw.rfind(b"\n") + 1]
        if not contents.torn_tail:  # the last line was whole: only its newline was lost
            keep = raw + b"\n"
        try:  # mended in place: the file read_limited has just read whole
            fd = os.open(self.path, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.pwrite(fd, keep, 0)
                os.ftruncate(fd, len(keep))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise JournalError(f"cannot mend the cut-off last line of {self.path}: "
                               f"{disk_advice(exc, self.path)}") from None
        return contents.torn_tail

    def _ends_whole(self) -> bool:
        """Whether the file is empty or missing, or ends with a whole line."""
        try:
            last = read_tail(self.path, 1)
        except FileNotFoundError:
            return True
        except OSError:
            return False  # let repair() read it and say what is wrong (a pipe, a folder)
        return last in (b"", b"\n")

    def append(self, entry: dict) -> None:
        """Write one entry and make sure it is all on disk before returning.

        On any failure the file is left as it was (a part-written line is cut
        off again) and JournalError says that the action was not recorded.
        """
        line = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode() + b"\n"
        if entry.get("t") == "start":
            self._rotate()
        new = not self.path.exists()
        fd = self._open_whole()
        try:
            size = os.fstat(fd).st_size
            try:
                write_all(fd, line)
                os.fsync(fd)
            except OSError as exc:
                try:  # take back the part that did reach the file
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    pass  # read() drops a torn last line; repair() cuts it before the next
                raise self._not_recorded(exc) from None
        finally:
            os.close(fd)
        if new:
            try:
                sync_dir(self.dir)
            except OSError as exc:
                raise self._not_recorded(exc) from None

    def _rotate(self) -> None:
        """Before a new game: a journal grown past ``ROTATE_BYTES`` (finished games only, as a
        new game starts after the last one ended or was moved aside) is archived."""
        try:
            grown = self.path.stat().st_size > ROTATE_BYTES
        except OSError:
            return  # none yet (or unreadable: the append says so)
        if grown:
            self.archive()

    def _open_whole(self) -> int:
        """The journal opened to append, ending with a whole line (a torn last line is
        mended first). One open and a one-byte read in the common case: this is on the way
        from a move to its LEDs."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o640)
        except OSError as exc:
            raise self._not_recorded(exc) from None
        try:
            size = os.fstat(fd).st_size
            if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
                return fd
        except OSError:
            pass  # repair() reads it and says what is wrong
        os.close(fd)
        self.repair()
        try:
            return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        except OSError as exc:
            raise self._not_recorded(exc) from None

    def _not_recorded(self, exc: OSError) -> JournalError:
        return JournalError(f"this action was not recorded, so the table waits and tries again: "
                            f"{disk_advice(exc, self.path)}")

    def set_aside(self, how: str) -> Path:
        """Move the journal of a game not played out aside (``archive``), then close its
        game there with how it ended (an ``ended`` entry: ``end``, the page's End the game;
        ``new-game``), so the history lists it so. That last line is only a courtesy: a disk
        that refuses it leaves the game listed all the same, as left unfinished."""
        target = self.archive()
        with contextlib.suppress(JournalError):
            Journal(self.dir, target.name).append({"t": ENDED, "how": how})
        return target

    def archive(self, name: str | None = None) -> Path:
        """Move the journal aside (kept, never deleted); the next game starts a new one.

        Archives are named by date, and the history lists them in the order of their names:
        a wall clock stepped back (a Pi with no real-time clock boots with the time it last
        saved) takes the newest archive's date instead, numbered after it."""
        stamp = max([time.strftime("%Y%m%d-%H%M%S"),
                     *(p.name[len("journal-"):].partition(".")[0]
                       for p in self.dir.glob("journal-*.jsonl"))])
        target = self.dir / (name or f"journal-{stamp}.jsonl")
        n = 1
        while target.exists():  # two archives in one second keep both
            target = target.with_name(f"{target.stem.rsplit('.', 1)[0]}.{n}.jsonl")
            n += 1
        try:
            os.replace(self.path, target)
            sync_dir(self.dir)
        except OSError as exc:
            raise JournalError(f"cannot move {self.path} aside: "
                               f"{disk_advice(exc, target)}") from None
        return target


def _entry(path: Path, number: int, line: bytes) -> dict:
    """Line ``number`` as the entry it holds (JournalError, in words, if it holds none)."""
    try:
        entry = json.loads(line)
    except RecursionError:
        raise _damaged(path, number, "nested too deeply") from None
    except ValueError:  # json's own words name a column and a char: not a person's
        raise _damaged(path, number, "not a whole journal entry") from None
    if not isinstance(entry, dict):
        raise _damaged(path, number, "not a journal entry: each line is one JSON object")
    return entry


def _damaged(path: Path, number: int, why: str) -> JournalError:
    return JournalError(f"{path} line {number} is damaged ({why}); the journal cannot be "
                        f"trusted past it. {START_AFRESH[0].upper()}{START_AFRESH[1:]}")


def _end_damage(tail: bytes) -> str:
    """Why a last line is neither an entry nor the start of one, in words."""
    try:
        entry, _ = json.JSONDecoder().raw_decode(tail.decode("utf-8"))
    except (ValueError, RecursionError):
        entry = None
    if not isinstance(entry, dict):
        return "not a whole journal entry, nor the start of one that a power cut could leave"
    return ("a whole entry, but with something else where its line should end: if that is "
            "only the line's end damaged, a line break in its place (in a text editor) "
            "resumes the game")
