"""The page's speed: from the LED frame that confirms a move to 20 open pages showing it.

The whole stack runs as in ``bench/latency.py``: the simulated board in a
process of its own, the service settling its readings, the engine, the
journal, the LED frames; the table's event stream is open as the service
opens it. ``obelisk web`` runs in its own process, and 20 pages are open on
it, each with its own connection, as 20 phones would hold them.

The phones are other machines: here they share this one with the table. So
that they stand in its way as little as phones would, they run at the lowest
priority (nice 19). The web process runs at nice 10, as its systemd unit
starts it (``Nice=10``: the page never holds up the table). By default one
page is a real browser (Debian's chromium, driven by Playwright)
drawing the page, and the others are plain Server-Sent Events readers, which
is all the server sees of a phone; ``--browsers 20`` makes all 20 real
browsers, which measures this machine drawing 20 pages at once.

For each stones move the bench notes when the LED frame confirming it went
out, and each page notes when it had the move: the browser once its handler
for the ``accepted`` event returned (the drawing done), a reader once the
event's last byte arrived. Both are wall-clock times of this machine.

- update_p99_ms: LED confirm -> page showing it, p99 over every move and page;
- table_processing_delta_ms: the table's processing p99 (settled reading ->
  LED frame, as ``bench/latency.py`` measures it) with the pages open, less
  the same moves with none open (played once before and once after the pages,
  the mean of the two p99s: a machine whose speed drifts during the run
  moves both sides alike);
- web_rss_mb: the web process's resident memory with the pages open.

Targets: update p99 <= 100 ms, delta < 1 ms, web rss <= 40 MB.
Ends with `web: update_p99_ms=A table_processing_delta_ms=B web_rss_mb=C pages=N`.

Each of the three runs (before, with the pages, after) plays 600 moves by default: a p99
of 200 is the second-slowest move, and one slow moment of the machine (it came in runs
with no page open as often as with) moved the delta by 2 ms; of 600 it is the sixth.

Run: .venv/bin/python bench/web.py [--moves 600] [--pages 20] [--browsers 1]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from latency import Timed, moves, summary
from playwright.sync_api import sync_playwright
from sim_board import BoardProcess

from engine.stones.game import StonesGame, StonesOptions
from firmware.service.stream import serve_table
from firmware.stones.table import StonesTable
from firmware.store.journal import Journal

OBELISK = Path(sys.executable).parent / "obelisk"
CHROMIUM = "/usr/bin/chromium"

NOTE_SHOWN = """
// Each page notes when its handler for an accepted move has returned.
window.shownAt = [];
window.heard = 0;
const Source = window.EventSource;
window.EventSource = class extends Source {
  addEventListener(kind, handler, options) {
    const noted = (message) => {
      handler(message);
      window.heard += 1;
      const at = performance.timeOrigin + performance.now();
      const event = JSON.parse(message.data);
      if (event.event === "accepted") window.shownAt.push([event.observation.plies, at]);
    };
    return super.addEventListener(kind, noted, options);
  }
};
"""


PHONE_NICE, WEB_NICE = 19, 10


def _chromium(directory: Path) -> str:
    """Debian's chromium, started at the phones' priority."""
    wrapper = directory / "chromium"
    wrapper.write_text(f'#!/bin/sh\nexec nice -n {PHONE_NICE} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no memory figure for process {pid}")


def _wait(what: str, done, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit(f"bench/web.py: {what} did not happen within {timeout:.0f} s")
        time.sleep(0.05)


class Readers:
    """Plain Server-Sent Events readers: when each got each accepted move."""

    def __init__(self, port: int, count: int) -> None:
        self.chosen = selectors.DefaultSelector()
        for _ in range(count):
            stream = socket.create_connection(("127.0.0.1", port))
            stream.sendall(b"GET /events HTTP/1.0\r\n\r\n")
            stream.setblocking(False)
            self.chosen.register(stream, selectors.EVENT_READ, [b"", [], 0])  # bytes, moves,
            # events

    def ready(self) -> bool:
        return all(key.data[2] for key in self.chosen.get_map().values())

    def read(self, timeout: float) -> None:
        for key, _ in self.chosen.select(timeout):
            got = key.fileobj.recv(1 << 16)
            at = time.time() * 1000
            *whole, key.data[0] = (key.data[0] + got).split(b"\n\n")
            for message in whole:
                for line in message.split(b"\n"):
                    if line.startswith(b"data: "):
                        key.data[2] += 1
                        event = json.loads(line[6:])
                        if event.get("event") == "accepted":
                            key.data[1].append((event["observation"]["plies"], at))
            if not got:
                self.chosen.unregister(key.fileobj)
                key.fileobj.close()

    def shown(self) -> list[list[tuple[int, float]]]:
        return [key.data[1] for key in self.chosen.get_map().values()]

    def close(self) -> None:
        for key in list(self.chosen.get_map().values()):
            key.fileobj.close()
        self.chosen.close()


def _phones(port: int, pages: int, browsers: int, workdir: str, conn) -> None:
    """The phones, in a process of their own at the lowest priority: ``browsers`` chromium
    pages and plain readers for the rest. Says "ready" once all have the table; on "stop"
    (with the last move), sends back when each page had each move."""
    os.nice(PHONE_NICE)
    readers = Readers(port, pages - browsers)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(Path(workdir)))
        opened = []
        for _ in range(browsers):
            page = browser.new_context().new_page()  # a phone each: its own connections
            page.add_init_script(NOTE_SHOWN)
            page.goto(f"http://127.0.0.1:{port}/")
            opened.append(page)
        while not readers.ready():
            readers.read(0.1)
        _wait("every browser reading the table",
              lambda: all(page.evaluate("window.heard") > 0 for page in opened))
        conn.send("ready")
        while not conn.poll():
            readers.read(0.05)
        last = conn.recv()
        _wait("every browser showing the last move", lambda: all(
            any(n == last for n, _ in page.evaluate("window.shownAt")) for page in opened))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(
                any(n == last for n, _ in got) for got in readers.shown()):
            readers.read(0.05)
        conn.send([page.evaluate("window.shownAt") for page in opened] + readers.shown())
        browser.close()
    readers.close()


class Played:
    """One stones game on the whole stack, its stream open; notes each move's LED confirm."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="obelisk-web-bench-"))
        self.board = BoardProcess()
        self.table = StonesTable(StonesGame(StonesOptions(ply_limit=10_000)), Journal(self.dir))
        self.stream = serve_table(self.table, self.dir)
        self.timed = Timed(self.board, self.table)
        self.timed.service.stream = self.stream  # as `obelisk run` does: events after the LEDs
        self.confirmed: dict[int, float] = {}  # moves played -> when the LEDs said so
        show = self.timed.devices.leds.show

        def noting() -> None:
            show()
            self.confirmed.setdefault(len(self.table.actions), time.time() * 1000)

        self.timed.devices.leds.show = noting

    def play(self, count: int, seed: int) -> list[float]:
        """``count`` moves; the processing time of each, ms."""
        return moves(self.timed, count, random.Random(seed))

    def close(self) -> None:
        self.timed.close()
        self.board.close()
        if self.stream:
            self.stream.close()


