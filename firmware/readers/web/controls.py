"""The page's controls: a session for whoever knows the table PIN, and commands to the table.

Only the people at the table run it: the table PIN (``obelisk pin``, or the
rings while the menu button is held) gives a phone a session. The session is
a cookie the page's scripts never see (HttpOnly, SameSite=Strict), and the
answer also carries a token the page sends with every command in a header.
A post from another site has neither (a browser sends no SameSite=Strict
cookie with it, and another site cannot read the token or set the header
without this server's consent, which it never gives), so it is refused.
Guests (no session) watch only: every command is a 403 in words.

A session lasts ``SESSION_S`` from the moment the PIN was entered (using it
does not make it longer), and only while the PIN is of the generation it was
made with: ``obelisk pin --new`` ends every session at once. Its age is told by
``clocks.Clocks``: the wall clock set back or forward changes nothing (after the
machine restarted with a wall clock behind the session's start, it ends). A phone
whose session ended is told so, in words, at its next command.

Wrong PINs are slowed down: each client address waits longer after each
wrong PIN (1 s, 2 s, 4 s... up to 5 minutes); a try too soon is a 429 that
says how long. After ``CLOSE_AFTER`` wrong PINs in all, from anywhere, PIN
entry closes (a 423 in words) until someone at the table holds the menu
button: the service counts the holds that show the PIN, and this process
sees that count change in the table's ``status`` (its ``pin_mark``). So a
guesser gets ``CLOSE_AFTER`` tries in 10,000 per hold, and phones that
already have a session keep running the table meanwhile. Every count is on
disk (``firmware/readers/web/wrong_pins.py``): restarting the page forgets none of them.
A body longer than any command needs is refused before it is read.

Every request that changes something (POST, DELETE) must be
``application/json``, name this server's own address as its Host (so a
page of another site rebinding its name to this table's address is
refused) and, when it carries an Origin, come from this server's own page:
a form of another site cannot even send a guess. One check does it for every
handler that takes a body (``firmware/readers/web/origin.py``).

With no PIN (none made yet, as in the moment of a first start, or its file
gone or unreadable) no one gets a session, so nothing here nor in the hands
acts for anyone, and ``/session`` says why in words, with what makes one.

| path | answer |
|---|---|
| ``POST /session`` | ``{"pin": "1234"}``: the cookie and ``{"token": ...}``; 403, 429 wait, \
423 entry closed |
| ``GET /session`` | ``{"session": true, "token": ...}`` for a phone with a session, else \
false (and ``"closed"``: the words, while PIN entry is closed) |
| ``DELETE /session`` | the session ends (with its token) |
| ``POST /control/<command>`` | the command (``status``, ``pause``...) to the table's socket |

Any of them at another Host is a 421; a POST or DELETE from another Origin a
403, one not ``application/json`` a 415.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import tornado.ioloop
import tornado.web
from tornado.http1connection import HTTP1Connection

from firmware.readers.web.clocks import Clocks, Stamp, boot_id, stamp_from
from firmware.readers.web.safe import MAX_BODY, JsonHandler
from firmware.readers.web.wrong_pins import (
    CLOSE_AFTER,
    FILE,
    FIRST_WAIT_S,
    MAX_WAIT_S,
    PinGuard,
    StateDirError,
    folder_words,
    why_unreadable,
)
from firmware.service.command_socket import ControlUnavailable, send
from firmware.service.commands import COMMANDS
from firmware.service.pin import PinError, TablePin, read_table_pin
from firmware.store.state_dir import write_whole
from hardware.files import read_limited

__all__ = [
    "CLOSE_AFTER",
    "FIRST_WAIT_S",
    "MAX_BODY",
    "MAX_WAIT_S",
    "PinGuard",
    "Sessions",
    "cookie_name",
    "routes",
    "session_cookie",
    "session_refusal",
]

COOKIE = "obelisk_session"
"""The start of the session cookie's name; the port it was set on ends it (``cookie_name``)."""
HEADER = "X-Obelisk-Token"
SESSION_S = 12 * 3600.0
"""A session ends this long after its PIN was entered, used or not."""
MAX_SESSIONS = 64
ASK_EVERY_S = 1.0
"""While PIN entry is closed, how often at most the table is asked whether it was opened."""
GUEST = ("guests watch only: enter the table PIN to run the table (`obelisk pin` shows it, "
         "and so do the rings while the menu button is held)")
CLOSED = ("PIN entry is closed after too many wrong PINs: hold the menu button at the table "
          "to open it again")
