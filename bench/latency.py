"""How fast the table confirms: from the touch, and once the reading has settled.

Confirm latency (``bench/confirm.py``, every game in real time): from the
hand's change of the simulated table that completes an action to the LED
frame that confirms it. Targets: median <= 150 ms, p99 <= 250 ms.

Processing, with the floor:

The whole simulated stack runs: the simulated board (in a process of its
own, as a real board is hardware of its own) scans its switches and sends
frames over a pseudo-terminal, the service settles the readings,
re-reads the board, asks the engine, writes the journal (fsync) and sends
the LED frame that lights the move's square. For each of many stones moves
this measures, from the moment the reading had settled (its settle window
ended: the service must wake for it) to the LED frame that confirms it.

The floor is the same path with a table that decides nothing: the same
board, link, service, settling and LED frames, but its decision is only to
toggle one LED, with no engine and no journal. The ratio shows what the
table adds. Target: p99 <= 5 ms on this class of machine. The processing line
also says how long the table's journal line took, written and synced: what the
disk adds (``--journal-dir /dev/shm`` puts the journal on no disk, to compare).

Ends with `latency: confirm_p50_ms=A confirm_p99_ms=B processing_p99_ms=C
floor_p99_ms=D` (confirm: the worst game). With ``--cpu-limit`` the table runs
on one core with a share of it (about a Pi Zero 2 W, ``cpu_limit.py``) and the
line ends with the limit; the processing board stays outside it, while each
confirm demo carries its simulated board and hands inside (as a table whose Pi
scans its own sensors would: the harder case).

Run: .venv/bin/python bench/latency.py [--moves 200] [--seconds 30] [--cpu-limit [PERCENT]]
     [--journal-dir DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import confirm
from cpu_limit import CpuLimit, add_option, open_limit
from sim_board import BoardProcess

from engine.stones.game import StonesGame, StonesOptions
from engine.stones.sensing import BoardView, candidate_moves, sight_after, stack_heights
from firmware.service.loop import TableService
from firmware.stones.table import StonesTable
from firmware.stones.view import view_of
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent
from hardware.devices import open_table


class FloorTable(StonesTable):
    """Decides nothing: each settled reading only toggles one LED."""

    decisions = 0

    def _decide(self, view, now: float) -> None:
        self.decisions += 1

    def led_frame(self, now: float, rings: int) -> dict:
        frame = super().led_frame(now, rings)
        first = min(frame)
        frame[first] = (0, 0, 64) if self.decisions % 2 else (0, 64, 0)
        return frame


class Timed:
    """The service, the board and the clocks the measurement needs, for one table."""

    def __init__(self, board: BoardProcess, table: StonesTable) -> None:
        self.board, self.table = board, table
        self.synced: list[float] = []  # ms each journal line took, written and synced
        append = table.journal.append

        def timed_append(entry: dict) -> None:
            started = time.perf_counter()
            append(entry)
            self.synced.append((time.perf_counter() - started) * 1000)

        table.journal.append = timed_append
        self.devices = open_table(board.profile())
        self.service = TableService(self.devices, table, view_of)
        self.due: list[float] = []  # when each settled reading had settled
        self.shows: list[float] = []  # when each LED frame went out
        settled = table.settler.settled

        def noting(now: float):
            deadline = table.settler.deadline()
            value = settled(now)
            if value is not None and deadline is not None:
                self.due.append(deadline)
            return value

        table.settler.settled = noting
        show = self.devices.leds.show

        def timed_show() -> None:
            show()
            self.shows.append(time.monotonic())

        self.devices.leds.show = timed_show
        gc.freeze()  # as `obelisk run` does once it has started
        self.loop = threading.Thread(target=self.service.run, daemon=True)
        self.loop.start()

    def after(self, change, done) -> float:
        """Make ``change`` on the board; ms from its settling to the next LED frame."""
        settled, shown = len(self.due), len(self.shows)
        change()
        deadline = time.monotonic() + 5
        while not done() or len(self.due) <= settled or \
                not any(t >= self.due[settled] for t in self.shows[shown:]):
            if time.monotonic() > deadline:
                raise SystemExit(f"no LED frame after a change: {self.table.state} "
                                 f"{self.table.problem}")
            time.sleep(0.002)
        due = self.due[settled]
        return (next(t for t in self.shows[shown:] if t >= due) - due) * 1000

    def close(self) -> None:
        self.service.stopping.set()
        self.loop.join(timeout=5)
        self.devices.close()


def moves(table: Timed, count: int, rng: random.Random) -> list[float]:
    """Stones moves the sensors see at once, each confirmed by the table."""
    t = table.table
    table.board.set_stacks(stack_heights(t.position))
    while t.decided != BoardView.of(stack_heights(t.position)):
        time.sleep(0.01)
    table.devices.buttons.on_event(ButtonEvent("A", "press"))
    while t.state != "play":
        time.sleep(0.01)
    samples = []
    while len(samples) < count:
        pos = t.position
        if pos.is_terminal():
            break
        occupied = {sq for sq, _ in pos.stacks}
        fits = [m for m in pos.legal_actions()  # steps and jumps: seen at once
                if m.to not in occupied and candidate_moves(pos, sight_after(pos, m)) == (m,)]
        if not fits:
            break
        after = sight_after(pos, rng.choice(fits), 3)
        done = len(t.actions) + 1
        samples.append(table.after(
            lambda h=frozenset(after.heights): table.board.set_stacks(h),
            lambda n=done: len(t.actions) >= n))
        time.sleep(0.05)
    return samples


def floor(table: Timed, count: int) -> list[float]:
    """The same board changes, to a table that only toggles an LED."""
    t = table.table
    start = stack_heights(t.position)
    moved = sight_after(t.position, t.position.legal_actions()[0], 3).heights
    samples = []
    for k in range(count):
        heights = frozenset(moved if k % 2 == 0 else start)
        before = t.decisions
        samples.append(table.after(lambda h=heights: table.board.set_stacks(h),
                                   lambda b=before: t.decisions > b))
        time.sleep(0.05)
    return samples


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def processing(count: int, seed: int, journal_dir: str | None = None
               ) -> dict[str, list[float]]:
    """The table's and the floor's samples, each table on a board process of its own, and
    how long each journal line took (``journal``); ``journal_dir``: where the journal is
    (``/dev/shm``: no disk, to see what the disk's sync costs)."""
    limit = CpuLimit.from_env()  # under --cpu-limit: the board is hardware of its own
    results = {}
    for name, make in (("table", StonesTable), ("floor", FloorTable)):
        board = BoardProcess()
        if limit is not None:
            limit.exempt(board.pid)
        table = Timed(board, make(StonesGame(StonesOptions(ply_limit=10_000)), Journal(
            tempfile.mkdtemp(prefix="obelisk-latency-", dir=journal_dir))))
        try:
            results[name] = (moves(table, count, random.Random(seed))
                             if name == "table" else floor(table, count))
        finally:
            table.close()
            board.close()
        if name == "table":
            results["journal"] = table.synced
        samples = results[name]
        print(f"{name}: {len(samples)} changes; settled -> LED frame, ms: min "
              f"{min(samples):.2f}, mean {statistics.fmean(samples):.2f}, max "
              f"{max(samples):.2f}", flush=True)
    return results


def limited_processing(limit: CpuLimit, count: int, seed: int,
                       journal_dir: str | None = None) -> dict[str, list[float]]:
    """``processing`` in a process of its own under the limit (its board exempt)."""
    run = limit.run([sys.executable, str(Path(__file__).resolve()), "--processing-only",
                     "--moves", str(count), "--seed", str(seed)]
                    + ([] if journal_dir is None else ["--journal-dir", journal_dir]),
                    stdout=subprocess.PIPE, text=True, timeout=1800)
    lines = (run.stdout or "").strip().splitlines()
    if run.returncode != 0 or not lines:
        raise SystemExit(f"the processing run under the limit failed (exit {run.returncode})")
    print("\n".join(lines[:-1]))
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="real seconds of play per game for the confirm latency")
    add_option(parser)
    parser.add_argument("--journal-dir", default=None,
                        help="where the processing table keeps its journal (default: a new "
                        "directory under the system's temporary one; /dev/shm: no disk)")
    parser.add_argument("--processing-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.processing_only:  # the child of a limited run: the samples as JSON, last
        print(json.dumps(processing(args.moves, args.seed, args.journal_dir)))
        return
    limit = open_limit(args.cpu_limit)
    try:
        if limit is None:
            results = processing(args.moves, args.seed, args.journal_dir)
        else:
            print(f"the table runs under {limit.note()}; the simulated board does not",
                  flush=True)
            results = limited_processing(limit, args.moves, args.seed, args.journal_dir)
        (p50, p99), (f50, f99) = summary(results["table"]), summary(results["floor"])
        (j50, j99) = summary(results["journal"])
        print(f"processing: p50={p50:.2f} p99={p99:.2f} ms, floor p50={f50:.2f} p99={f99:.2f} "
              f"ms (the table adds {p50 - f50:.2f} ms at the median); a journal line, "
              f"written and synced: p50={j50:.2f} p99={j99:.2f} ms", flush=True)
        c50, c99 = confirm.measure(list(confirm.GAMES), args.seconds, args.seed, limit)
    finally:
        if limit is not None:
            limit.close()
    under = f" cpu_limit={limit.percent:g}%" if limit is not None else ""
    print(f"latency: confirm_p50_ms={c50:.1f} confirm_p99_ms={c99:.1f} "
          f"processing_p99_ms={p99:.2f} floor_p99_ms={f99:.2f}{under}")


if __name__ == "__main__":
    main()