def _alone(count: int, seed: int) -> list[float]:
    """The moves' processing times with no web server and no page."""
    alone = Played()
    try:
        return alone.play(count, seed)
    finally:
        alone.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--browsers", type=int, default=1,
                        help="how many of the pages are real browsers (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    browsers = min(args.browsers, args.pages)
    if browsers and not Path(CHROMIUM).exists():
        raise SystemExit(f"bench/web.py needs Debian's chromium at {CHROMIUM}: run ./setup.sh")

    before = _alone(args.moves, args.seed)
    played = Played()
    port = _free_port()
    web = subprocess.Popen([OBELISK, "web", "--address", "127.0.0.1", "--port", str(port),
                            "--state-dir", str(played.dir)], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True,
                           preexec_fn=lambda: os.nice(WEB_NICE))
    try:
        web.stdout.readline()  # it listens
        ours, theirs = multiprocessing.Pipe()
        phones = multiprocessing.Process(target=_phones, daemon=True, args=(
            port, args.pages, browsers, str(played.dir), theirs))
        phones.start()
        if not ours.poll(60):
            raise SystemExit("bench/web.py: the pages did not open within 60 s")
        ours.recv()
        with_pages = played.play(args.moves, args.seed)
        rss = _rss_mb(web.pid)
        ours.send(max(played.confirmed))
        if not ours.poll(60):
            raise SystemExit("bench/web.py: the pages did not show the last move in 60 s")
        shown = ours.recv()
        phones.join(30)
    finally:
        web.kill()
        web.wait(10)
        played.close()
    after = _alone(args.moves, args.seed)

    updates = [at - played.confirmed[n] for page in shown for n, at in page
               if n in played.confirmed]
    (_, p99_before), (_, p99_after) = summary(before), summary(after)
    p99 = (p99_before + p99_after) / 2
    u50, u99 = summary(updates)
    _, with_p99 = summary(with_pages)
    print(f"processing, no page open: {len(before)} moves before, p99={p99_before:.2f} ms; "
          f"{len(after)} after, p99={p99_after:.2f} ms")
    print(f"processing, {args.pages} pages open ({browsers} in chromium): {len(with_pages)} "
          f"moves, p99={with_p99:.2f} ms")
    print(f"LED confirm -> page has it: {len(updates)} updates, p50={u50:.1f} p99={u99:.1f} "
          f"ms, max {max(updates):.1f} ms; web process {rss:.1f} MB")
    print(f"web: update_p99_ms={u99:.1f} table_processing_delta_ms={with_p99 - p99:.2f} "
          f"web_rss_mb={rss:.1f} pages={args.pages}")


if __name__ == "__main__":
    main()
