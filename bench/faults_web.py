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
  the same Content-Security-Policy, nosniff and X-Frame-Options;
- 11, bounded files (issue 45): the page's own files (its count of wrong PINs, its
  sessions) made a named pipe, a link to /dev/zero, an 8 GiB sparse file, a folder,
  half a file: the page must start within 30 s and stay small, PIN entry stay closed
  (the right PIN a 423) and the page name the file;
- 12, fail closed (issue 45): no PIN, a simulated table's hands and buttons beside:
  a look, a press from another Host and Origin, a press, an act, a command, a PIN must
  each be refused in words and nothing reach the hands; then, with a PIN and a
  session, another Host, another Origin and a form to each endpoint that acts;
- 13, fair places (issue 45): 25 live pages from each of two addresses fill the 50
  places of `--max-connections 100`; a player's page from another network and one
  from the guest's own, and three signed in with the PIN, must each get a place, the
  guest's next one must not, and the pages that gave way must say so.

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
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fault_tally import Tally, bench_main  # noqa: E402
from tests.support.files import device, fifo, folder, huge  # noqa: E402
from tests.support.http import Answer, raw, read_answer, request  # noqa: E402
from tests.support.web import Web  # noqa: E402

PIN = "1234"
NAMES = {3: "pin lock kept", 4: "idle connections", 8: "bad input in words",
         9: "safety headers", 11: "page's files bounded", 12: "no PIN: closed",
         13: "fair live places"}
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


BAD_FILES = {"a named pipe": fifo, "a link to /dev/zero": device, "8 GiB": huge,
             "a folder": folder, "half a file": lambda p: p.write_text('{"total": 1, "ad')}


def _rss_mib(pid: int) -> float:
    """The process's resident memory, in MiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _bad_files(where: Path, tally: Tally, round_no: int) -> None:
    for what, make in BAD_FILES.items():
        for name in ("wrong-pins.json", "sessions.json"):
            state = where / f"files{round_no}-{name[:5]}-{len(what)}"
            (state / "web").mkdir(parents=True)
            (state / "pin").write_text(PIN + "\n")
            make(state / "web" / name)
            web = Web(state)
            started = threading.Thread(target=web.start, daemon=True)
            started.start()
            started.join(30)
            try:
                if started.is_alive() or web.process is None:
                    tally.check(11, False, f"{what} as {name}: the page did not start in 30 s")
                    continue
                got = _raw(web.port, request("GET", "/session", port=web.port), "127.0.13.1")
                closed = got.json().get("closed", "") if got.status == 200 else ""
                entry = _pin(web.port, f'{{"pin": "{PIN}"}}'.encode(), "127.0.13.2")
                small = _rss_mib(web.process.pid) < 200
                if name == "wrong-pins.json":
                    held = name in closed and entry.status == 423 and small
                else:  # no one signed in from before: the PIN signs in afresh
                    held = entry.status == 200 and small
                tally.check(11, held, f"{what} as {name}: {got.status} {closed[:80]!r} "
                            f"{entry.status}, {_rss_mib(web.process.pid):.0f} MiB")
            finally:
                web.stop()


class _Hands:
    """A simulated table's hands and buttons that note whatever reaches them."""

    def __init__(self, state: Path) -> None:
        from hardware.sim.line_socket import LineServer

        self.asked: list[dict] = []
        self.servers = [LineServer(state / n, self._answer).open()
                        for n in ("hands.sock", "buttons.sock")]

    def _answer(self, got: dict) -> dict:
        self.asked.append(got)
        return {"ok": True, "table": {}, "left": {"A": {"small": 5}}}

    def close(self) -> None:
        for server in self.servers:
            server.close()


def _words(got: Answer) -> str:
    try:
        words = got.json().get("error")
    except ValueError:
        return ""
    return words if isinstance(words, str) else ""


