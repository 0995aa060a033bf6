"""``obelisk club``: every table of a club on one page, live, and their results.

The page reads the club's broker, not the tables: one MQTT subscription to
``obelisk/+/...`` for however many pages are open, and the same web stack
as the table's own page (tornado, Server-Sent Events, ``follow.Page`` for
each page's bounded queue). A page that opens gets every table and result
known so far, then each change as it comes:

| SSE event | data |
|---|---|
| ``table`` | one table: its name, ``status`` (online/offline) and retained ``state`` |
| ``event`` | one table event (as ``obelisk mqtt`` published it, repeats dropped) |
| ``result`` | a finished game: table, id, game, when, result words, its downloads |

| path | answer |
|---|---|
| ``/`` , ``/static/...`` | the page |
| ``/events`` | the Server-Sent Events above |
| ``/results`` | the results so far (JSON), newest first |
| ``/results/<table>/<id>.json``, ``.txt`` | a game's record, as ``obelisk export`` writes it |
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import tornado.iostream
import tornado.web
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from engine.core import counted
from firmware.readers.club.config import (
    PREFIX,
    TABLE_NAME,
    Broker,
    ClubError,
    check_ca_file,
    read_password,
)
from firmware.readers.club.safe import CleanFormatter, clean, clean_all
from firmware.readers.club.trouble import os_words, refused_words, text_words
from firmware.readers.web.follow import Page, message
from firmware.readers.web.safe import Safe
from firmware.readers.web.server import KEEPALIVE_S, RETRY_MS, NoIcon, NotFound, Static
from firmware.sent_json import read_sent

log = logging.getLogger("obelisk.club")
STATIC = Path(__file__).parent / "static"
GAME_ID_PATTERN = r"[0-9a-f]{8}|[a-z0-9][a-z0-9_-]{0,39}-[0-9a-f]{32}"
GAME_ID = re.compile(GAME_ID_PATTERN)
"""A published game's id: the table's name and 128 random bits, or (published before
issue 30) the 8 hex digits the table itself lists."""
STATUS = ("online", "offline")
MAX_RESULTS = 2000
"""Results kept for the page (the broker keeps them all, retained)."""
RESYNC_S = (2.0, 30.0)
"""After the broker dropped messages for this page: ask again for the retained ones once it
has been quiet this long (the first), and at the latest this long after the first gap."""


class Club:
    """What the page knows of the club: each table, and the results; fed from MQTT."""

    def __init__(self) -> None:
        self.tables: dict[str, dict] = {}
        self.results: dict[tuple[str, str], dict] = {}
        self.matches: dict[str, tuple[str, str]] = {}
        """Each remote match's game (the key both tables' results share) -> the result
        listed for it (the first table's to publish it)."""
        self.pages: set[Page] = set()
        self._counts: dict[tuple[str, str], int] = {}  # (table, session) -> last n shown
        self.gaps = 0  # events the broker never delivered here (it drops past its queue)
        self.on_gap: Callable[[], None] | None = None
        """Called (on the event loop) when a table's numbering skips: the broker dropped
        messages for this page, results and states among them, maybe."""

    def take(self, topic: str, payload: bytes) -> None:
        """One MQTT message (on the event loop)."""
        parts = topic.split("/")
        if len(parts) < 3 or parts[0] != PREFIX or not TABLE_NAME.fullmatch(parts[1]):
            return
        table, kind = parts[1], parts[2]
        try:
            text = payload.decode()
            data = read_sent(text) if kind != "status" else text
        except (UnicodeDecodeError, ValueError):
            return  # not one of ours
        if kind == "status" and len(parts) == 3:
            self._table(table, status=data if data in STATUS else "unknown")
        elif kind == "state" and len(parts) == 3 and isinstance(data, dict):
            self._table(table, state=clean_all(data))
        elif kind == "events" and len(parts) == 3 and isinstance(data, dict):
            self._event(table, data)
        elif (kind == "results" and len(parts) == 4 and GAME_ID.fullmatch(parts[3])
              and isinstance(data, dict)):
            self._result(table, parts[3], data)

    def _event(self, table: str, data: dict) -> None:
        """A table event for the pages, unless they were shown it already."""
        n = data.get("n")
        if isinstance(n, int) and not self._count(table, str(data.get("session")), n):
            return  # a repeat (at least once) or older
        self._send(message({"event": "event", "table": table, "data": clean_all(data)}))

    def _count(self, table: str, session: str, n: int) -> bool:
        """Note event ``n`` of a table's session; False when it is not newer than the last
        one. A skip in the numbering means the broker dropped events for this page."""
        key = (table, session)
        last = self._counts.get(key)
        if last is not None and n <= last:
            return False
        self._counts[key] = n
        if last is not None and n > last + 1:
            self.gaps += n - last - 1
            if self.on_gap is not None:
                self.on_gap()
        return True

    def _table(self, name: str, **change: object) -> None:
        known = self.tables.setdefault(name, {"table": name, "status": "unknown",
                                              "state": None})
        known.update(change)
        self._send(message({"event": "table", **known}))

    def _result(self, table: str, game_id: str, data: dict) -> None:
        key = (table, game_id)
        match = data.get("match") if isinstance(data.get("match"), dict) else None
        if match is not None:  # a remote match's game: both tables publish it, listed once
            first = self.matches.setdefault(str(match.get("key")), key)
            if first != key:
                return  # the other table's copy is listed already
        fresh = key not in self.results
        self.results[key] = data
        if len(self.results) > MAX_RESULTS:
            del self.results[next(iter(self.results))]
        if fresh:
            self._send(message({"event": "result", **summary(table, game_id, data)}))

    def listing(self) -> list[dict]:
        """The results, newest first."""
        return [summary(t, i, d) for (t, i), d in reversed(self.results.items())]

    def join(self) -> Page:
        page = Page()
        for known in sorted(self.tables.values(), key=lambda t: t["table"]):
            page.put(message({"event": "table", **known}))
        for (table, game_id), data in self.results.items():
            page.put(message({"event": "result", **summary(table, game_id, data)}))
        page.put(message({"event": "live"}))
        self.pages.add(page)
        return page

    def leave(self, page: Page) -> None:
        self.pages.discard(page)

    def _send(self, text: str) -> None:
        for page in list(self.pages):
            if not page.put(text):
                page.close()
                self.pages.discard(page)


def summary(table: str, game_id: str, data: dict) -> dict:
    """A result as the page lists it, with where to download it."""
    said, match = data.get("outcome"), data.get("match")
    outcome = said if isinstance(said, dict) else {}
    match = match if isinstance(match, dict) else None
    extra = {"match": clean(f"match {match.get('match')} ({table}, seat {match.get('seat')}, "
                            "and the other table)", 120)} if match else {}
    return {"table": table, "id": game_id, **extra,
            "table_game_id": clean(data.get("table_game_id", game_id), 40),
            "game": clean(data.get("game", "?"), 40),
            "when": clean(data.get("when", "-"), 40),
            "result": clean(outcome.get("words") or "finished"),
            "json": f"/results/{table}/{game_id}.json",
            "text": f"/results/{table}/{game_id}.txt"}


def subscribe(club: Club, broker: Broker, loop: asyncio.AbstractEventLoop,
              user: str | None = None, password: str | None = None,
              ca_file: str | None = None) -> mqtt.Client:
    """One MQTT client for the page, handing each message to the event loop."""
    from firmware.readers.club.connect import (
        CONNECT_S,
        Handshake,
        silent_words,
        trust_ca,
        unreachable_words,
    )

    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv311)
    client.connect_timeout = CONNECT_S
    client.reconnect_delay_set(1, 30)
    if user:
        client.username_pw_set(user, password)
    if broker.tls:
        trust_ca(client, ca_file, "--ca-file")
    say = _warn_when_new()
    handshake = Handshake(client, lambda: say(silent_words(broker, "--broker")
                                              + "; the page waits for it"))

    def connected(client, userdata, flags, reason, properties) -> None:
        handshake.over()
        if reason.is_failure:
            say(f"the broker {broker} refused the club's page ({refused_words(reason)}): if it "
                "asks for a user, give --user and --password-file of one it knows")
            return
        say(f"reading the tables on {broker}")
        for part in ("status", "state", "events", "results/+"):
            client.subscribe(f"{PREFIX}/+/{part}", qos=1)

    def failed(client, userdata) -> None:
        # paho calls this while it handles the failure, so the failure is the one in hand
        handshake.over()
        say(unreachable_words(sys.exc_info()[1], broker, ca_file, "--broker", "--ca-file")
            + "; the page waits for it")

    def received(client, userdata, msg) -> None:
        loop.call_soon_threadsafe(club.take, msg.topic, msg.payload)

    club.on_gap = _Resync(club, client, loop).gap
    client.on_connect = connected
    client.on_connect_fail = failed
    client.on_message = received
    client.connect_async(broker.host, broker.port, keepalive=30)
    client.loop_start()
    return client


