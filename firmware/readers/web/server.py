"""The page on the players' phones: the table's events as Server-Sent Events, and its history.

``obelisk web`` runs in a process of its own (with network, without
devices); the table service keeps no network at all. One reader
(``follow.Follower``) follows the table's event stream for every page; each
event goes out as it came, with two fields added: ``words`` (the event in a
line, as the terminal view says it) and ``board`` (the board as text). The
page draws the table from the events alone.

| path | answer |
|---|---|
| ``/`` , ``/static/...`` | the page: HTML, CSS, JavaScript modules |
| ``/events`` | Server-Sent Events: what a late page needs, ``live``, then each event |
| ``/games`` | the finished games (JSON), newest first |
| ``/games/<id>.json``, ``.txt`` | a game's record as ``obelisk export`` writes it (a download) |
| ``/games/<id>/replay`` | the public observation after each action, with its words (JSON) |
| ``/session``, ``/control/<command>`` | the controls, for phones that know the table PIN |

Everything else is read-only (``controls.py`` beside this runs the table, for the people at
it only); anything else is a 4xx in words. Every answer carries the same safety headers
(``safe.py``), and the server keeps within bounds (``bounds.py``): connections, headers,
bodies and idle time are limited, so idle guests cannot take it down.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import tornado.ioloop
import tornado.iostream
import tornado.web

from firmware.readers.web import controls, hands, records
from firmware.readers.web.bounds import RESERVE_FDS, BoundedServer, Limits, raise_file_limit
from firmware.readers.web.follow import Follower, Page, dressed, message
from firmware.readers.web.places import GAVE_WAY, Places
from firmware.readers.web.safe import HEADERS, Safe, quiet_logs
from firmware.service.stream import StreamError

__all__ = ["HEADERS", "Limits", "WebError", "dressed", "make_app", "serve"]

log = logging.getLogger("obelisk.web")
T = TypeVar("T")
STATIC = Path(__file__).parent / "static"
RETRY_MS = 2000
"""How soon a page's browser tries again when it lost this server."""
KEEPALIVE_S = 15.0
"""A comment line this often keeps an idle page's connection open through phones' networks."""

TOO_MANY_PAGES = ("too many pages are open on this table right now: this one tries again "
                  "in a moment")



class Static(Safe, tornado.web.StaticFileHandler):
    """The page's own files only (tornado refuses any path out of the folder)."""

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")  # a new version shows at once (ETag)


class NotFound(Safe, tornado.web.RequestHandler):
    """Any other path: a 404 in words."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404)


class TableEvents(Safe, tornado.web.RequestHandler):
    """``/events``: the table's stream as Server-Sent Events, one page each, in a place
    shared fairly (``places.py``: a page signed in with the PIN always gets one)."""

    def initialize(self, follower: Follower, places: Places,
                   controls: controls.Sessions | None = None) -> None:
        self.follower, self.places, self.controls = follower, places, controls
        self.page: Page | None = None
        self.gave_way = False

    async def get(self) -> None:
        signed_in = self.controls is not None and \
            self.controls.session(controls.session_cookie(self)) is not None
        place, gave = self.places.take(self.request.remote_ip or "?", signed_in, self)
        if place is None:
            self.set_status(503)
            self.set_header("Retry-After", str(RETRY_MS // 1000))
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(f"503: {TOO_MANY_PAGES}\n")
            return
        if gave is not None:
            gave.item.give_way()
        try:
            await self._follow()
        finally:
            self.places.leave(place)

    async def _follow(self) -> None:
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-cache")
        self.write(f"retry: {RETRY_MS}\n\n")
        await self.follower.known()
        self.page = page = self.follower.join()
        if self.gave_way:  # (it gave way while the table was first asked)
            self.give_way()
        try:
            while not page.closed:
                self.write("".join(await page.take(KEEPALIVE_S)) or ":\n\n")
                await self.flush()
            if self.gave_way:  # the last words, then the stream ends (its browser retries)
                self.write("".join(page.queue))
                await self.flush()
        except tornado.iostream.StreamClosedError:
            pass  # the browser went
        finally:
            self.follower.leave(page)

    def give_way(self) -> None:
        """Another page takes this one's place: say so on it, and end its stream."""
        self.gave_way = True
        if self.page is not None and not self.page.closed:
            self.page.queue.clear()
            self.page.put(message({"event": "absent", "words": GAVE_WAY}))
            self.page.close()

    def on_connection_close(self) -> None:
        if self.page is not None:
            self.page.close()