def _fail_closed(where: Path, tally: Tally, round_no: int) -> None:
    state = where / f"closed{round_no}"
    state.mkdir()
    hands = _Hands(state)
    web = Web(state).start()
    port = web.port
    try:
        foreign = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        press = b'{"press": "A"}'
        tries = {"a look": request("GET", "/hands", port=port),
                 "a press from another site": request("POST", "/hands", press, port=port,
                                                      headers=foreign),
                 "a press": request("POST", "/hands", press, port=port),
                 "an act": request("POST", "/hands", b'{"act": "take"}', port=port),
                 "a command": request("POST", "/control/new", b"{}", port=port),
                 "a PIN": request("POST", "/session", b'{"pin": "1234"}', port=port)}
        for what, data in tries.items():
            got = _raw(port, data, "127.0.14.1")
            tally.check(12, got.status in (403, 421, 503) and len(_words(got)) > 20
                        and b"small" not in got.body, f"no PIN, {what}: {got.status}")
        (state / "pin").write_text(PIN + "\n")
        session = _session(web.url, port, "127.0.14.2")
        for path, body in (("/hands", press), ("/control/status", b"{}"),
                           ("/session", b'{"pin": "1234"}')):
            for headers, status in (({"Host": f"evil.example:{port}"}, 421),
                                    ({"Origin": "http://evil.example"}, 403),
                                    ({"Content-Type": "text/plain"}, 415)):
                got = _raw(port, request("POST", path, body, port=port,
                                         headers={**session, **headers}), "127.0.14.2")
                tally.check(12, got.status == status and len(_words(got)) > 20,
                            f"{path} {headers}: {got.status}")
        tally.check(12, hands.asked == [], f"reached the hands: {hands.asked[:3]}")
    finally:
        web.stop()
        hands.close()


def _stream(port: int, source: str, headers: dict | None = None) -> socket.socket | None:
    """A live page from ``source``, once the server took it (None: refused)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    conn.sendall(request("GET", "/events", port=port,
                         headers={"Connection": "keep-alive", **(headers or {})}))
    got = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in got and (chunk := conn.recv(4096)):
            got += chunk
    if b" 200 " in got.split(b"\r\n", 1)[0]:
        return conn
    conn.close()
    return None


def _said_when_ended(conn: socket.socket, timeout: float) -> bytes:
    """What a live page got until its stream ended (its last chunk), within ``timeout``."""
    conn.settimeout(0.2)
    said, deadline = b"", time.monotonic() + timeout
    while not said.endswith(b"\r\n0\r\n\r\n") and time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            chunk = conn.recv(65536)
            if not chunk:
                break
            said += chunk
    return said


def _fair_places(where: Path, tally: Tally, round_no: int) -> None:
    state = where / f"places{round_no}"
    state.mkdir()
    (state / "pin").write_text(PIN + "\n")
    web = Web(state, args=("--max-connections", "100")).start()
    net = f"127.4.{round_no % 200}"
    held: list[socket.socket] = []
    try:
        for n in range(50):
            conn = _stream(web.port, f"{net}.{1 + n % 2}")
            if conn is not None:
                held.append(conn)
        tally.check(13, len(held) == 50, f"the guest got {len(held)} of 50 places")
        extra = _stream(web.port, f"{net}.1")
        tally.check(13, extra is None, "the guest took a 51st place")
        for player in (f"127.5.{round_no % 200}.1", f"{net}.9"):
            conn = _stream(web.port, player)
            tally.check(13, conn is not None, f"the player's page at {player} was refused")
            if conn is not None:
                held.append(conn)
        for gave in held[:2]:
            tally.check(13, b"gave its place" in _said_when_ended(gave, 10),
                        "a page that gave way did not say so")
        session = _session(web.url, web.port, "127.0.15.1")
        for n in range(3):
            conn = _stream(web.port, f"{net}.1", headers={"Cookie": session["Cookie"]})
            tally.check(13, conn is not None, f"a page signed in was refused ({n})")
            if conn is not None:
                held.append(conn)
    finally:
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()
        web.stop()


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
            _bad_files(Path(where), tally, n)
            _fail_closed(Path(where), tally, n)
            _fair_places(Path(where), tally, n)
            said = err.read_text(errors="replace")
            tally.check(4, "Traceback" not in said, "a traceback on stderr: " + said[:300])
    for note in tally.notes[:20]:
        print("  lost:", note[:300], file=sys.stderr)
    return tally.rows()


def main() -> None:
    bench_main("faults_web", __doc__, run)


if __name__ == "__main__":
    main()
