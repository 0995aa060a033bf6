"""Two tables of a remote match as processes: each an ``obelisk demo ... --remote`` and its
``obelisk remote`` link, on a real mosquitto (``tests/support/broker.py``). Shared by
``tests/match/test_matches.py`` and ``bench/remote.py``.

``LinkedPair`` is the same match with its two links in the test's own process and each
table a stand-in (``StandIn``): its journal, and the commands its link sent it. A third
client on the broker (``tests/match/test_strangers.py``) can then forge, replay and flood,
and what each link handed its table is there to check."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.support.broker import Mosquitto
from tests.support.processes import until

OBELISK = [sys.executable, "-m", "firmware.cli"]


def journal_of(where: Path) -> list[dict]:
    path = where / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def actions_of(where: Path) -> list[dict]:
    return [e for e in journal_of(where) if e.get("t") == "action"]


def is_over(where: Path) -> bool:
    return any(e.get("t") == "over" for e in journal_of(where))


def sealed_by(game, table: str, part: str, value: dict) -> str:
    """``value`` as ``table``'s link seals it for ``part`` of ``game`` (its topic, its table and
    its place inside the seal: ``firmware.match.guard``)."""
    from firmware.match.guard import Guard

    return Guard(table).seal(game, part, value)


class StandIn:
    """A table as its link sees it: a journal (the test writes this table's own moves; the
    other table's are made as the link hands them, as the person here would make them) and
    every command its link sent it."""

    def __init__(self, where: Path, match: str, seat: str, seed: int,
                 game: str = "stones") -> None:
        where.mkdir(parents=True, exist_ok=True)
        self.dir = where
        self.commands: list[dict] = []
        self._lock = threading.Lock()
        self._write({"t": "start", "game": game, "options": {}, "seed": seed,
                     "remote": {"match": match, "seat": seat}})

    def _write(self, entry: dict) -> None:
        with open(self.dir / "journal.jsonl", "a") as journal:
            journal.write(json.dumps(entry) + "\n")

    def actions(self) -> list[dict]:
        return [e["action"] for e in actions_of(self.dir)]

    def move(self, action: dict) -> None:
        """A move made at this table: in its journal, for its link to send."""
        with self._lock:
            self._write({"t": "action", "n": len(self.actions()) + 1, "action": action})

    def take(self, command: dict) -> dict:
        """A command from the link: the other table's next move is made here at once."""
        with self._lock:
            self.commands.append(command)
            if command["command"] == "peer":
                if command["n"] == len(self.actions()) + 1:
                    self._write({"t": "action", "n": command["n"], "action": command["action"]})
                return {"ok": True, "message": "lit for the person here to make"}
        if command["command"] == "status":
            return {"ok": True, "remote": None}
        return {"ok": True, "message": "taken"}

    def told(self, kind: str) -> list[dict]:
        with self._lock:
            return [c for c in self.commands if c["command"] == kind]


class LinkedPair:
    """Tables "ta" (seat A) and "tb" (seat B) of match ``match``, their links in this process
    on ``broker``, the game's seed drawn from the match and ``secret`` as the tables draw it.
    ``monkeypatch`` routes each link's commands to its stand-in."""

    def __init__(self, home: Path, broker: Mosquitto, monkeypatch, match: str = "m",
                 secret: str = "tulip") -> None:
        from firmware.match.link import Link
        from firmware.match.seat import match_seed
        from firmware.readers.club.config import config_from
        from firmware.service import command_socket

        self.match = match
        seed = match_seed(match, secret)
        self.a = StandIn(home / "ta", match, "A", seed)
        self.b = StandIn(home / "tb", match, "B", seed)
        tables = {str(self.a.dir): self.a, str(self.b.dir): self.b}
        monkeypatch.setattr(command_socket, "send", lambda where, command, timeout=0:
                            tables[str(where)].take(command))
        self.links = {name: Link(config_from({"broker": broker.url, "table": name}),
                                 table.dir) for name, table in (("ta", self.a),
                                                                ("tb", self.b))}
        self._threads = [threading.Thread(target=link.run, daemon=True)
                         for link in self.links.values()]
        for thread in self._threads:
            thread.start()
        until(lambda: self.links["ta"].broker.other.name == "tb"
              and self.links["tb"].broker.other.name == "ta", 30,
              "the two links finding each other")

    def play(self, table: StandIn, action: dict) -> None:
        """``table``'s player moves; back once the other table holds the move."""
        other = self.b if table is self.a else self.a
        table.move(action)
        until(lambda: action in other.actions(), 30, f"the move {action} at the other table")

    def close(self) -> None:
        for link in self.links.values():
            link.stop()
        for thread in self._threads:
            thread.join(30)


class Table:
    """One table of the match: its demo and its link, as processes."""

    def __init__(self, home: Path, broker: Mosquitto, game: list[str], match: str,
                 seat: str) -> None:
        self.dir = home / f"table-{seat.lower()}"
        self.name = f"{match}-{seat.lower()}"
        self.broker = broker
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.env = env
        self.log = home / f"link-{seat}.log"
        self.link = self._link()  # first: a link up before the first move
        self.demo_args = [*OBELISK, "demo", *game, "--remote", match, "--seat", seat, "--json",
                          "--state-dir", str(self.dir)]
        self.demo_log = home / f"demo-{seat}.err"
        self.demo = self._demo()

    def _demo(self) -> subprocess.Popen:
        return subprocess.Popen(self.demo_args, stdout=subprocess.DEVNULL,
                                stderr=open(self.demo_log, "a"), env=self.env)

    def kill_table(self) -> None:
        """The table's plug pulled (its demo SIGKILLed) and put back: it resumes its journal."""
        self.demo.send_signal(signal.SIGKILL)
        self.demo.wait(10)
        self.demo = self._demo()

    def cut_off(self, seconds: float) -> None:
        """The network between the link and the broker gone a while (the link stopped: its
        keepalive runs out and the broker tells its last will), then back."""
        self.link.send_signal(signal.SIGSTOP)
        time.sleep(seconds)  # a fault's length, in a fault thread (not a test's wait)
        self.link.send_signal(signal.SIGCONT)

    def _link(self) -> subprocess.Popen:
        return subprocess.Popen(
            [*OBELISK, "remote", "--state-dir", str(self.dir), "--broker", self.broker.url,
             "--table", self.name], stdout=subprocess.DEVNULL,
            stderr=open(self.log, "a"), env=self.env)

    def kill_link(self) -> None:
        self.link.send_signal(signal.SIGKILL)
        self.link.wait(10)
        self.link = self._link()

    def stop(self) -> None:
        for proc in (self.demo, self.link):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


class WholeMatches:
    """Whole matches of several games on one broker, started together and left to play
    while other tests run: each mostly waits on its simulated sensors' real time."""

    def __init__(self, home: Path, games: dict[str, tuple[str, list[str], str]]) -> None:
        self.broker = Mosquitto(home / "broker").start()
        self.tables: dict[str, tuple[Table, Table]] = {}
        self.faults: list[str] = []  # the faults done, in words
        for name, (match, args, fault) in games.items():
            (home / name).mkdir()
            self.tables[name] = tuple(Table(home / name, self.broker, args, match, seat)
                                      for seat in "AB")
            threading.Thread(target=self._fault, args=(name, fault), daemon=True).start()

    def _fault(self, name: str, fault: str) -> None:
        """``fault`` at table B once it holds five actions: "kill" its demo and start it
        again, or "cut" its link off the network for 20 s."""
        b = self.tables[name][1]
        while len(actions_of(b.dir)) < 5:
            if b.demo.poll() is not None:
                return
            time.sleep(0.2)  # a background thread's poll of the journal
        if fault == "kill":
            b.kill_table()
        elif fault == "cut":
            b.cut_off(20.0)
        self.faults.append(f"{name}: {fault} at action {len(actions_of(b.dir))}")

    def ended(self, name: str, timeout: float) -> tuple[Path, Path]:
        """The two tables' state directories, once both journals hold the game's end."""

        a, b = self.tables[name]
        until(lambda: is_over(a.dir) and is_over(b.dir), timeout,
                 f"the whole {name} match's end at both tables (logs in {a.dir.parent})")
        return a.dir, b.dir

    def close(self) -> None:
        for pair in self.tables.values():
            for table in pair:
                table.stop()
        self.broker.stop()
