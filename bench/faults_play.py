"""Abuses `obelisk play` as people do, and counts what it lost: a frozen page, a process left.

Three classes of fault (issues 30 and 45), each tried ``rounds`` times on a play of its own, on a
directory of its own, found by their pids in /proc (never by name):

- 2, flood: far more log than a pipe holds (bad requests to the page, each logging a
  4 kB path); held when the page, the service and the board all still answer, and
  Ctrl-C then stops all three;
- 7, stop: Ctrl-C, SIGTERM, SIGHUP or SIGKILL at a random moment (while it starts or
  while it plays, after a second play on the same directory was refused); held when
  no process of that play is left and the refused one touched none of the first's files.

- 16, a child stopped or killed: one of the play's board, service and page gets SIGSTOP
  or SIGKILL at a random moment (while the play starts, or once a stones game is under
  way with a move on disk); a stopped one is continued, or the play is stopped with
  Ctrl-C while it is still paused; then the same command is typed again. Held when the
  play said in words what happened to which, no process is left, every journal entry
  on disk before is still there, and the same command resumes the game.

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
from firmware.service.command_socket import SOCKET as CONTROL_SOCKET
from firmware.service.command_socket import send
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


CHILDREN = {"board": (b"firmware.sim.hands_board", "simulated board"),
            "service": (b"\0run\0", "table service"), "page": (b"\0web\0", "page")}


def _child(playing: Play, name: str) -> int | None:
    """The pid of one of the play's processes, by its command line (None: not yet)."""
    from tests.support.processes import children

    for pid in children(playing.process.pid):
        with contextlib.suppress(OSError):
            if CHILDREN[name][0] in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    return None


def _state(playing: Play) -> str:
    try:
        return send(playing.dir, {"command": "status"}, timeout=5.0)["state"]
    except (OSError, KeyError):
        return ""


def _begin_and_move(playing: Play) -> list[dict]:
    """The stones set out, the game begun, a first move made: the journal once it is on disk."""
    from engine.core import square_name
    from engine.stones.game import StonesGame
    from firmware.store.journal import Journal

    ask(playing.dir / "hands.sock", {"act": "setup"})
    until(lambda: playing.press("A") and _state(playing) == "play", 60, "the game to begin")
    state = StonesGame().new_initial_state()
    move, seat = state.legal_actions()[0], state.current_player().value
    ask(playing.dir / "hands.sock", {"act": "lift", "seat": seat, "count": 1,
                                     "square": square_name(move.frm)})
    ask(playing.dir / "hands.sock", {"act": "put", "seat": seat, "square": square_name(move.to)})
    return until(lambda: (entries := list(Journal(playing.dir).read().entries))
                 and any(e.get("t") == "action" for e in entries) and entries, 60,
                 "the first move on disk")


def child(where: Path, rng: random.Random) -> bool:
    """Class 16: one child stopped or killed at a random moment, then the same command."""
    from firmware.store.journal import Journal

    name, signum = rng.choice(list(CHILDREN)), rng.choice([signal.SIGSTOP, signal.SIGKILL])
    what = CHILDREN[name][1]
    playing = Play("stones", where / "table", logs=where)
    again = Play("stones", where / "table", logs=where, name="again")
    kept: list[dict] = []
    try:
        if rng.random() < 0.4:
            playing.start()
            pid = until(lambda: _child(playing, name), START_S, f"the {name} to start")
        else:
            playing.started()
            kept = _begin_and_move(playing)
            pid = _child(playing, name)
        time.sleep(rng.uniform(0.0, 0.5))  # the moment itself, drawn
        os.kill(pid, signum)
        said = until(lambda: (playing.process.poll() is not None
                              or "SIGSTOP" in playing.err.read_text())
                     and playing.err.read_text(), 60, "the play to say what happened")
        if playing.process.poll() is None:  # paused while it plays: said, and it waits
            told = f"the {what} was stopped (a SIGSTOP" in said and f"kill -CONT {pid}" in said
            if rng.random() < 0.5:
                os.kill(pid, signal.SIGCONT)
                until(lambda: f"the {what} goes on" in playing.err.read_text(), 30,
                      "the play to say it goes on")
            playing.ctrl_c()
            playing.process.wait(GONE_S)
        else:
            told = playing.process.returncode == 2 and f"the {what} " in said and (
                "killed (SIGKILL)" in said or "before it was ready" in said)
        told = told and "Traceback" not in playing.err.read_text()
        gone = _all_gone(playing)
        intact = list(Journal(playing.dir).read().entries)[:len(kept)] == kept
        again.started()
        resumed = not kept or until(lambda: _state(again) == "play", 60, "the game to resume")
        resumed = resumed and list(Journal(again.dir).read().entries)[:len(kept)] == kept
        held = told and gone and intact and bool(resumed)
        if not held:
            print(f"  lost: {name} {signal.Signals(signum).name}: told {told}, gone {gone}, "
                  f"intact {intact}, resumed {resumed}: {said.strip()[-300:]}", file=sys.stderr)
        return held
    except TROUBLE as exc:
        print(f"  lost: {name} {signal.Signals(signum).name}: {exc}", file=sys.stderr)
        return False
    finally:
        again.close()
        _all_gone(playing)


def run(rounds: int, seed: int = 1) -> list[dict]:
    """Each class tried ``rounds`` times: how many held and how many lost something."""
    rng = random.Random(seed)
    results = []
    for number, name, trial in ((2, "flood", lambda where: flood(where)),
                                (7, "stop", lambda where: stop(where, rng)),
                                (16, "a child stopped or killed",
                                 lambda where: child(where, rng))):
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
