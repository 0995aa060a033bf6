"""One reader of the table's stream for every open page, and what a late page needs.

The web process keeps a single connection to the table's event stream
(``firmware.service.stream``) however many pages are open, so more phones never
mean more work for the table. It keeps the events since the whole state it
was last given (the ``table`` event that opens every connection), trimmed at
each new game's ``start``; a page that opens later gets those first, then
the live events, so it shows what a page open from the start shows: the
last action highlighted, the maze's route, a refusal's marks, the reveals.

A running hourglass in that backlog is sent with the seconds it has left
now, so a late page drains it in step with the ring. Each page has a
bounded queue of its own; one that falls too far behind is closed and its
browser reconnects (``retry:``) into a fresh backlog. When the table stops,
the pages are told (an ``absent`` event) and the reader waits for it to
come back; the new ``table`` event then redraws every page. That event carries which
table it is (``table_key``), so that a page moved to another table on the same address
starts afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import json
import logging
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from time import monotonic
from typing import Any

import tornado.iostream

from firmware.games import GAMES
from firmware.readers.terminal.screen import headline, seat_names
from firmware.service.stream import SOCKET

log = logging.getLogger("obelisk.web")

RECONNECT_S = 0.05
"""How often the reader looks for a table that is not there (a connect attempt is cheap)."""
MAX_LINE = 1 << 20
PAGE_BACKLOG = 2000
"""Messages a page may fall behind before it is closed (its browser reconnects)."""
KEEP_MAX = 5000
"""Events kept for late pages; past this the reader starts afresh from a new whole state."""
RUNNING = {"started", "resumed"}
STOPPED = "the table has stopped; this page follows it again as soon as it starts"


def dressed(event: dict, draw, names: dict[str, str] | None = None) -> dict:
    """The event with what the page shows of it: a line of words (each seat by its name in
    ``names``), the board as text, and for an event naming its game the page module that
    draws it."""
    try:
        words = headline(event, names)
    except (KeyError, TypeError, ValueError, AttributeError):
        words = event.get("event", "?")  # an event this headline does not know
    out = {**event, "words": words}
    game = GAMES.get(event["game"]) if isinstance(event.get("game"), str) else None
    if game is not None:  # the module the game's declaration names to draw it on the page
        out["page"] = game.page
    if draw is not None and isinstance(event.get("observation"), dict):
        # an observation this drawing does not know: the words still go
        with contextlib.suppress(KeyError, TypeError, ValueError, IndexError, AttributeError):
            out["board"] = draw(event["observation"])
    return out


def message(event: dict) -> str:
    """One Server-Sent Event: its kind, then the event as JSON."""
    return f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"


LIVE = message({"event": "live"})
"""Sent to a page after its backlog: from here on, events happen now."""


@dataclass
class KeptEvent:
    """An event kept for late pages: when it came, and as it was sent (dressed, and as
    text)."""

    at: float
    event: dict
    text: str


class Page:
    """One open page's queue of messages, filled by the reader, emptied by its request."""

    def __init__(self) -> None:
        self.queue: deque[str] = deque()
        self.ready = asyncio.Event()
        self.closed = False

    def put(self, text: str) -> bool:
        """Queue a message; False when the page is too far behind (it is then closed)."""
        if len(self.queue) >= PAGE_BACKLOG:
            return False
        self.queue.append(text)
        self.ready.set()
        return True

    def close(self) -> None:
        self.closed = True
        self.ready.set()

    async def take(self, wait: float) -> list[str]:
        """Everything queued, waiting up to ``wait`` seconds for something (else [])."""
        if not self.queue and not self.closed:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.ready.wait(), wait)
        self.ready.clear()
        taken = list(self.queue)
        self.queue.clear()
        return taken


