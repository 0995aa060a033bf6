"""Abuses `obelisk play` as people do, and counts what it lost: a frozen page, a process left.

Two classes of fault (issue 30), each tried ``rounds`` times on a play of its own, on a
directory of its own, found by their pids in /proc (never by name):

- 2, flood: far more log than a pipe holds (bad requests to the page, each logging a
  4 kB path); held when the page, the service and the board all still answer, and
  Ctrl-C then stops all three;
- 7, stop: Ctrl-C, SIGTERM, SIGHUP or SIGKILL at a random moment (while it starts or
  while it plays, after a second play on the same directory was refused); held when
  no process of that play is left and the refused one touched none of the first's files.

"lost" is a frozen page or a process left behind (killed by its pid before the next
round). Prints one line per class and ends with `faults_play: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_play.py [--rounds 5] [--seed 1]
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fault_tally import bench_main
from firmware.service.control import SOCKET as CONTROL_SOCKET
from firmware.service.control import send
from hardware.sim.line_socket import LineSocketError, ask
from tests.support.play import GONE_S, START_S, Play
from tests.support.processes import OBELISK, on_directory, until

FLOOD = 400
"""Bad requests a round: some 1.6 MB of log, 25 pipes' worth."""
JUNK = "/" + "x" * 4000
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL)
KEPT = ("hands.sock", "buttons.sock", CONTROL_SOCKET, "scanner", "sim-board.toml")
"""The first play's files a second one must leave alone."""

TROUBLE = (AssertionError, OSError, subprocess.TimeoutExpired)
"""A play that did not start, or did not stop in time: that round lost something."""


def _all_gone(playing: Play) -> bool:
    """Whether every process of that play stops in time; those left are killed by pid."""
    with contextlib.suppress(AssertionError):
        until(lambda: not on_directory(playing.dir), GONE_S, "every process to stop")
    left = bool(on_directory(playing.dir))
    playing.close()
    return not left


def _answers(playing: Play) -> bool:
    """The page, the service and the board each answer."""
    try:
        return (playing.page("/") == 200 and send(playing.dir, {"command": "status"})["ok"]
                and ask(playing.dir / "hands.sock", {"act": "look"})["ok"])
    except (OSError, LineSocketError, KeyError):
        return False


def flood(where: Path) -> bool:
    """Class 2: a flood of bad requests, then Ctrl-C."""
    playing = Play("towers", where / "table", logs=where)
    try:
        playing.started()
        answered = all(playing.page(f"{JUNK}{n}") == 404 for n in range(FLOOD))
        answered = answered and _answers(playing)
        playing.process.send_signal(signal.SIGINT)
        playing.process.wait(GONE_S)
    except TROUBLE:
        answered = False
    finally:
        gone = _all_gone(playing)
    return answered and gone


def stop(where: Path, rng: random.Random) -> bool:
    """Class 7: a second play refused, a signal at a random moment."""
    signum = rng.choice(SIGNALS)
    playing = Play("towers", where / "table", logs=where)
    try:
        if rng.random() < 0.5:  # while it starts: anywhere in its first two seconds
            playing.start()
            time.sleep(rng.uniform(0.0, 2.0))
            intact = True
        else:
            playing.started()
            before = {name: os.lstat(playing.dir / name).st_ino for name in KEPT}
            second = subprocess.run([OBELISK, "play", "towers", "--port", "0", "--state-dir",
                                     str(playing.dir)], stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True, timeout=START_S)
            after = {name: os.lstat(playing.dir / name).st_ino for name in KEPT
                     if (playing.dir / name).exists()}
            intact = second.returncode == 2 and after == before and _answers(playing)
        os.kill(playing.process.pid, signum)
        playing.process.wait(GONE_S)
    except TROUBLE:
        intact = False
    finally:
        gone = _all_gone(playing)
    return intact and gone


def run(rounds: int, seed: int = 1) -> list[dict]:
    """Each class tried ``rounds`` times: how many held and how many lost something."""
    rng = random.Random(seed)
    results = []
    for number, name, trial in ((2, "flood", lambda where: flood(where)),
                                (7, "stop", lambda where: stop(where, rng))):
        held = 0
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(prefix="faults-play-") as where:
                held += trial(Path(where))
        results.append({"class": number, "name": name, "tried": rounds, "held": held,
                        "lost": rounds - held})
    return results


def main() -> None:
    bench_main("faults_play", __doc__, run)


if __name__ == "__main__":
    main()
