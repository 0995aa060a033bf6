"""What every answer of the page's server shares: its safety headers, errors in words, quiet logs.

One place sets the headers, so no handler (nor tornado's own 400 for a
request it cannot parse, which ``firmware.readers.web.bounds`` dresses the same
way) can go out without them. Errors are said in words and never carry a
traceback; the log gets one line per problem, and a flood of the same
problem is counted, not printed line by line.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback

import tornado.web

from firmware.readers.web.origin import foreign
from firmware.sent_json import read_sent

__all__ = ["HEADERS", "MAX_BODY", "JsonHandler", "OneLine", "Safe", "quiet_logs"]

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Every answer: only our own scripts and styles, never sniffed, never framed by another site."""

WORDS = {
    400: "that request is not one this page understands",
    403: "that file is not part of the page",
    404: "there is nothing here: the page is at /, the history at /games",
    405: "this page only reads: use GET",
    413: "that request is too long",
    500: "something went wrong on the table's page server: try again",
}


class Safe(tornado.web.RequestHandler):
    """A request handler with our headers on every answer (errors included: tornado clears
    an answer and sets the defaults again before an error page), and errors in words; named
    first among a handler's bases (``Safe, tornado.web.StaticFileHandler``)."""

    def set_default_headers(self) -> None:
        for name, value in HEADERS.items():
            self.set_header(name, value)

    def words(self, status_code: int) -> str:
        """What an error of this status says to a person."""
        return WORDS.get(status_code, str(getattr(self, "_reason", "error")).lower())

    def write_error(self, status_code: int, **kwargs: object) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {self.words(status_code)}\n")

    def log_exception(self, typ: type | None, value: BaseException | None, tb: object) -> None:
        """A handler's error: one line in the log (the person got words, never a traceback)."""
        if isinstance(value, tornado.web.HTTPError):
            return  # an answer in words, already counted by the access log
        request = self.request
        logging.getLogger("obelisk.web").error(
            "%s %s failed: %s", request.method, request.uri[:200], _summary(value))


MAX_BODY = 4096
"""The longest body any endpoint takes (a PIN, a command, a hand's act): a longer one is
refused from its Content-Length, before a byte of it is read."""


@tornado.web.stream_request_body
class JsonHandler(Safe, tornado.web.RequestHandler):
    """An endpoint that takes a JSON object and answers JSON, errors included: every one
    that changes the table is one (``tests/web/test_guard.py`` holds them to it).

    Its body arrives as it comes (``stream_request_body``): ``prepare``
    refuses one longer than ``MAX_BODY`` from its Content-Length before
    reading it, and a body without one stops at that length too; then it
    refuses a request not from this server's own page (``origin.foreign``:
    its Host, its Origin, its kind), before anything is done. A subclass
    keeps this ``prepare``.
    """

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")

    def answer(self, status: int, data: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data) + "\n")

    def refuse(self, status: int, words: str) -> None:
        self.answer(status, {"ok": False, "error": words})

    def write_error(self, status_code: int, **kwargs: object) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": False, "error": self.words(status_code)}) + "\n")

    def prepare(self) -> None:
        if not self.length_ok():
            return
        refused = foreign(self)
        if refused is not None:
            self.refuse(*refused)

    def length_ok(self) -> bool:
        """Whether the body may be read; if not, the request was refused (413) unread."""
        self._got = bytearray()
        given = self.request.headers.get("Content-Length")
        try:
            length = int(given) if given is not None else 0
        except ValueError:
            length = -1
        if length < 0:
            self.refuse(400, "that request's length is not a number")
            return False
        if length > MAX_BODY:
            self.refuse(413, WORDS[413])
            return False
        connection = self.request.connection
        if connection is not None and hasattr(connection, "set_max_body_size"):
            connection.set_max_body_size(MAX_BODY)  # a body without a length
        return True

    def data_received(self, chunk: bytes) -> None:
        self._got += chunk  # tornado stops a body at MAX_BODY, and after an answer

    def body(self) -> dict | None:
        """The request's JSON object (None, answered with a 400, when it is not one)."""
        if len(self._got) > MAX_BODY:
            self.refuse(413, WORDS[413])
            return None
        if not self._got:
            return {}
        try:
            data = read_sent(bytes(self._got))
        except ValueError:
            data = None
        if not isinstance(data, dict):
            self.refuse(400, "send one JSON object, like {\"pin\": \"1234\"}")
            return None
        return data


def _summary(error: BaseException | None) -> str:
    """An exception in a line: its kind, its words and where it was raised."""
    if error is None:
        return "unknown error"
    where = ""
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        where = f" at {last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}{where}" if text else f"{type(error).__name__}{where}"


class OneLine(logging.Filter):
    """Each log record as one line without a traceback; the same problem at most once every
    ``every`` seconds, with how many times it came meanwhile."""

    def __init__(self, every: float = 10.0, clock=time.monotonic) -> None:
        super().__init__()
        self.every, self.clock = every, clock
        self.last: dict[tuple[str, str], tuple[float, int]] = {}  # (logger, msg): (at, skipped)

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:100])
        now = self.clock()
        at, skipped = self.last.get(key, (-self.every, 0))
        if now - at < self.every:
            self.last[key] = (at, skipped + 1)
            return False
        if len(self.last) > 1000:
            self.last.clear()
        self.last[key] = (now, 0)
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            text = str(record.msg)
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text}: {_summary(record.exc_info[1])}"
        text = " | ".join(line.strip() for line in text.splitlines() if line.strip())[:500]
        if skipped:
            text += f" (and {skipped} more like it in the last {now - at:.0f} s)"
        record.msg, record.args = text, ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def quiet_logs(stream=None) -> logging.Handler:
    """This process's log: warnings and errors, one line each, flood-counted, on stderr.

    For ``obelisk web`` (a process of its own): tornado's access log, its
    general and application logs and asyncio's all go through here.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("obelisk web: %(message)s"))
    handler.addFilter(OneLine())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    return handler