class Follower:
    """The web process's one reader of the table on ``state_dir``, shared by every page."""

    def __init__(self, state_dir: str | Path) -> None:
        self.state_dir = Path(state_dir)
        # which table this is, for a page that moves from one to another on the same address
        # (it starts afresh): its state directory, as a digest that keeps the path here
        self.key = hashlib.sha256(str(self.state_dir.resolve()).encode()).hexdigest()[:16]
        self.pages: set[Page] = set()
        self.kept: list[KeptEvent] = []
        self.absent: str | None = None  # the ``absent`` message while no table answers
        self.seen_table = False
        self._heard = False  # the stream now followed has told something
        self._draw: Callable[[Any], str] | None = None  # the board in text, of the game named
        self._names: dict[str, str] = {}  # the seats' names, of the game last named
        self._task: asyncio.Task | None = None
        self._known: asyncio.Event | None = None  # set once the table answered, or did not
        self.listeners: list[Callable[[dict], None]] = []
        """Called on the event loop with each event as pages get it (``obelisk mqtt``)."""

    def start(self) -> None:
        """Follow the table from now on (on the running event loop; once)."""
        if self._task is None:
            self._known = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._follow())

    async def known(self, wait: float = 2.0) -> None:
        """Until the first look at the table is over (its whole state, or that it is not
        there), so a page opened at once gets the same as one opened a moment later."""
        self.start()
        assert self._known is not None
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._known.wait(), wait)

    def join(self) -> Page:
        """A new page: the kept events (running hourglasses brought up to now), whether the
        table answers, then the live ones as they come."""
        page = Page()
        now = monotonic()
        latest: dict[str, KeptEvent] = {}
        for kept in self.kept:
            if kept.event["event"] == "timer":
                latest[kept.event["player"]] = kept
        for kept in self.kept:
            text = kept.text
            if kept in latest.values() and kept.event["state"] in RUNNING:
                left = max(0.0, float(kept.event["left"]) - (now - kept.at))
                text = message({**kept.event, "left": round(left, 3)})
            page.put(text)
        if self.absent is not None:
            page.put(self.absent)
        page.put(LIVE)
        self.pages.add(page)
        return page

    def leave(self, page: Page) -> None:
        self.pages.discard(page)

    def _send(self, text: str) -> None:
        for page in list(self.pages):
            if not page.put(text):
                log.info("a page fell too far behind and was closed; its browser reconnects")
                page.close()
                self.pages.discard(page)

    def _tell(self, event: dict) -> None:
        for listen in self.listeners:
            listen(event)

    # ---------------------------------------------------------------- following

    async def _follow(self) -> None:
        while True:
            stream, why = await self._connect()
            if stream is None:
                self._say_absent(why)
                await asyncio.sleep(RECONNECT_S)
                continue
            self.absent = None
            self._heard = False
            try:
                await self._read(stream)
                continue  # too much kept: start afresh from a new whole state, at once
            except (tornado.iostream.StreamClosedError, tornado.iostream.UnsatisfiableReadError):
                pass
            finally:
                stream.close()
            if self._heard:
                self._say_absent(STOPPED)
            else:  # closed before a word (a table starting or stopping): no news, try again
                await asyncio.sleep(RECONNECT_S)

    async def _connect(self) -> tuple[tornado.iostream.IOStream | None, str]:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        stream = tornado.iostream.IOStream(conn)
        try:
            await stream.connect(str(self.state_dir / SOCKET))
            return stream, ""
        except (OSError, tornado.iostream.StreamClosedError) as exc:
            stream.close()
            return None, self._why_not(exc)

    def _why_not(self, exc: BaseException) -> str:
        where = self.state_dir
        code = getattr(exc, "errno", None) or getattr(getattr(exc, "real_error", None),
                                                      "errno", None)
        if where.exists() and not where.is_dir():
            return (f"{where} is a file, not a state directory: start obelisk web with the "
                    "table's state directory (a demo prints its own)")
        if not where.is_dir():
            return (f"no table is running on {where} (there is no such directory yet): start "
                    "one there (obelisk play, obelisk run or a demo); this page waits for it")
        if code in (errno.EACCES, errno.EPERM):
            return (f"this page may not read the table's events in {where}: run `obelisk web` "
                    "as the table's user or a member of its group")
        if self.seen_table:
            return STOPPED
        return (f"no table is running on {where} yet, or it is starting again: start one "
                "there (`obelisk play`, `obelisk run` or a demo); this page waits for it")

    def _say_absent(self, words: str) -> None:
        text = message({"event": "absent", "words": words})
        if text != self.absent:
            self.absent = text
            self._send(text)
            self._tell({"event": "absent", "words": words})
        if self._known is not None:
            self._known.set()

    async def _read(self, stream: tornado.iostream.IOStream) -> None:
        """Take the table's events until it stops (StreamClosedError) or too many are kept."""
        while len(self.kept) < KEEP_MAX:
            line = await stream.read_until(b"\n", max_bytes=MAX_LINE)
            try:
                event = json.loads(line)
            except ValueError:
                continue  # half a line as the table stopped
            if isinstance(event, dict) and isinstance(event.get("event"), str):
                self._heard = True
                self._take(event)

    def _figures(self) -> list[KeptEvent]:
        return [k for k in self.kept[1:] if k.event["event"] == "scanner"][-1:]

    def _take(self, event: dict) -> None:
        kind = event["event"]
        if kind == "table" or self._draw is None:
            spec = GAMES.get(str(event.get("game", "")))
            with contextlib.suppress(ImportError, AttributeError):
                self._draw = spec.draw() if spec else None
        if kind in ("table", "start"):
            self._names = seat_names(event.get("game"))
        shown = dressed(event, self._draw, self._names)
        text = message({**shown, "table_key": self.key} if kind == "table" else shown)
        kept = KeptEvent(monotonic(), shown, text)
        if kind == "table":
            self.seen_table = True
            self.kept = [kept]
        elif kind == "start":
            # a new game: what came before it no longer shows (the table event stays first,
            # and so do the board's own figures, which belong to no game)
            self.kept = [*self.kept[:1], *self._figures(), kept]
        elif kind == "scanner":  # only the latest figures are worth a late page's time
            self.kept = [k for k in self.kept if k.event["event"] != "scanner"] + [kept]
        else:
            self.kept.append(kept)
        self._send(text)
        self._tell(shown)
        if self._known is not None:
            self._known.set()
