"""A club's night: many tables publishing to one broker, one club page following them all.

One local mosquitto (on a free port, its configuration in a temporary
directory, as the tests start it, with mosquitto's own defaults: a club's
broker); ``--tables`` tables, each on its own state directory with its own
``obelisk mqtt``; one ``obelisk club`` and one plain Server-Sent Events
reader on it (the screen in the club room), and a tap: one more MQTT
subscriber of the bench's, noting when the broker delivered each message.

Where the tables come from:

- ``--live`` of them are real stones demos at ``--speed``, each a whole
  table service with its simulated board (by default as many as the
  machine carries beside the rest: 2.5 a core, 5 on 2 cores);
- when ``--live`` is smaller than ``--tables`` (a 2-core machine cannot run
  50 table services at speed 50: each takes 15 to 30 % of a core), those demos play first on
  their own, recorded line by line with their timing and their journal; then
  every table's event stream (``events.sock``, the stream the publisher
  reads) replays one of those games at the pace it was played, and its
  journal appears as its game ends, so the publishers, the broker and the
  page see what 50 tables would tell them.

In a club each table and its publisher run on their own Pi; here they share
two cores with the broker and the page, so they run ``--nice 10`` (they
still get whatever the broker and the page leave).

Figures:

- event_p99_ms: from the broker's delivery (the tap) to the club page's
  reader having the event, p99 over every event of every table: the page's
  own hop, leaving out the tables' and the publishers' slowness (printed
  beside it: publisher to broker, and end to end);
- publisher_rss_mb: the largest publisher's resident memory at the end;
  the publishers' CPU over the games (mean and sum, in % of a core), and
  the page's, the broker's, the tables' (or the replay's);
- lost: what never reached the page once every table had ended, every
  publisher's outbox had drained and the page had stopped receiving (events
  the tables told that the page never showed, plus results missing), with
  where each went missing; late: events the page showed more than 200 ms
  after the broker delivered them (counted in the p99, not in lost).

Target: event p99 <= 200 ms with 50 tables at --speed 50, lost = 0.
Ends with `club: tables=N event_p99_ms=A publisher_rss_mb=B lost=C` (and how
many tables were live).

Run: .venv/bin/python bench/club.py [--tables 50] [--live 10] [--speed 50] [--ply-limit 100]
Smoke: .venv/bin/python bench/club.py --tables 3
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion  # noqa: E402

from firmware.service.stream import EventStream  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.processes import free_port, until  # noqa: E402

OBELISK = str(Path(sys.executable).parent / "obelisk")
NOT_TOLD = {"absent", "table"}
"""Event kinds the publisher or the stream add on their own: not the table's game."""
DROPPED = "$SYS/broker/publish/messages/dropped"
TARGET_MS = 200.0


def _key(table: str, event: dict) -> tuple[str, str, int]:
    return table, str(event.get("session")), int(event.get("n", -1))


