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

A broker gone for days must not fill the Pi's card (nor its memory): past a
limit (``outbox_limit_mb`` in mqtt.toml, 20 MB by default) the oldest
*events* go first to make room. Results are never dropped: they are what a
club keeps, they are small, and the publisher would read them again from
the journals anyway. The log says once that dropping began, and the
publisher says how many went once the broker is back.
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

from firmware.readers.club.safe import FileRefused, clean, read_bounded, topic_trouble
from firmware.readers.club.trouble import os_words, text_words
from firmware.store.state_dir import StateDirError, disk_advice, write_all, write_whole

log = logging.getLogger("obelisk.mqtt")
LIMIT_MB = 20
"""The outbox's default limit, in megabytes (10^6 bytes) of waiting messages."""
ENTRY_MAX = 16_000_000
"""The most one message's file may hold, in bytes: a long game's result is well under one
megabyte; a larger file is not one this publisher wrote."""


def _entry(raw: bytes) -> tuple[dict | None, str]:
    """An outbox file's fields (topic, payload, retain, keep), or None and why it holds no
    message MQTT can carry, in words."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, text_words(exc, "it") + " (no file the publisher wrote)"
    except ValueError:
        return None, ("it is not a whole JSON object (cut short as the disk filled, or not "
                      "written by the publisher?)")
    if not isinstance(data, dict):
        return None, "it is not a message (JSON, but no object with a topic and a payload)"
    for key, kind in (("topic", str), ("payload", str), ("retain", bool)):
        if key not in data:
            return None, f"it has no {key}: it is not a message the publisher wrote"
        if not isinstance(data[key], kind):
            return None, f"its {key} is not {'text' if kind is str else 'true or false'}"
    trouble = topic_trouble(data["topic"])
    if trouble is not None:
        return None, trouble
    retain = data["retain"]
    return {"topic": data["topic"], "payload": data["payload"], "retain": retain,
            "keep": bool(data.get("keep", retain))}, ""  # results are retained


@dataclass(frozen=True)
class Message:
    """One message waiting for the broker: its place in the order, topic, payload."""

    seq: int
    topic: str
    payload: bytes
    retain: bool
    path: Path | None  # None: it could not be saved (the disk is full)
    keep: bool = False  # a result: never dropped to make room

    @property
    def size(self) -> int:
        """What it counts against the limit: about its bytes on disk."""
        return len(self.topic) + len(self.payload)


class Outbox:
    """The messages not yet acknowledged, oldest first, mirrored in a directory."""

    def __init__(self, directory: str | Path, limit_mb: float = LIMIT_MB,
                 rejected: str | Path | None = None) -> None:
        self.directory = Path(directory)
        self.rejected = Path(rejected) if rejected is not None else \
            self.directory.parent / "rejected"
        """Where a file that holds no message MQTT can carry is set aside, with the log
        saying why (beside the outbox: ``<state dir>/mqtt/rejected``)."""
        self.limit_mb = limit_mb
        self.limit = int(limit_mb * 1_000_000)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StateDirError(f"cannot make the outbox {self.directory}: "
                                f"{disk_advice(exc, self.directory / 'x')}") from None
        self._lock = threading.Lock()
        self._waiting: deque[Message] = deque()
        self._disk_full_said = False
        self._unlink_said = False
        self._bytes = 0
        self._dropped = 0
        self._handed = 0
        self._next = 1
        for path in self.directory.glob(".*.tmp"):  # a write cut short: never a message
            with contextlib.suppress(OSError):
                path.unlink()
        for path in sorted(self.directory.glob("*.unreadable")):  # set aside by old versions
            self._set_aside(path, "an older publisher could not read it")
        for path in sorted(self.directory.glob("*.json")):
            message = self._read(path)
            if message is not None:
                self._waiting.append(message)
                self._bytes += message.size
                self._next = max(self._next, message.seq + 1)
        self._trim()  # the limit may have been lowered since

    def _read(self, path: Path) -> Message | None:
        """The message in ``path``; None, with the file set aside, if it holds none that MQTT
        can carry (cut short as the disk filled, or put there by hand)."""
        try:
            seq = int(path.stem)
            raw = read_bounded(path, ENTRY_MAX, follow=False)
        except FileNotFoundError:
            return None
        except FileRefused as exc:
            self._set_aside(path, f"{exc}")
            return None
        except OSError as exc:
            self._set_aside(path, f"it cannot be read ({os_words(exc)})")
            return None
        except ValueError:
            self._set_aside(path, "its name is not a number of the outbox's order")
            return None
        data, why = _entry(raw)
        if data is None:
            self._set_aside(path, why)
            return None
        return Message(seq, data["topic"], data["payload"].encode(), data["retain"], path,
                       data["keep"])

    def _set_aside(self, path: Path, why: str) -> None:
        """Move ``path`` to the rejected folder (never deleted: a person may want it) and
        say why; if it cannot move, it stays where it is, skipped."""
        where = self.rejected / path.name
        try:
            self.rejected.mkdir(parents=True, exist_ok=True)
            number = 1
            while where.exists() or where.is_symlink():
                number += 1
                where = self.rejected / f"{path.name}.{number}"
            os.rename(path, where)
        except OSError as exc:
            log.warning("the outbox file %s is skipped: %s; it cannot be moved to %s (%s), so "
                        "it stays", path, why, self.rejected, disk_advice(exc, where))
            return
        log.warning("the outbox file %s is set aside in %s: %s; the rest goes on", path.name,
                    self.rejected, why)

    def reject(self, message: Message, why: str) -> None:
        """A message the client refused: out of the order, its file set aside, kept."""
        with self._lock:
            try:
                self._waiting.remove(message)
                self._bytes -= message.size
            except ValueError:
                return
            if message.path is not None:
                self._set_aside(message.path, why)
            else:
                self._keep_rejected(message.seq, message.topic, message.payload, why)

    def _keep_rejected(self, seq: int, topic: str, payload: bytes, why: str) -> None:
        """Write a message that never reached the outbox straight to the rejected folder."""
        path = self.rejected / f"{seq:012d}.json"
        try:
            self.rejected.mkdir(parents=True, exist_ok=True)
            _write_quick(path, json.dumps({"topic": topic, "payload": payload.decode(
                "utf-8", "replace"), "why": why}).encode())
        except OSError as exc:
            log.warning("a message for %r is refused: %s; it cannot be kept in %s either (%s)",
                        clean(topic, 80), why, self.rejected, disk_advice(exc, path))
            return
        log.warning("the message %s is set aside in %s: %s; the rest goes on", path.name,
                    self.rejected, why)

    def put(self, topic: str, payload: bytes, retain: bool = False,
            durable: bool = False) -> Message:
        """Add a message at the end; ``durable``: synced to disk before this returns."""
        with self._lock:
            seq = self._next
            self._next += 1
            path = self.directory / f"{seq:012d}.json"
            trouble = topic_trouble(topic)
            try:
                text = json.dumps({"topic": topic, "retain": retain, "keep": durable,
                                   "payload": payload.decode()}).encode()
            except UnicodeDecodeError:
                trouble, text = "its payload is not UTF-8 text", b""
            if trouble is None and len(text) > ENTRY_MAX:
                trouble = f"it is {len(text)} bytes, more than the {ENTRY_MAX} a message may be"
            if trouble is not None:
                self._keep_rejected(seq, topic, payload, trouble)
                return Message(seq, topic, payload, retain, None, durable)
            saved: Path | None = path  # None: it waits in memory only
            try:
                if durable:
                    write_whole(path, text)
                else:
                    _write_quick(path, text)
                self._disk_full_said = False
            except OSError as exc:
                saved = None
                self._unsaved(disk_advice(exc, self.directory / "x"))
            except StateDirError as exc:
                saved = None
                self._unsaved(f"{exc}")
            message = Message(seq, topic, payload, retain, saved, durable)
            self._waiting.append(message)
            self._bytes += message.size
            self._trim()
            return message

    def _unsaved(self, why: str) -> None:
        if not self._disk_full_said:
            self._disk_full_said = True
            log.warning("the outbox cannot save what waits for the broker: %s; until then it "
                        "waits in memory only (lost if the publisher stops)", why)

    def _trim(self) -> None:
        """Drop the oldest events until what waits is within the limit (under the lock)."""
        while self._bytes > self.limit:
            oldest = next((i for i, m in enumerate(self._waiting)
                           if not m.keep and m.seq > self._handed), None)
            if oldest is None:
                return  # only results (and what the client holds) wait: they stay
            message = self._waiting[oldest]
            del self._waiting[oldest]
            self._bytes -= message.size
            self._forget(message)
            if not self._dropped:
                log.warning("the broker has been away so long that the outbox reached its "
                            "limit (%g MB, outbox_limit_mb in mqtt.toml): the oldest events "
                            "now go to make room; every result is kept", self.limit_mb)
            self._dropped += 1

    def handed(self, seq: int) -> None:
        """Every message up to ``seq`` is with the MQTT client, which sends it again itself
        after an outage: dropping it here would save nothing, and miscount."""
        with self._lock:
            self._handed = max(self._handed, seq)

    def take_dropped(self) -> int:
        """How many events were dropped to make room since the last time this was asked."""
        with self._lock:
            dropped, self._dropped = self._dropped, 0
            return dropped

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
        with self._lock:
            try:
                self._waiting.remove(message)
                self._bytes -= message.size
            except ValueError:
                return  # dropped to make room while it was on its way
            self._forget(message)

    def _forget(self, message: Message) -> None:
        if message.path is None:
            return
        try:
            message.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:  # a read-only or failing disk: the file stays; sent again later
            if not self._unlink_said:
                self._unlink_said = True
                log.warning("the outbox cannot delete what the broker has taken: %s; those "
                            "messages will be sent again after a restart (a repeat, never a "
                            "gap)", disk_advice(exc, message.path))

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