UNREADABLE_PIN = ("the table's PIN cannot be read, so the page takes none and only watches: "
                  "`obelisk pin --new` on the table's machine makes a new one and shows it")
ENDED = ("this phone's session has ended (each lasts 12 hours from its PIN, and a new PIN "
         "ends them all): enter the table PIN again to run the table")
NO_PIN_RUNNING = ("this table has no PIN yet, so the page takes none and only watches: the "
                  "table makes one as it starts (try again in a moment); if it still has none, "
                  "`obelisk pin` on the table's machine makes one and shows it")
NO_PIN_STOPPED = ("no table is running here, so there is no PIN yet and the page only "
                  "watches: start the table (`obelisk run` or `obelisk play`) and it makes "
                  "one; `obelisk pin` on its machine makes one and shows it")


SESSIONS_FILE = Path("web") / "sessions.json"
"""The phones signed in with the PIN, kept for a restart of the page's process."""
MAX_SESSIONS_BYTES = 256 * 1024
"""The largest sessions file (``MAX_SESSIONS`` of them take a few KiB)."""
log = logging.getLogger("obelisk.web")


def _hashed(cookie: str | None) -> str:
    return hashlib.sha256((cookie or "").encode()).hexdigest()


@dataclass
class Session:
    token: str
    made: Stamp  # when the PIN was entered (``clocks.Clocks.stamp``)
    generation: int = 0  # the PIN's generation it was made with


@dataclass
class Sessions:
    """The web process's sessions and PIN guard for the table on ``state_dir``."""

    state_dir: Path
    clock: Callable[[], float] = time.time  # the wall clock: the files outlive us
    steady: Callable[[], float] = time.monotonic  # what really passed (``clocks.py``)
    boot: str | None = None  # this boot of the machine (None: the system's id of it)
    sessions: dict[str, Session] = field(default_factory=dict)  # cookie value: session
    guard: PinGuard = field(init=False)
    asked_at: float | None = None  # when the table was last asked for its pin_mark (steady)
    clocks: Clocks = field(init=False)

    def __post_init__(self) -> None:
        self.clocks = Clocks(self.clock, self.steady, self.boot or boot_id())
        self.guard = PinGuard(self.clock, Path(self.state_dir) / FILE, self.steady,
                              self.clocks.boot)
        self._load()

    # A phone signed in stays signed in when the page's process starts again (obelisk play
    # restarts it with the table): the sessions are kept beside the wrong PINs' count, each
    # under a hash of its cookie, so the file itself signs no one in.

    def _path(self) -> Path:
        return Path(self.state_dir) / SESSIONS_FILE

    def _load(self) -> None:
        try:
            kept = json.loads(read_limited(self._path(), MAX_SESSIONS_BYTES))
            self.sessions = {str(key): Session(str(s["token"]), stamp_from(s["made"]),
                                               int(s["generation"]))
                             for key, s in kept.items()}
        except FileNotFoundError:
            self.sessions = {}  # none kept
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            self.sessions = {}  # a damaged file: no one is signed in
            why = why_unreadable(exc if isinstance(exc, OSError) else None, MAX_SESSIONS_BYTES)
            log.warning("%s cannot be read (%s): the phones signed in before must enter the "
                        "PIN again (the file is written afresh at the next sign-in)",
                        self._path(), why)

    def _save(self) -> None:
        data = {key: {"token": s.token, "made": s.made, "generation": s.generation}
                for key, s in self.sessions.items()}
        try:
            self._path().parent.mkdir(exist_ok=True)
            write_whole(self._path(), json.dumps(data).encode(), mode=0o600)
        except (StateDirError, OSError) as exc:  # a full disk: kept in memory only, said
            why = (f"{self._path()} is a folder, not a file: delete it" if self._path().is_dir()
                   else str(exc) if isinstance(exc, StateDirError)
                   else folder_words(self._path().parent, exc))
            log.warning("cannot keep the phones signed in for a restart of the page (%s): "
                        "they stay signed in until it restarts", why)

    def closed_words(self) -> str:
        """What a person is told while PIN entry is closed: too many wrong PINs, or a count
        of them that cannot be read."""
        return self.guard.unreadable or CLOSED

    def close(self, cookie: str | None) -> None:
        """Sign this cookie's session out."""
        if self.sessions.pop(_hashed(cookie), None) is not None:
            self._save()

    def pin(self) -> TablePin | None:
        """The table's PIN now (None: none, or it cannot be read; no session holds then)."""
        return self.pin_now()[0]

    def pin_now(self, running: bool = False) -> tuple[TablePin | None, str | None]:
        """The table's PIN now, or (None, why there is none, in words): with no PIN nothing
        a guest can reach acts or shows more than the public page (``running``: whether the
        table is there, for the words)."""
        try:
            pin = read_table_pin(self.state_dir)
        except PinError as exc:  # the file and the system's words: for the log
            log.warning("%s", exc)
            return None, UNREADABLE_PIN
        if pin is None:
            return None, NO_PIN_RUNNING if running else NO_PIN_STOPPED
        return pin, None

    def session(self, cookie: str | None) -> Session | None:
        """The live session of this cookie, if any: made less than ``SESSION_S`` ago, with
        the PIN of today's generation."""
        if not cookie:
            return None
        found = self.sessions.get(_hashed(cookie))
        if found is None:
            return None
        pin = self.pin()
        age = self.clocks.age(found.made)
        if age is None or age > SESSION_S or pin is None or \
                pin.generation != found.generation:
            self.close(cookie)
            return None
        return found

    def open(self, generation: int = 0) -> tuple[str, Session]:
        """A new session: (its cookie value, the session with its token)."""
        if len(self.sessions) >= MAX_SESSIONS:
            oldest = max(self.sessions, key=lambda c: self.clocks.age(self.sessions[c].made)
                         or SESSION_S)
            del self.sessions[oldest]
        cookie = secrets.token_urlsafe(32)
        made = Session(secrets.token_urlsafe(32), self.clocks.stamp(), generation)
        self.sessions[_hashed(cookie)] = made
        self._save()
        return cookie, made

    async def pin_mark(self) -> str | None:
        """The table's count of holds that showed its PIN (None: the table did not say)."""
        self.asked_at = self.steady()
        loop = tornado.ioloop.IOLoop.current()
        try:
            got = await loop.run_in_executor(None, send, self.state_dir, {"command": "status"})
        except ControlUnavailable:
            return None
        mark = got.get("pin_mark") if got.get("ok") else None
        return mark if isinstance(mark, str) and mark else None

    async def close_entry(self) -> None:
        """PIN entry just closed: remember the table's mark, to see the next hold (a mark that
        cannot be saved now is saved before the next PIN is taken: ``PinGuard.flush``)."""
        mark = await self.pin_mark()
        with contextlib.suppress(StateDirError):
            self.guard.close_at(mark)

    async def entry_open(self) -> bool:
        """Whether PIN entry is open; closed, whether someone at the table opened it again
        (asked of the table at most every ``ASK_EVERY_S``)."""
        if not self.guard.closed:
            return True
        if self.asked_at is not None and 0 <= self.steady() - self.asked_at < ASK_EVERY_S:
            return False
        mark = await self.pin_mark()
        if mark is None or not self.guard.closed:
            return not self.guard.closed
        if self.guard.closed_mark is None:  # the table did not say when entry closed: now
            with contextlib.suppress(StateDirError):
                self.guard.close_at(mark)
            return False
        if mark == self.guard.closed_mark:
            return False
        with contextlib.suppress(StateDirError):  # saved before the next PIN is taken
            self.guard.reopen()
        return True


