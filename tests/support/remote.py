"""Two tables of a remote match as processes: each an ``obelisk demo ... --remote`` and its
``obelisk remote`` link, on a real mosquitto (``tests/support/broker.py``). Shared by
``tests/match/test_matches.py`` and ``bench/remote.py``."""

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
