"""Throws at ``obelisk web`` what once broke it (issue 30), and counts what held.

Each round starts ``obelisk web`` on a table with a PIN (no table running),
under a file limit of 160 as a small unit's ``LimitNOFILE=`` would set, and
tries each class of fault:

- 3, pin lock: wrong PINs from one address, the page killed (SIGKILL) and
  started again, the right PIN at once from that address: it must still
  wait (429); a PIN that is not text is a wrong PIN (403, not 500); a body
  of 90 MB announced is refused before it is read, and the page lives on;
- 4, idle connections: 300 connections that say nothing, from 30 addresses,
  and 200 from one: the page must still answer;
- 8, bad input: nested JSON, lists where a name goes, bodies that are not
  JSON objects, to every handler that takes a body: a 400 in words;
- 9, headers: answers of every kind, tornado's own 400s included: each with
  the same Content-Security-Policy, nosniff and X-Frame-Options.

A try is lost when a PIN lock is forgotten, the page is down, an answer
misses a header or is not in words; a traceback on the page's stderr is
a lost try of class 4 (its log must stay one line per problem).
Prints one line per class and ends with `faults_web: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_web.py [--rounds 3]
"""

from __future__ import annotations

import contextlib
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fault_tally import Tally, bench_main  # noqa: E402
from tests.support.http import Answer, raw, read_answer, request  # noqa: E402
from tests.support.web import Web  # noqa: E402

PIN = "1234"
NAMES = {3: "pin lock kept", 4: "idle connections", 8: "bad input in words",
         9: "safety headers"}
NESTED = b"[" * 2000 + b"]" * 2000
POLICY_NEEDS = ("default-src 'self'", "frame-ancestors 'none'")


def _raw(port: int, data: bytes, source: str) -> Answer:
    """The answer, or none (status 0) when the page did not give one in 10 s."""
    try:
        return raw(port, data, source=source, timeout=10)
    except OSError:
        return Answer(0, {}, b"")


def _pin(port: int, body: bytes, source: str) -> Answer:
    return _raw(port, request("POST", "/session", body, port=port), source)