class _Json(JsonHandler):
    """The controls' JSON answers, for requests from this server's own page only."""

    def initialize(self, controls: Sessions) -> None:
        self.controls = controls

    def words(self, status_code: int) -> str:
        return "use POST to run the table" if status_code == 405 else super().words(status_code)

    def current(self) -> Session | None:
        return self.controls.session(session_cookie(self))

    def no_pin(self) -> tuple[TablePin | None, str | None]:
        """The table's PIN, or why there is none (``Sessions.pin_now``)."""
        return self.controls.pin_now(table_running(self))


class SessionHandler(_Json):
    """``/session``: the PIN for a session, whether this phone has one, and its end."""

    async def get(self) -> None:
        found = self.current()
        if found is not None:
            self.answer(200, {"session": True, "token": found.token})
            return
        _, why = self.no_pin()
        if why is None and not await self.controls.entry_open():
            why = self.controls.closed_words()
        self.answer(200, {"session": False, **({"closed": why} if why else {})})

    async def post(self) -> None:
        data = self.body()
        if data is None:
            return
        try:
            self.controls.guard.flush()  # no PIN is taken while wrong ones cannot be counted
            await self._enter(data)
        except StateDirError as exc:
            self.refuse(503, f"{exc}; until it can be, no PIN is taken")

    async def _enter(self, data: dict) -> None:
        if not await self.controls.entry_open():
            self.refuse(423, self.controls.closed_words())
            return
        address = self.request.remote_ip or "?"
        wait = self.controls.guard.wait(address)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            self.set_header("Retry-After", str(seconds))
            self.refuse(429, f"too many wrong PINs: wait {seconds} s before the next try")
            return
        pin, why = self.no_pin()
        if pin is None:
            self.refuse(503, why or NO_PIN_STOPPED)
            return
        if not _pin_matches(data.get("pin"), pin.pin):
            self.controls.guard.missed(address)
            if self.controls.guard.closed:
                await self.controls.close_entry()
                self.refuse(423, self.controls.closed_words())
                return
            self.refuse(403, "that is not the table's PIN: `obelisk pin` shows it, and so do "
                        "the rings while the menu button is held")
            return
        self.controls.guard.passed(address)
        cookie, made = self.controls.open(pin.generation)
        # kept as long as the session lasts: a browser closed and opened again keeps it too
        self.set_cookie(cookie_name(self), cookie, httponly=True, samesite="Strict", path="/",
                        max_age=int(SESSION_S))
        self.answer(200, {"ok": True, "session": True, "token": made.token})

    def delete(self) -> None:
        found = self.current()
        if found is None or not _token_ok(self, found):
            self.refuse(403, GUEST)
            return
        self.controls.close(session_cookie(self))
        self.clear_cookie(cookie_name(self), path="/")
        self.answer(200, {"ok": True, "session": False})