class _Games(Safe, tornado.web.RequestHandler):
    """The history's answers, worked out off the event loop (the pages stay live)."""

    def initialize(self, state_dir: Path) -> None:
        self.state_dir = state_dir

    async def answer(self, work: Callable[[], T]) -> T | None:
        """``work`` done off the loop; None: it was refused, and the refusal answered."""
        loop = tornado.ioloop.IOLoop.current()
        try:
            return await loop.run_in_executor(None, work)
        except records.NotServed as exc:
            self.set_status(exc.status)
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": exc.words}) + "\n")
            return None

    def json(self, data: object) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-cache")
        self.finish(json.dumps(data) + "\n")


class GameList(_Games):
    """``/games``: the finished games, newest first."""

    async def get(self) -> None:
        found = await self.answer(lambda: records.listing(self.state_dir))
        if found is not None:
            self.json(found)


class GameRecord(_Games):
    """``/games/<id>.json`` and ``.txt``: the record, as a download."""

    async def get(self, game_id: str, form: str) -> None:
        got = await self.answer(lambda: records.download(self.state_dir, game_id, form))
        if got is None:
            return
        name, text = got
        kind = "application/json" if form == "json" else "text/plain; charset=utf-8"
        self.set_header("Content-Type", kind)
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.finish(text)


class GameReplay(_Games):
    """``/games/<id>/replay``: each position of the game, for the page to step through."""

    async def get(self, game_id: str) -> None:
        found = await self.answer(lambda: records.replay_steps(self.state_dir, game_id))
        if found is not None:
            self.json(found)


class NoIcon(Safe, tornado.web.RequestHandler):
    """Browsers ask for an icon on every page open: say there is none, quietly."""

    def get(self) -> None:
        self.set_status(204)


def make_app(state_dir: str | Path, limits: Limits | None = None) -> tornado.web.Application:
    """The page's application for the table on ``state_dir`` (``limits``: how many live pages
    it serves at once)."""
    state_dir = Path(state_dir)
    most = limits.page_cap() if limits is not None else None
    games = {"state_dir": state_dir}
    follower = Follower(state_dir)
    sessions = controls.Sessions(state_dir)  # one PIN's sessions, for controls and hands
    live = {"follower": follower, "places": Places(most), "controls": sessions}
    return tornado.web.Application([
        (r"/events", TableEvents, live),
        (r"/games/?", GameList, games),
        (r"/games/([^/]*)\.(json|txt)", GameRecord, games),
        (r"/games/([^/]*)/replay", GameReplay, games),
        (r"/favicon.ico", NoIcon),
        *controls.routes(state_dir, sessions),  # the PIN's sessions and the table's commands
        *hands.routes(state_dir, sessions),  # the simulated table's hands (play)
        (r"/()", Static, {"path": str(STATIC), "default_filename": "index.html"}),
        (r"/static/(.*)", Static, {"path": str(STATIC)}),
    ], default_handler_class=NotFound, follower=follower)


def serve(state_dir: str | Path, address: str, port: int, limits: Limits | None = None) -> int:
    """Serve the page until stopped, within ``limits``; prints the address to open."""
    import asyncio

    import tornado.netutil

    limits = limits or Limits()
    quiet_logs()
    raise_file_limit(limits.connections + RESERVE_FDS)

    try:
        sockets = tornado.netutil.bind_sockets(port, address or None)
    except OSError as exc:
        raise WebError(listen_words(address, port, exc)) from None
    bound = sockets[0].getsockname()[1]

    async def main() -> None:
        app = make_app(state_dir, limits)
        server = BoundedServer(app, limits)
        server.add_sockets(sockets)
        app.settings["follower"].start()  # follow the table from now, pages or not
        shown = address if address not in ("", "0.0.0.0") else lan_address()
        print(f"obelisk web: open http://{shown}:{bound}/ on a phone or laptop on this "
              f"network (the table on {state_dir})", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())
    return 0


def listen_words(address: str, port: int, exc: OSError) -> str:
    """Why the page cannot listen on ``address``:``port``, and the fix, in a person's words."""
    where = f"cannot listen on {address}:{port}"
    if isinstance(exc, socket.gaierror):
        return (f"{where}: {address} is neither an address nor a name this machine knows: "
                "give --address one of this machine's addresses (0.0.0.0: all of them)")
    if exc.errno == errno.EADDRINUSE:
        return f"{where}: another program listens there already: choose another with --port"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"{where}: this user may not listen on port {port} (ports below 1024 need "
                "privileges): choose one above 1023 with --port")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"{where}: {address} is not an address of this machine: give --address one "
                "of this machine's addresses (0.0.0.0: all of them)")
    return (f"{where}: the system refused it ({errno.errorcode.get(exc.errno or 0, 'no code')})"
            ": give --address one of this machine's addresses (0.0.0.0: all of them) and a "
            "free --port")


def lan_address() -> str:
    """This machine's address on its network (the route out; no packet is sent), else its
    name: where a phone on the same network opens the page (``obelisk club`` says its own
    page's address so too)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing goes there
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


class WebError(StreamError):
    """The page cannot be served (the port is taken, say)."""