class PageReader:
    """The club page's /events as a screen reads it, reconnecting as a browser does."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.arrived: dict[tuple[str, str, int], tuple[float, float, str]] = {}
        self.reconnects = 0
        self._stop = False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop:
            with contextlib.suppress(OSError):
                self._read(urllib.request.urlopen(self.url + "/events", timeout=600))
            if not self._stop:
                self.reconnects += 1  # the page closed it (fallen behind) or it broke

    def _read(self, answer) -> None:
        kind = ""
        for raw in answer:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "event":
                now = time.monotonic()
                message = json.loads(line[6:])
                event = message["data"]
                # first arrival only: a repeat after a reconnect is not news
                self.arrived.setdefault(_key(message["table"], event),
                                        (now, float(event.get("at", 0)), event["event"]))

    def stop(self) -> None:
        self._stop = True


class Tap:
    """The bench's own subscriber: when the broker delivered each event and result."""

    def __init__(self, port: int) -> None:
        self.raw: list[tuple[float, str, bytes]] = []
        self.dropped = 0
        self.connected = threading.Event()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv311)

        def connected(client, userdata, flags, reason, properties) -> None:
            for topic in ("obelisk/+/events", "obelisk/+/results/+", DROPPED):
                client.subscribe(topic, qos=1)
            self.connected.set()

        def message(client, userdata, msg) -> None:
            if msg.topic == DROPPED:
                self.dropped = int(msg.payload)
            else:  # only noted here, read afterwards, so the tap keeps up
                self.raw.append((time.monotonic(), msg.topic, msg.payload))

        client.on_connect, client.on_message = connected, message
        client.connect("127.0.0.1", port, keepalive=30)
        client.loop_start()
        self.client = client
        until(self.connected.is_set, 20, "the bench's tap connecting")

    def read(self) -> tuple[dict[tuple[str, str, int], tuple[float, str]], set[tuple[str, str]]]:
        """(each event's first delivery: time and kind), (each result's table and id)."""
        events, results = {}, set()
        for at, topic, payload in list(self.raw):
            parts = topic.split("/")
            if parts[2] == "events":
                event = json.loads(payload)
                events.setdefault(_key(parts[1], event), (at, event["event"]))
            elif parts[2] == "results":
                results.add((parts[1], parts[3]))
        return events, results

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Recording:
    """One demo as it was played: each line with its time from the first, and its journal."""

    lines: list[tuple[float, bytes]] = field(default_factory=list)
    journal: Path | None = None


def _record(proc: subprocess.Popen, into: Recording) -> threading.Thread:
    def read() -> None:
        first = None
        for line in proc.stdout:
            now = time.monotonic()
            first = now if first is None else first
            into.lines.append((now - first, line))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _nicer(by: int):
    """For Popen: the child runs ``by`` steps nicer (a table's own machine, stood in)."""
    return (lambda: os.nice(by)) if by else None


