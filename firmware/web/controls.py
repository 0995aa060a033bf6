"""The page's controls: a session for whoever knows the table PIN, and commands to the table.

Only the people at the table run it: the table PIN (``obelisk pin``, or the
rings while the menu button is held) gives a phone a session. The session is
a cookie the page's scripts never see (HttpOnly, SameSite=Strict), and the
answer also carries a token the page sends with every command in a header.
A post from another site has neither (a browser sends no SameSite=Strict
cookie with it, and another site cannot read the token or set the header
without this server's consent, which it never gives), so it is refused.
Guests (no session) watch only: every command is a 403 in words.

Wrong PINs are slowed down: each client address waits longer after each
wrong PIN (1 s, 2 s, 4 s... up to 5 minutes), and after ``GLOBAL_MAX``
wrong PINs a minute from anywhere, everyone waits; a try too soon is a 429
that says how long. Four digits take days to guess at that pace.

| path | answer |
|---|---|
| ``POST /session`` | ``{"pin": "1234"}``: the cookie and ``{"token": ...}``; 403, 429 wait |
| ``GET /session`` | ``{"session": true, "token": ...}`` for a phone with a session, else false |
| ``DELETE /session`` | the session ends (with its token) |
| ``POST /control/<command>`` | the command (``status``, ``pause``...) to the table's socket |
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import tornado.ioloop
import tornado.web

from firmware.control import COMMANDS, ControlUnavailable, send
from firmware.pin import PinError, read_pin

COOKIE = "obelisk_session"
HEADER = "X-Obelisk-Token"
SESSION_S = 12 * 3600.0
"""A session unused this long ends (the phone enters the PIN again)."""
MAX_SESSIONS = 64
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 300.0
GLOBAL_WINDOW_S = 60.0
GLOBAL_MAX = 20
"""Wrong PINs a minute, from every address together, before everyone waits."""
MAX_BODY = 4096
GUEST = ("guests watch only: enter the table PIN to run the table (`obelisk pin` shows it, "
         "and so do the rings while the menu button is held)")


@dataclass
class Session:
    token: str
    used: float


@dataclass
class PinGuard:
    """Wrong PINs, per client address and in all, and how long each must wait."""

    clock: Callable[[], float] = time.monotonic
    misses: dict[str, tuple[int, float]] = field(default_factory=dict)  # address: (n, last)
    recent: deque = field(default_factory=deque)  # times of wrong PINs, from anywhere

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        now = self.clock()
        while self.recent and self.recent[0] <= now - GLOBAL_WINDOW_S:
            self.recent.popleft()
        waits = [0.0]
        if len(self.recent) >= GLOBAL_MAX:
            waits.append(self.recent[0] + GLOBAL_WINDOW_S - now)
        count, last = self.misses.get(address, (0, 0.0))
        if count:
            waits.append(last + min(FIRST_WAIT_S * 2 ** (count - 1), MAX_WAIT_S) - now)
        return max(waits)

    def missed(self, address: str) -> None:
        now = self.clock()
        count, _ = self.misses.get(address, (0, 0.0))
        self.misses[address] = (count + 1, now)
        self.recent.append(now)
        if len(self.misses) > 4096:  # forget the oldest addresses
            for old in sorted(self.misses, key=lambda a: self.misses[a][1])[:1024]:
                del self.misses[old]

    def passed(self, address: str) -> None:
        self.misses.pop(address, None)


@dataclass
class Controls:
    """The web process's sessions and PIN guard for the table on ``state_dir``."""

    state_dir: Path
    clock: Callable[[], float] = time.monotonic
    sessions: dict[str, Session] = field(default_factory=dict)  # cookie value: session
    guard: PinGuard = field(init=False)

    def __post_init__(self) -> None:
        self.guard = PinGuard(self.clock)

    def session(self, cookie: str | None) -> Session | None:
        """The live session of this cookie, if any (its use keeps it alive)."""
        if not cookie:
            return None
        found = self.sessions.get(cookie)
        now = self.clock()
        if found is None or now - found.used > SESSION_S:
            self.sessions.pop(cookie, None)
            return None
        found.used = now
        return found

    def open(self) -> tuple[str, Session]:
        """A new session: (its cookie value, the session with its token)."""
        if len(self.sessions) >= MAX_SESSIONS:
            oldest = min(self.sessions, key=lambda c: self.sessions[c].used)
            del self.sessions[oldest]
        cookie = secrets.token_urlsafe(32)
        made = Session(secrets.token_urlsafe(32), self.clock())
        self.sessions[cookie] = made
        return cookie, made