def _page_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def _until(check, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def _session(url: str, port: int, source: str) -> dict:
    """The headers of a phone with a session (cookie and token), from ``source``."""
    answer = _pin(port, f'{{"pin": "{PIN}"}}'.encode(), source)
    cookie = answer.headers.get("set-cookie", "").split(";")[0]
    try:
        token = answer.json().get("token", "")
    except ValueError:
        token = ""
    return {"Cookie": cookie, "X-Obelisk-Token": token}


def _headers(web: Web, tally: Tally, source: str) -> None:
    port = web.port
    session = _session(web.url, port, source)
    asked = {
        "the page": request("GET", "/", port=port),
        "nothing there": request("GET", "/nothing", port=port),
        "no such game": request("GET", "/games/zzz.json", port=port),
        "a command by GET": request("GET", "/control/status", port=port),
        "the hands": request("GET", "/hands", port=port, headers=session),
        "an act": request("POST", "/hands", b'{"act": "look"}', port=port, headers=session),
        "another host": request("GET", "/session", port=port, headers={"Host": "evil.example"}),
        "a bad request line": b"GARBAGE\r\n\r\n",
        "a bad Host": b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
        "a body too long": request("POST", "/nothing", port=port,
                                   headers={"Content-Length": "100000000"}),
    }
    for what, data in asked.items():
        got = _raw(port, data, source)
        policy = got.headers.get("content-security-policy", "")
        tally.check(9, all(p in policy for p in POLICY_NEEDS)
                    and got.headers.get("x-content-type-options") == "nosniff"
                    and got.headers.get("x-frame-options") == "DENY", f"{what}: {got.headers}")


def _bad_input(web: Web, tally: Tally, source: str) -> None:
    port = web.port
    session = _session(web.url, port, source)
    bad = [("/hands", b'{"act": "take", "seat": ' + NESTED + b"}"),
           ("/hands", b'{"act": ["take"]}'), ("/hands", b'{"press": ["A"]}'),
           ("/hands", b'"take"'), ("/control/status", b'{"x": ' + NESTED + b"}"),
           ("/control/status", b"[1]"), ("/session", b'{"pin": ' + NESTED + b"}"),
           ("/session", b"not json")]
    for path, body in bad:
        got = _raw(port, request("POST", path, body, port=port, headers=session), source)
        try:
            words = got.json().get("error")
        except ValueError:
            words = None
        tally.check(8, got.status == 400 and isinstance(words, str) and len(words) > 10,
                    f"{path} {body[:40]!r}: {got.status}")


def _pin_lock(web: Web, tally: Tally, source: str) -> Web:
    """Wrong PINs, a kill, the right PIN at once: it must wait; returns the new page."""
    port = web.port
    for _ in range(3):  # each waits out the last one's wait: the third earns 4 s
        _until(lambda: _pin(port, b'{"pin": "0000"}', source).status == 403, 10)
    web.stop()
    web = Web(web.state_dir, port=port, stderr=web.stderr, files=web.files).start()
    got = _pin(port, f'{{"pin": "{PIN}"}}'.encode(), source)
    tally.check(3, got.status == 429, f"the right PIN after a restart: {got.status}")
    other = source.rsplit(".", 1)[0] + ".250"
    got = _pin(port, b'{"pin": "\\ud800"}', other)
    tally.check(3, got.status == 403, f"a PIN that is not text: {got.status}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request("POST", "/session", port=port,
                             headers={"Content-Length": "90000000"}) + b"{" * 1000)
        started = time.monotonic()
        try:
            got = read_answer(conn)
        except OSError:
            got = None
    tally.check(3, got is not None and got.status in (400, 413)
                and time.monotonic() - started < 5, "a 90 MB body was waited for")
    tally.check(3, web.process.poll() is None and _page_answers(web.url), "the page went down")
    return web


def _idle(web: Web, tally: Tally, round_no: int) -> None:
    opened = []
    try:
        for n in range(500):
            conn = socket.socket()
            conn.bind((f"127.1.{round_no % 200}.{1 + n % 30}" if n < 300
                       else f"127.2.{round_no % 200}.1", 0))
            conn.setblocking(False)
            conn.connect_ex(("127.0.0.1", web.port))
            opened.append(conn)
        tally.check(4, _until(lambda: _page_answers(web.url), 20),
                    "the page did not answer among 500 idle connections")
    finally:
        for conn in opened:
            with contextlib.suppress(OSError):
                conn.close()


def run(rounds: int) -> list[dict]:
    """Each class of fault tried ``rounds`` times on a fresh ``obelisk web``: per class, what
    was tried, what held and what was lost."""
    tally = Tally(NAMES)
    with tempfile.TemporaryDirectory(prefix="faults-web-") as where:
        for n in range(rounds):
            state = Path(where) / f"state{n}"
            state.mkdir()
            (state / "pin").write_text(PIN + "\n")
            err = Path(where) / f"stderr{n}.txt"
            web = Web(state, stderr=err, files=160).start()
            try:
                _headers(web, tally, f"127.0.10.{n % 250 + 1}")
                _bad_input(web, tally, f"127.0.11.{n % 250 + 1}")
                web = _pin_lock(web, tally, f"127.0.12.{n % 250 + 1}")
                _idle(web, tally, n)
            finally:
                web.stop()
            said = err.read_text(errors="replace")
            tally.check(4, "Traceback" not in said, "a traceback on stderr: " + said[:300])
    for note in tally.notes[:20]:
        print("  lost:", note[:300], file=sys.stderr)
    return tally.rows()


def main() -> None:
    bench_main("faults_web", __doc__, run)


if __name__ == "__main__":
    main()
