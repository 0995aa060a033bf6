"""A club's night: many tables publishing to one broker, one club page following them all.

One local mosquitto (on a free port, its configuration in a temporary
directory, as the tests start it); ``--tables`` stones demos at ``--speed``,
each on its own state directory with its own ``obelisk mqtt``; one
``obelisk club`` and one plain Server-Sent Events reader on it, as a
screen in the club room would hold it.

- event_p99_ms: from the publisher taking an event off its table's stream
  (its ``at``, the wall clock of this machine) to the club page's reader
  having it, p99 over every event of every table (the stream's own hop,
  table to publisher, is left out: it is a local socket);
- publisher_rss_mb: the largest publisher's resident memory at the end;
- publisher_cpu_pct: the publishers' mean CPU over the games, in % of a core;
- lost: events missing on the page (a gap in a table's numbering) plus
  results that never came.

Target: event p99 <= 200 ms with 50 tables at --speed 50, lost = 0.
Ends with `club: tables=N event_p99_ms=A publisher_rss_mb=B lost=C`.

Run: .venv/bin/python bench/club.py [--tables 50] [--speed 50] [--ply-limit 100]
Smoke: .venv/bin/python bench/club.py --tables 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.club_support import Mosquitto, free_port, wait_for  # noqa: E402

OBELISK = str(Path(sys.executable).parent / "obelisk")


class PageReader:
    """The club page's /events as a screen reads it: each table event's arrival time."""

    def __init__(self, url: str) -> None:
        self.delays: list[float] = []
        self.numbers: dict[tuple[str, str], list[int]] = {}
        self._lock = threading.Lock()
        self._answer = urllib.request.urlopen(url + "/events", timeout=600)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = ""
        for raw in self._answer:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "event":
                now = time.time()
                message = json.loads(line[6:])
                event = message["data"]
                with self._lock:
                    self.delays.append(now - float(event["at"]))
                    self.numbers.setdefault((message["table"], event["session"]), []).append(
                        event["n"])

    def lost(self) -> int:
        with self._lock:
            return sum(max(ns) - min(ns) + 1 - len(set(ns)) for ns in self.numbers.values())


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--ply-limit", type=int, default=100,
                        help="end each stones game after this many moves (default: "
                        "%(default)s; 0: the game's own, and one game of 50 may wander on "
                        "for many minutes)")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="obelisk-club-bench-"))
    broker = Mosquitto(home / "broker").start()
    procs: list[subprocess.Popen] = []
    try:
        port = free_port()
        club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                                 "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        procs.append(club)
        club.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        reader = PageReader(url)
        publishers, states = [], []
        for index in range(args.tables):
            state = home / f"table-{index}"
            state.mkdir()
            (state / "mqtt.toml").write_text(f'broker = "{broker.url}"\n'
                                              f'table = "table-{index}"\n')
            publisher = subprocess.Popen([OBELISK, "mqtt", "--state-dir", str(state)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs.append(publisher)
            publishers.append(publisher)
            states.append(state)
        wait_for(lambda: len({t for t, _ in reader.numbers}) >= args.tables, 120,
                 "every publisher on the page")
        cpu_before = {p.pid: _cpu_s(p.pid) for p in publishers}
        began = time.monotonic()
        extra = ["--ply-limit", str(args.ply_limit)] if args.ply_limit else []
        demos = [subprocess.Popen([OBELISK, "demo", "stones", "--speed", str(args.speed),
                                   "--seed", str(index + 1), "--state-dir", str(state), "--json",
                                   *extra], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
                 for index, state in enumerate(states)]
        procs.extend(demos)
        failed = sum(demo.wait(1800) != 0 for demo in demos)
        played = time.monotonic() - began

        def results() -> list:
            got = json.loads(urllib.request.urlopen(url + "/results", timeout=30).read())
            return got["results"] if len(got["results"]) >= args.tables else []

        with contextlib.suppress(AssertionError):  # a missing result counts as lost below
            wait_for(results, 120, "every result on the page")
        got = json.loads(urllib.request.urlopen(url + "/results", timeout=30).read())["results"]
        cpu = [(_cpu_s(p.pid) - cpu_before[p.pid]) / played * 100 for p in publishers]
        rss = max(_rss_mb(p.pid) for p in publishers)
        lost = reader.lost() + (args.tables - len({r["table"] for r in got})) + failed
        p99 = _p99(reader.delays) * 1000
        print(f"games: {args.tables} stones demos at --speed {args.speed:g} in {played:.1f} s; "
              f"{len(reader.delays)} events on the club page; {len(got)} results")
        print(f"publishers: cpu {sum(cpu) / len(cpu):.2f} % of a core each (mean), "
              f"rss {rss:.1f} MB (largest)")
        print(f"club: tables={args.tables} event_p99_ms={p99:.1f} publisher_rss_mb={rss:.1f} "
              f"lost={lost}")
        return 0 if lost == 0 else 1
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        broker.stop()


if __name__ == "__main__":
    sys.exit(main())