def run_demo(state: Path, seed: int, args, nice: int = 0) -> subprocess.Popen:
    extra = ["--ply-limit", str(args.ply_limit)] if args.ply_limit else []
    return subprocess.Popen([OBELISK, "demo", "stones", "--speed", str(args.speed), "--seed",
                             str(seed), "--state-dir", str(state), "--json", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            preexec_fn=_nicer(nice))


class Replay:
    """Every table's event stream, telling a recorded game at the pace it was played (in a
    process of its own, so the bench's readers are not slowed by it)."""

    def __init__(self, states: list[Path], recordings: list[Recording], nice: int = 0) -> None:
        self.nice = nice
        self.states = states
        self.recordings = recordings
        self.streams: list[EventStream] = []

    def start(self) -> multiprocessing.Process:
        child = multiprocessing.get_context("fork").Process(target=self._run, daemon=True)
        child.start()
        return child

    def _run(self) -> None:
        os.nice(self.nice)
        self.streams = [EventStream(state, lambda: [], threading.RLock()).open()
                        for state in self.states]
        # every publisher reading its table before the game (a real table's stream would
        # give a late reader the whole state first; this one has nothing to give)
        until(lambda: all(stream.readers() for stream in self.streams), 300,
                 "every publisher reading its table's stream")
        began = time.monotonic()
        due = [(t, index, order) for index in range(len(self.states))
               for order, (t, _) in enumerate(self._of(index).lines)]
        heapq.heapify(due)
        while due:
            t, index, order = heapq.heappop(due)
            wait = began + t - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # the recorded pace: a schedule, not a wait for a condition
            line = self._of(index).lines[order][1]
            event = json.loads(line)
            if event.get("event") == "game_over":  # the journal first, as the table writes it
                shutil.copy(self._of(index).journal, self.states[index] / "journal.jsonl")
            self.streams[index].publish(event)
        for stream in self.streams:
            stream.close()
        dropped = sum(stream.dropped for stream in self.streams)
        if dropped:
            print(f"replay: the tables' streams dropped {dropped} slow reader(s) (a publisher "
                  "too far behind: what it missed was never published)", flush=True)

    def _of(self, index: int) -> Recording:
        return self.recordings[index % len(self.recordings)]


def _cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _waiting(states: list[Path]) -> int:
    return sum(len(list((state / "mqtt" / "outbox").glob("*.json"))) for state in states)


def _settle(progress, timeout: float, quiet_s: float) -> bool:
    """Until ``progress()`` says done (True), or has not changed for ``quiet_s``."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        done, mark = progress()
        if done:
            return True
        if mark != last:
            last, since = mark, time.monotonic()
        elif time.monotonic() - since > quiet_s:
            return False
        time.sleep(0.2)
    return False


LIVE_PER_CORE = 2.5
"""Live tables a core can carry at speed 50 (measured: 15 to 30 % of a core each, and the
publishers, the broker and the page need the rest)."""


def _live_default() -> int:
    return max(1, int(LIVE_PER_CORE * (os.cpu_count() or 1)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="publishers (default 50)")
    parser.add_argument("--live", type=int, default=None,
                        help="real table services (default: all the tables, up to "
                        f"{LIVE_PER_CORE:g} a core: {_live_default()} here); fewer than "
                        "--tables: they play first and every table replays one of their games")
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--ply-limit", type=int, default=100,
                        help="end each stones game after this many moves (default: "
                        "%(default)s; 0: the game's own, and one game of 50 may wander on "
                        "for many minutes)")
    parser.add_argument("--nice", type=int, default=10,
                        help="the tables and publishers run this much nicer than the broker "
                        "and the page (default %(default)s; in a club each has its own Pi, "
                        "here they would take the page's CPU; 0: all alike)")
    parser.add_argument("--quiet-s", type=float, default=15.0,
                        help="after the tables end and the outboxes drain, how long the page "
                        "may receive nothing before what is missing counts as lost")
    args = parser.parse_args()
    live = max(1, min(args.live or _live_default(), args.tables))
    replaying = live < args.tables
    home = Path(tempfile.mkdtemp(prefix="obelisk-club-bench-"))
    broker = Mosquitto(home / "broker", extra=("sys_interval 1",)).start()
    procs: list[subprocess.Popen] = []
    load_before = os.getloadavg()
    try:
        recordings = [Recording() for _ in range(live)]
        demo_cpu = 0.0
        if replaying:  # the live tables play on their own first
            dirs = [home / f"recorded-{index}" for index in range(live)]
            demos = [run_demo(state, index + 1, args) for index, state in enumerate(dirs)]
            readers = [_record(demo, rec) for demo, rec in zip(demos, recordings, strict=True)]
            cpu_at = {d.pid: _cpu_s(d.pid) for d in demos}
            began = time.monotonic()
            cpu_end = {}
            while any(d.poll() is None for d in demos):
                cpu_end.update({d.pid: _cpu_s(d.pid) for d in demos if d.poll() is None})
                time.sleep(0.2)
            recorded_s = time.monotonic() - began
            demo_cpu = sum(cpu_end.get(p, c) - c for p, c in cpu_at.items()) / recorded_s * 100
            for reader in readers:
                reader.join(30)
            for state, rec in zip(dirs, recordings, strict=True):
                rec.journal = state / "journal.jsonl"
            print(f"recorded: {live} stones demos at --speed {args.speed:g} in "
                  f"{recorded_s:.1f} s, {sum(len(r.lines) for r in recordings)} events; the "
                  f"tables' CPU {demo_cpu / live:.1f} % of a core each", flush=True)

        port = free_port()
        club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address",
                                 "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        procs.append(club)
        club.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        tap = Tap(broker.port)
        reader = PageReader(url)
        publishers, states = [], []
        for index in range(args.tables):
            state = home / f"table-{index}"
            state.mkdir()
            (state / "mqtt.toml").write_text(f'broker = "{broker.url}"\n'
                                              f'table = "table-{index}"\n')
            with open(state / "publisher.log", "wb") as log:
                publisher = subprocess.Popen([OBELISK, "mqtt", "--state-dir", str(state)],
                                             stdout=log, stderr=log,
                                             preexec_fn=_nicer(args.nice))
            procs.append(publisher)
            publishers.append(publisher)
            states.append(state)
        until(lambda: len({k[0] for k in reader.arrived}) >= args.tables, 300,
                 "every publisher on the page")
        watched = {"publishers": [p.pid for p in publishers], "club page": [club.pid],
                   "broker": [broker.proc.pid], "bench": [os.getpid()]}
        cpu_before = {pid: _cpu_s(pid) for pids in watched.values() for pid in pids}
        began = time.monotonic()
        if replaying:
            child = Replay(states, recordings, args.nice).start()
            watched["replay"] = [child.pid]
            cpu_before[child.pid] = _cpu_s(child.pid)
            last_cpu = {}
            while child.is_alive():
                last_cpu[child.pid] = _cpu_s(child.pid)
                time.sleep(0.2)
            child.join()
            told = [len(recordings[i % live].lines) for i in range(args.tables)]
            failed = 0
        else:
            demos = [run_demo(state, index + 1, args, args.nice)
                     for index, state in enumerate(states)]
            procs.extend(demos)
            watched["tables"] = [d.pid for d in demos]
            cpu_before.update({d.pid: _cpu_s(d.pid) for d in demos})
            readers = [_record(demo, rec) for demo, rec in zip(demos, recordings, strict=True)]
            last_cpu = {}
            while any(d.poll() is None for d in demos):
                last_cpu.update({d.pid: _cpu_s(d.pid) for d in demos if d.poll() is None})
                time.sleep(0.2)
            for thread in readers:
                thread.join(30)
            failed = sum(d.returncode != 0 for d in demos)
            told = [len(rec.lines) for rec in recordings]
        played = time.monotonic() - began
        ended = time.monotonic()

        drained = _settle(lambda: ((n := _waiting(states)) == 0, n), 600, 60)
        drain_s = time.monotonic() - ended
        cpu_after = {pid: _cpu_s(pid) for pids in watched.values() for pid in pids}
        cpu_after.update(last_cpu)
        span = time.monotonic() - began

        def page_progress() -> tuple[bool, int]:
            events, _ = tap.read()
            got = len(reader.arrived)
            return got >= len(events) and got >= sum(told), got

        _settle(page_progress, 600, args.quiet_s)
        with contextlib.suppress(OSError, ValueError):
            until(lambda: len(json.loads(urllib.request.urlopen(
                url + "/results", timeout=30).read())["results"]) >= args.tables,
                args.quiet_s, "every result on the page")
        page_results = {(r["table"], r["id"]) for r in json.loads(urllib.request.urlopen(
            url + "/results", timeout=30).read())["results"]}
        rss = max(_rss_mb(p.pid) for p in publishers)
        club_rss = _rss_mb(club.pid)
        tapped, tap_results = tap.read()
        arrived = dict(reader.arrived)
        for publisher in publishers:  # each says how many events it numbered, as it stops
            publisher.send_signal(signal.SIGTERM)
        numbered, outbox_dropped = [], 0
        for publisher, state in zip(publishers, states, strict=True):
            publisher.wait(60)
            log = (state / "publisher.log").read_text(errors="replace")
            found = re.search(r"stopped after (\d+) event", log)
            numbered.append(int(found.group(1)) if found else -1)
            outbox_dropped += sum(int(n) for n in re.findall(r"the (\d+) oldest event", log))

        # ---------------------------------------------------------------- the figures
        def cpu(name: str) -> list[float]:
            return [(cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0)) / span * 100
                    for pid in watched.get(name, [])]

        hop = [(arrived[k][0] - at) * 1000 for k, (at, _) in tapped.items() if k in arrived]
        offset = time.time() - time.monotonic()  # the publishers' `at` is wall-clock time
        end_to_end = [(mono + offset - wall) * 1000 for mono, wall, _ in arrived.values() if wall]
        broker_side = [(at + offset - arrived[k][1]) * 1000
                       for k, (at, _) in tapped.items() if k in arrived and arrived[k][1]]
        late = sum(ms > TARGET_MS for ms in hop)
        lost_events, not_at_tap, not_on_page, not_taken = 0, 0, 0, 0
        kinds = {k: kind for k, (_, kind) in tapped.items()} | {
            k: a[2] for k, a in arrived.items()}
        for index, (count, said) in enumerate(zip(told, numbered, strict=True)):
            name = f"table-{index}"
            page_ns = {k[2] for k in arrived if k[0] == name}
            tap_ns = {k[2] for k in tapped if k[0] == name}
            if said < 0:  # no word from the publisher: count against what the table told
                said = max(page_ns | tap_ns | {0})
            lost_events += sum(1 for n in range(1, said + 1) if n not in page_ns)
            not_at_tap += sum(1 for n in range(1, said + 1) if n not in tap_ns)
            not_on_page += len(tap_ns - page_ns)
            added = sum(1 for k, kind in kinds.items() if k[0] == name and kind in NOT_TOLD)
            not_taken += max(0, count - (said - added))
        tables_with_result = {t for t, _ in page_results}
        lost_results = args.tables - len(tables_with_result)
        lost = lost_events + not_taken + lost_results + failed
        load_after = os.getloadavg()

        source = (f"{live} live stones demos replayed on {args.tables} tables" if replaying
                  else f"{args.tables} live stones demos")
        print(f"games: {source} at --speed {args.speed:g}, {played:.1f} s; {sum(told)} "
              f"events told, {len(tapped)} at the broker, {len(arrived)} on the club page; "
              f"{len(page_results)} results on the page ({len(tap_results)} at the broker)")
        print(f"drain: outboxes {'empty' if drained else 'NOT empty'} {drain_s:.1f} s after "
              f"the tables ended ({_waiting(states)} message(s) waiting)")
        print(f"latency: broker to page p50 {_pct(hop, .5):.1f} ms p99 {_pct(hop, .99):.1f} "
              f"ms (over {len(hop)} events, {late} over {TARGET_MS:.0f} ms); publisher to "
              f"broker p99 {_pct(broker_side, .99):.1f} ms; end to end p99 "
              f"{_pct(end_to_end, .99):.1f} ms")
        pub = cpu("publishers")
        print(f"cpu (% of a core, over {span:.1f} s): publishers {sum(pub) / len(pub):.2f} "
              f"each, {sum(pub):.1f} in all; club page {sum(cpu('club page')):.1f}; broker "
              f"{sum(cpu('broker')):.1f}; bench (tap, page reader) {sum(cpu('bench')):.1f}"
              + (f"; tables {sum(cpu('tables')):.1f} in all" if not replaying
                 else f"; replay {sum(cpu('replay')):.1f} (the tables when recorded: "
                 f"{demo_cpu:.1f} in all for {live})"))
        print(f"memory: publishers rss {rss:.1f} MB (largest); club page {club_rss:.1f} MB")
        print(f"lost: {lost_events} of the {sum(max(0, n) for n in numbered)} event(s) the "
              f"publishers numbered never reached the page ({not_on_page} of them reached the "
              f"tap; the tap missed {not_at_tap}; the broker counted {tap.dropped} message(s) "
              f"it dropped for slow subscribers; the outboxes dropped {outbox_dropped}); "
              f"{not_taken} event(s) the tables told were never taken by a publisher; "
              f"{lost_results} table(s) without their result on the page; {failed} table(s) "
              f"failed; the page reader reconnected {reader.reconnects} time(s)")
        print(f"priority: tables and publishers at nice {args.nice}, broker, page and "
              "readers at 0")
        print(f"load: {load_before[0]:.2f} before, {load_after[0]:.2f} after (1 min); "
              f"{os.cpu_count()} cores")
        reader.stop()
        tap.close()
        live_words = f" live={live}" if replaying else ""
        print(f"club: tables={args.tables}{live_words} event_p99_ms={_pct(hop, .99):.1f} "
              f"publisher_rss_mb={rss:.1f} lost={lost}")
        return 0 if lost == 0 and _pct(hop, .99) <= TARGET_MS else 1
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
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