def _warn_when_new() -> Callable[[str], None]:
    """A warning for the page's log, written only when its words differ from the last:
    paho tries an absent broker again and again, and each try would say the same."""
    said = {"last": ""}

    def say(words: str) -> None:
        if words != said["last"]:
            said["last"] = words
            log.warning("obelisk club: %s", words)

    return say


class _Resync:
    """After the broker dropped events for the page, asks it again for the states and
    results it retains: those may be among what was dropped. Each new gap puts the asking
    off a little, but never past RESYNC_S[1] from the first, or a broker that keeps
    dropping would put it off for ever."""

    def __init__(self, club: Club, client: mqtt.Client,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.club, self.client, self.loop = club, client, loop
        self.handle: asyncio.TimerHandle | None = None
        self.first = 0.0

    def gap(self) -> None:
        """On the event loop: ask again once quiet, never later than RESYNC_S[1]."""
        now = self.loop.time()
        if self.handle is None:
            self.first = now
        else:
            self.handle.cancel()
        when = min(now + RESYNC_S[0], self.first + RESYNC_S[1])
        self.handle = self.loop.call_at(when, self.again)

    def again(self) -> None:
        self.handle = None
        log.warning("obelisk club: the broker dropped %s for this page (it fell "
                    "behind, as a slow or busy machine does): the tables' states and the "
                    "results are asked for again, so none is missing; a broker that drops "
                    "often needs a larger max_queued_messages", counted(self.club.gaps, "event"))
        for part in ("state", "results/+"):
            # MQTT 3.1.1: the same subscription again replaces it, and the broker sends
            # what it retains for it again (no gap, as unsubscribing first would leave)
            self.client.subscribe(f"{PREFIX}/+/{part}", qos=1)


class ClubEvents(Safe, tornado.web.RequestHandler):
    """``/events``: the club as Server-Sent Events, one page each."""

    def initialize(self, club: Club) -> None:
        self.club = club
        self.page: Page | None = None

    async def get(self) -> None:
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-cache")
        self.write(f"retry: {RETRY_MS}\n\n")
        self.page = page = self.club.join()
        try:
            while not page.closed:
                self.write("".join(await page.take(KEEPALIVE_S)) or ":\n\n")
                await self.flush()
        except tornado.iostream.StreamClosedError:
            pass
        finally:
            self.club.leave(page)

    def on_connection_close(self) -> None:
        if self.page is not None:
            self.page.close()


class Results(Safe, tornado.web.RequestHandler):
    """``/results``: the results so far, newest first."""

    def initialize(self, club: Club) -> None:
        self.club = club

    def get(self) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-cache")
        self.finish(json.dumps({"results": self.club.listing()}) + "\n")


class Download(Safe, tornado.web.RequestHandler):
    """``/results/<table>/<id>.json`` and ``.txt``: a game's record, as a download."""

    def initialize(self, club: Club) -> None:
        self.club = club

    def get(self, table: str, game_id: str, form: str) -> None:
        data = self.club.results.get((table, game_id.lower()))
        if data is None:
            self.set_status(404)
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": f"no result {game_id[:40]!r} of table "
                                    f"{table[:40]!r}: the list (/results) has them"}) + "\n")
            return
        if form == "json":
            text, kind = json.dumps(data.get("record")) + "\n", "application/json"
        else:
            text, kind = str(data.get("text", "")), "text/plain; charset=utf-8"
        game = re.sub(r"[^a-z0-9_-]", "", str(data.get("game", "")).lower())[:40] or "game"
        name = f"obelisk-{table}-{game}-{game_id.lower()}.{form}"
        self.set_header("Content-Type", kind)
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.finish(text)


