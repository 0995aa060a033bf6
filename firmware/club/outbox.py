"""What the broker has not yet taken, kept on disk in order: nothing is lost to a bad network.

Each message (an event, a result) is a file ``<seq>.json`` in the outbox
directory, named by a number that only grows, so a listing is the order
they were told. A file goes only when the broker has acknowledged the
message (MQTT QoS 1's PUBACK); a publisher that stops, is killed, or loses
its broker finds them all again and sends them first, oldest first. The
broker may so see a message twice, never miss one.

Results are synced to disk before they count (as the journal is); events
are written without waiting for the disk, since a power cut may cost the
last few of them but never a result. A full disk keeps the message in
memory only, still in its place in the order, and says so once with the fix.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from firmware.state_dir import StateDirError, disk_advice, write_all, write_whole

log = logging.getLogger("obelisk.mqtt")


@dataclass(frozen=True)
class Message:
    """One message waiting for the broker: its place in the order, topic, payload."""

    seq: int
    topic: str
    payload: bytes
    retain: bool
    path: Path | None  # None: it could not be saved (the disk is full)


class Outbox:
    """The messages not yet acknowledged, oldest first, mirrored in a directory."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StateDirError(f"cannot make the outbox {self.directory}: "
                                f"{disk_advice(exc, self.directory / 'x')}") from None
        self._lock = threading.Lock()
        self._waiting: deque[Message] = deque()
        self._disk_full_said = False
        self._next = 1
        for path in sorted(self.directory.glob("*.json")):
            message = self._read(path)
            if message is not None:
                self._waiting.append(message)
                self._next = max(self._next, message.seq + 1)

    def _read(self, path: Path) -> Message | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Message(int(path.stem), str(data["topic"]), data["payload"].encode(),
                           bool(data["retain"]), path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            log.warning("the outbox file %s cannot be read (cut short as the disk filled?); "
                        "it is skipped and left there", path)
            with contextlib.suppress(OSError):
                path.rename(path.with_suffix(".unreadable"))
            return None

    def put(self, topic: str, payload: bytes, retain: bool = False,
            durable: bool = False) -> Message:
        """Add a message at the end; ``durable``: synced to disk before this returns."""
        with self._lock:
            seq = self._next
            self._next += 1
            path = self.directory / f"{seq:012d}.json"
            text = json.dumps({"topic": topic, "retain": retain,
                               "payload": payload.decode()}).encode()
            try:
                if durable:
                    write_whole(path, text)
                else:
                    _write_quick(path, text)
                self._disk_full_said = False
            except (OSError, StateDirError) as exc:
                path = None
                if not self._disk_full_said:
                    self._disk_full_said = True
                    why = disk_advice(exc, self.directory / "x") if isinstance(exc, OSError) \
                        else str(exc)
                    log.warning("the outbox cannot save what waits for the broker: %s; until "
                                "then it waits in memory only (lost if the publisher stops)",
                                why)
            message = Message(seq, topic, payload, retain, path)
            self._waiting.append(message)
            return message

    def after(self, seq: int, count: int) -> list[Message]:
        """Up to ``count`` waiting messages that come after ``seq``, in order."""
        with self._lock:
            out = []
            for message in self._waiting:
                if message.seq > seq:
                    out.append(message)
                    if len(out) == count:
                        break
            return out

    def done(self, message: Message) -> None:
        """The broker has it: forget it, on disk too."""
        with self._lock, contextlib.suppress(ValueError):
            self._waiting.remove(message)
        if message.path is not None:
            with contextlib.suppress(FileNotFoundError):
                message.path.unlink()

    def __len__(self) -> int:
        with self._lock:
            return len(self._waiting)


def _write_quick(path: Path, data: bytes) -> None:
    """Write a whole file under its name (a temporary name, then a rename), without
    waiting for the disk."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