def cookie_name(handler: tornado.web.RequestHandler) -> str:
    """The session cookie's name on this server: ``obelisk_session_<port>``. A browser keeps
    cookies by host name, whatever the port, so two tables on one machine (two `obelisk play`
    on two ports) under one name would each overwrite the other's session."""
    try:
        connection = handler.request.connection
        if not isinstance(connection, HTTP1Connection):
            return COOKIE  # no socket to ask (never for a request served here)
        port = connection.stream.socket.getsockname()[1]
    except (AttributeError, OSError, IndexError, TypeError):
        return COOKIE  # (no handler, or a closed connection)
    return f"{COOKIE}_{port}"


def session_cookie(handler: tornado.web.RequestHandler) -> str | None:
    """The value of this server's session cookie in the request, if any."""
    return handler.get_cookie(cookie_name(handler))


def _pin_matches(given: object, pin: str) -> bool:
    """Whether ``given`` is the PIN: anything but text (a number, a list, a lone surrogate
    that no encoding takes) is a wrong PIN like any other."""
    if not isinstance(given, str):
        return False
    typed = given.strip().encode("utf-8", "surrogatepass")
    return hmac.compare_digest(typed, pin.encode())


def _token_ok(handler: tornado.web.RequestHandler, session: Session) -> bool:
    given = handler.request.headers.get(HEADER, "")
    return hmac.compare_digest(given.encode(), session.token.encode())


def table_running(handler: tornado.web.RequestHandler) -> bool:
    """Whether the page's reader of the table hears it now (for the words with no PIN)."""
    follower = handler.settings.get("follower")
    return bool(follower is not None and follower.seen_table and follower.absent is None)


def session_refusal(handler: tornado.web.RequestHandler, controls: Sessions,
                    looking: bool = False) -> str | None:
    """Why this request may not run the table (no PIN, a guest, or no page token; with
    ``looking``, no PIN or a guest), else None.

    The one check for everything that changes the table from the page, or shows more of it
    than the public page: the commands here and the simulated hands
    (``firmware.readers.web.hands``). It fails closed: with no PIN, no one passes.
    """
    _, why = controls.pin_now(table_running(handler))
    if why is not None:
        return why
    cookie = session_cookie(handler)
    found = controls.session(cookie)
    if found is None:
        return ENDED if cookie else GUEST
    if looking:
        return None
    if not _token_ok(handler, found):
        return "this request did not come from the table's page: reload the page and try again"
    return None


class CommandHandler(_Json):
    """``/control/<command>``: a command to the table, for a phone with a session only."""

    async def post(self, name: str) -> None:
        refused = session_refusal(self, self.controls)
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
            self.refuse(503, str(exc))
            return
        self.answer(200 if got.get("ok") else 409, got)


def routes(state_dir: str | Path, controls: Sessions | None = None) -> list:
    """The controls' handlers, for ``make_app`` (``controls``: sessions shared with the
    hands; a test gives its own, on its own clocks)."""
    shared = {"controls": controls or Sessions(Path(state_dir))}
    return [(r"/session", SessionHandler, shared),
            (r"/control/([a-z]{1,20})", CommandHandler, shared)]