def make_app(club: Club) -> tornado.web.Application:
    """The club page's application."""
    return tornado.web.Application([
        (r"/events", ClubEvents, {"club": club}),
        (r"/results/?", Results, {"club": club}),
        (rf"/results/([a-z0-9_-]+)/({GAME_ID_PATTERN}|[0-9A-F]{{8}})\.(json|txt)", Download,
         {"club": club}),
        (r"/favicon.ico", NoIcon),
        (r"/()", Static, {"path": str(STATIC), "default_filename": "club.html"}),
        (r"/static/(.*)", Static, {"path": str(STATIC)}),
    ], default_handler_class=NotFound)


def serve(broker: Broker, address: str, port: int, user: str | None = None,
          password_file: str | None = None, ca_file: str | None = None) -> int:
    """Serve the club's page until stopped; prints the address to open."""
    import tornado.httpserver
    import tornado.netutil

    from firmware.readers.web.server import lan_address

    handler = logging.StreamHandler()
    handler.setFormatter(CleanFormatter("%(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("tornado.access").setLevel(logging.WARNING)
    password = None
    if password_file is not None:
        password = read_password(password_file, f"--password-file {password_file}",
                                 "give the file holding the password")
    if ca_file is not None and not broker.tls:
        raise ClubError("--ca-file is for mqtts:// brokers: use mqtts:// or leave it out")
    if ca_file is not None:
        check_ca_file(ca_file, f"--ca-file {ca_file}")
    if password is not None and not user:
        raise ClubError("--password-file needs --user: the name the broker knows the page by")
    try:
        (user or "").encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ClubError(f"--user: {text_words(exc)}") from None
    try:
        sockets = tornado.netutil.bind_sockets(port, address or None)
    except OSError as exc:
        fix = ("choose another with --port" if exc.errno == errno.EADDRINUSE else
               "give --address one of this machine's addresses (0.0.0.0: all of them)")
        raise ClubError(f"cannot listen on {address}:{port}: {os_words(exc)}; {fix}") \
            from None
    bound = sockets[0].getsockname()[1]

    async def main() -> None:
        club = Club()
        server = tornado.httpserver.HTTPServer(make_app(club))
        server.add_sockets(sockets)
        client = subscribe(club, broker, asyncio.get_running_loop(), user, password, ca_file)
        shown = address if address not in ("", "0.0.0.0") else lan_address()
        print(f"obelisk club: open http://{shown}:{bound}/ (every table on {broker})",
              flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            client.loop_stop()

    asyncio.run(main())
    return 0
