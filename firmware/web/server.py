"""The page on the players' phones: the table's events as Server-Sent Events.

``obelisk web`` runs in a process of its own (with network, without
devices); the table service keeps no network at all. For every browser
that opens ``/events`` it connects to the table's event stream
(``firmware.stream``): the whole state first, then every event. Each event
goes out as it came, with two fields added so the page needs no rules of
its own: ``words`` (the event in a line, as the terminal view says it) and
``board`` (the board as text, from the public observation).
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
from pathlib import Path

import tornado.iostream
import tornado.web

from firmware.games import GAMES, load
from firmware.screen import headline
from firmware.stream import SOCKET, StreamError

log = logging.getLogger("obelisk.web")
STATIC = Path(__file__).parent / "static"
RETRY_MS = 2000
"""How soon a page's browser tries again when the table is not there."""


def dressed(event: dict, draw) -> dict:
    """The event with what the page shows of it: a line of words, the board as text."""
    out = {**event, "words": headline(event)}
    if draw is not None and isinstance(event.get("observation"), dict):
        # an observation this drawing does not know: the words still go
        with contextlib.suppress(KeyError, TypeError, ValueError):
            out["board"] = draw(event["observation"])
    return out


HEADERS = {
    "Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Every answer: only our own scripts and styles, never framed by another site."""


class _Safe:
    def set_default_headers(self) -> None:
        for name, value in HEADERS.items():
            self.set_header(name, value)


class Static(_Safe, tornado.web.StaticFileHandler):
    """The page's own files only (tornado refuses any path out of the folder)."""


class Events(_Safe, tornado.web.RequestHandler):
    """``/events``: the table's stream as Server-Sent Events, one browser each."""

    def initialize(self, state_dir: Path) -> None:
        self.state_dir = state_dir

    async def get(self) -> None:
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-cache")
        self.write(f"retry: {RETRY_MS}\n\n")
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        table = tornado.iostream.IOStream(conn)
        try:
            await table.connect(str(self.state_dir / SOCKET))
        except OSError:
            table.close()
            self._send({"event": "absent", "words": f"no table is running on {self.state_dir}: "
                        "start `obelisk run` or a demo there; this page waits for it"})
            await self.flush()
            return
        draw = None
        try:
            while True:
                line = await table.read_until(b"\n", max_bytes=1 << 20)
                event = json.loads(line)
                if draw is None or event.get("event") == "table":
                    spec = GAMES.get(event.get("game", ""))
                    draw = load(spec.screen) if spec else None
                self._send(dressed(event, draw))
                await self.flush()
        except (tornado.iostream.StreamClosedError, ValueError):
            pass  # the table stopped, or the browser went: the browser tries again
        finally:
            table.close()

    def _send(self, event: dict) -> None:
        self.write(f"event: {event['event']}\ndata: {json.dumps(event)}\n\n")


def make_app(state_dir: str | Path) -> tornado.web.Application:
    """The page's application for the table on ``state_dir``."""
    return tornado.web.Application([
        (r"/events", Events, {"state_dir": Path(state_dir)}),
        (r"/()", Static, {"path": str(STATIC), "default_filename": "index.html"}),
        (r"/static/(.*)", Static, {"path": str(STATIC)}),
    ])


def serve(state_dir: str | Path, address: str, port: int) -> int:
    """Serve the page until stopped; prints the address to open."""
    import asyncio

    import tornado.httpserver
    import tornado.netutil

    try:
        sockets = tornado.netutil.bind_sockets(port, address or None)
    except OSError as exc:
        raise WebError(f"cannot listen on {address}:{port}: {exc.strerror}; choose "
                       "another with --port") from None
    bound = sockets[0].getsockname()[1]

    async def main() -> None:
        server = tornado.httpserver.HTTPServer(make_app(state_dir))
        server.add_sockets(sockets)
        shown = address if address not in ("", "0.0.0.0") else _lan_address()
        print(f"obelisk web: open http://{shown}:{bound}/ on a phone or laptop on this "
              f"network (the table on {state_dir})", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())
    return 0


def _lan_address() -> str:
    """This machine's address on its network (the route out; no packet is sent), else its
    name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing goes there
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


class WebError(StreamError):
    """The page cannot be served (the port is taken, say)."""