class _Json(tornado.web.RequestHandler):
    """JSON answers with the page's safe headers; every error in words."""

    def initialize(self, controls: Controls) -> None:
        self.controls = controls

    def set_default_headers(self) -> None:
        from firmware.web.server import HEADERS

        for name, value in HEADERS.items():
            self.set_header(name, value)
        self.set_header("Cache-Control", "no-store")

    def answer(self, status: int, data: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data) + "\n")

    def refuse(self, status: int, words: str) -> None:
        self.answer(status, {"ok": False, "error": words})

    def write_error(self, status_code: int, **kwargs: object) -> None:
        words = {405: "use POST to run the table", 413: "that request is too long"}.get(
            status_code, str(getattr(self, "_reason", "error")).lower())
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": False, "error": words}) + "\n")

    def body(self) -> dict | None:
        """The request's JSON object (None, answered with a 400, when it is not one)."""
        if len(self.request.body) > MAX_BODY:
            self.refuse(413, "that request is too long")
            return None
        if not self.request.body:
            return {}
        try:
            data = json.loads(self.request.body)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            self.refuse(400, "send a JSON object, like {\"pin\": \"1234\"}")
            return None
        return data

    def current(self) -> Session | None:
        return self.controls.session(self.get_cookie(COOKIE))


class SessionHandler(_Json):
    """``/session``: the PIN for a session, whether this phone has one, and its end."""

    def get(self) -> None:
        found = self.current()
        self.answer(200, {"session": found is not None,
                          **({"token": found.token} if found else {})})

    def post(self) -> None:
        data = self.body()
        if data is None:
            return
        address = self.request.remote_ip or "?"
        wait = self.controls.guard.wait(address)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            self.set_header("Retry-After", str(seconds))
            self.refuse(429, f"too many wrong PINs: wait {seconds} s before the next try")
            return
        try:
            pin = read_pin(self.controls.state_dir)
        except PinError as exc:
            self.refuse(503, str(exc))
            return
        if pin is None:
            self.refuse(503, "the table has no PIN yet: start the table (obelisk run) and it "
                        "makes one")
            return
        given = data.get("pin")
        if not isinstance(given, str) or not hmac.compare_digest(given.strip().encode(),
                                                                 pin.encode()):
            self.controls.guard.missed(address)
            self.refuse(403, "that is not the table's PIN: `obelisk pin` shows it, and so do "
                        "the rings while the menu button is held")
            return
        self.controls.guard.passed(address)
        cookie, made = self.controls.open()
        self.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", path="/")
        self.answer(200, {"ok": True, "session": True, "token": made.token})

    def delete(self) -> None:
        found = self.current()
        if found is None or not _token_ok(self, found):
            self.refuse(403, GUEST)
            return
        self.controls.sessions.pop(self.get_cookie(COOKIE) or "", None)
        self.clear_cookie(COOKIE, path="/")
        self.answer(200, {"ok": True, "session": False})


def _token_ok(handler: tornado.web.RequestHandler, session: Session) -> bool:
    given = handler.request.headers.get(HEADER, "")
    return hmac.compare_digest(given.encode(), session.token.encode())


def refusal(handler: tornado.web.RequestHandler, controls: Controls) -> str | None:
    """Why this request may not run the table (a guest, or no page token), else None.

    The one check for everything that changes the table from the page: the
    commands here and the simulated hands (``firmware.web.hands``).
    """
    found = controls.session(handler.get_cookie(COOKIE))
    if found is None:
        return GUEST
    if not _token_ok(handler, found):
        return "this request did not come from the table's page: reload the page and try again"
    return None


class Command(_Json):
    """``/control/<command>``: a command to the table, for a phone with a session only."""

    async def post(self, name: str) -> None:
        refused = refusal(self, self.controls)
        if refused:
            self.refuse(403, refused)
            return
        if name not in COMMANDS:
            self.refuse(404, f"{name[:40]!r} is not a command of the table (it takes "
                        f"{', '.join(COMMANDS)})")
            return
        data = self.body()
        if data is None:
            return
        command = {**{k: v for k, v in data.items() if k != "command"}, "command": name}
        loop = tornado.ioloop.IOLoop.current()
        try:
            got = await loop.run_in_executor(None, send, self.controls.state_dir, command)
        except ControlUnavailable as exc:
            self.refuse(503, f"{exc} (a demo takes no commands)")
            return
        self.answer(200 if got.get("ok") else 409, got)


def routes(state_dir: str | Path, controls: Controls | None = None) -> list:
    """The controls' handlers, for ``make_app`` (``controls``: sessions shared with others)."""
    shared = {"controls": controls or Controls(Path(state_dir))}
    return [(r"/session", SessionHandler, shared),
            (r"/control/([a-z]{1,20})", Command, shared)]
