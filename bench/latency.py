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

The table's moves and the floor's changes are taken in turn, side by side, each
on a board of its own, so that both meet the disk and the machine at the same
moments; 600 of each by default, so that the p99 is the seventh slowest rather
than the second.

The floor is the same path with a table that decides nothing: the same
board, link, service, settling and LED frames, and the same journal line
written and synced before its LEDs (journal before LEDs is not negotiable: a
confirmed move is on disk), but no engine: its decision is that line and one
LED toggled. The ratio shows what the table's rules and words add; target p99
at most 1.5 times the floor's. The bare floor (``bare``: no journal either) is
the floor of earlier rounds, printed beside it to compare. Target: p99 <= 5 ms
on this class of machine. The processing line also says how long the table's
journal line took, written and synced: what the disk adds (``--journal-dir
/dev/shm`` puts the journal on no disk, to compare).

Ends with `latency: confirm_p50_ms=A confirm_p99_ms=B processing_p99_ms=C
floor_p99_ms=D ratio=E bare_floor_p99_ms=F` (confirm: the worst game; ratio: C / D).
With ``--cpu-limit`` the table runs on one core with a share of it (about a Pi
Zero 2 W, ``cpu_limit.py``) and the line ends with the limit; the processing
board stays outside it, while each confirm demo carries its simulated board and
hands inside (as a table whose Pi scans its own sensors would: the harder case).

Run: .venv/bin/python bench/latency.py [--moves 600] [--seconds 30] [--cpu-limit [PERCENT]]
     [--journal-dir DIR]
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
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
    """Decides nothing, but records: each settled reading writes one journal line
    (synced, as an action's is) and toggles one LED."""

    decisions = 0
    journals = True

    def _decide(self, view, now: float) -> None:
        self.decisions += 1
        if self.journals:
            self.journal.append({"t": "action", "n": self.decisions,
                                 "action": {"kind": "step", "from": "c3", "to": "d4"}})

    def led_frame(self, now: float, rings: int) -> dict:
        frame = super().led_frame(now, rings)
        first = min(frame)
        frame[first] = (0, 0, 64) if self.decisions % 2 else (0, 64, 0)
        return frame


class BareFloorTable(FloorTable):
    """The floor of earlier rounds: no journal either."""

    journals = False


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


def moves(table: Timed, rng: random.Random) -> Iterator[float]:
    """Stones moves the sensors see at once, each confirmed by the table: one sample each,
    until the game has no such move left."""
    t = table.table
    table.board.set_stacks(stack_heights(t.position))
    while t.decided != BoardView.of(stack_heights(t.position)):
        time.sleep(0.01)
    table.devices.buttons.on_event(ButtonEvent("A", "press"))
    while t.state != "play":
        time.sleep(0.01)
    while not t.position.is_terminal():
        pos = t.position
        occupied = {sq for sq, _ in pos.stacks}
        fits = [m for m in pos.legal_actions()  # steps and jumps: seen at once
                if m.to not in occupied and candidate_moves(pos, sight_after(pos, m)) == (m,)]
        if not fits:
            return
        after = sight_after(pos, rng.choice(fits), 3)
        done = len(t.actions) + 1
        yield table.after(lambda h=frozenset(after.heights): table.board.set_stacks(h),
                          lambda n=done: len(t.actions) >= n)
        time.sleep(0.05)


def floor(table: Timed) -> Iterator[float]:
    """The same kind of board changes, to a table that decides nothing: one sample each."""
    t = table.table
    start = stack_heights(t.position)
    moved = sight_after(t.position, t.position.legal_actions()[0], 3).heights
    for k in itertools.count():
        heights = frozenset(moved if k % 2 == 0 else start)
        before = t.decisions
        yield table.after(lambda h=heights: table.board.set_stacks(h),
                          lambda b=before: t.decisions > b)
        time.sleep(0.05)


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def processing(count: int, seed: int, journal_dir: str | None = None
               ) -> dict[str, list[float]]:
    """The table's and the floor's samples, taken side by side (a move of the table, a change
    of the floor, and so on, each on a board process of its own: both meet the same disk and
    the same machine at the same moments), then the bare floor's; and how long each of the
    table's journal lines took (``journal``); ``journal_dir``: where the journals are
    (``/dev/shm``: no disk, to see what the disk's sync costs)."""
    limit = CpuLimit.from_env()  # under --cpu-limit: the board is hardware of its own
    results: dict[str, list[float]] = {"table": [], "floor": [], "bare": []}
    opened: dict[str, tuple[BoardProcess, Timed]] = {}
    makes = {"table": StonesTable, "floor": FloorTable, "bare": BareFloorTable}

    def open_one(name: str) -> Timed:
        board = BoardProcess()
        if limit is not None:
            limit.exempt(board.pid)
        timed = Timed(board, makes[name](StonesGame(StonesOptions(ply_limit=10_000)), Journal(
            tempfile.mkdtemp(prefix="obelisk-latency-", dir=journal_dir))))
        opened[name] = board, timed
        return timed

    def close(name: str) -> None:
        board, timed = opened.pop(name)
        timed.close()
        board.close()

    try:
        table, durable = open_one("table"), open_one("floor")
        pair = {"table": moves(table, random.Random(seed)), "floor": floor(durable)}
        for k in range(count):
            order = ("table", "floor") if k % 2 == 0 else ("floor", "table")
            taken = [(name, next(pair[name], None)) for name in order]
            if any(sample is None for _, sample in taken):
                break  # the table's game has no move left that the sensors see at once
            for name, sample in taken:
                results[name].append(sample)
        results["journal"] = table.synced
        close("table")
        close("floor")
        bare = floor(open_one("bare"))
        results["bare"] = [next(bare) for _ in range(min(count, 200))]
    finally:
        for name in list(opened):
            close(name)
    for name in ("table", "floor", "bare"):
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
    parser.add_argument("--moves", type=int, default=600,
                        help="moves of the table, and as many changes of the floor, taken in "
                        "turn (the bare floor: at most 200)")
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
        (b50, b99), (j50, j99) = summary(results["bare"]), summary(results["journal"])
        print(f"processing: p50={p50:.2f} p99={p99:.2f} ms, floor p50={f50:.2f} p99={f99:.2f} "
              f"ms (the table adds {p50 - f50:.2f} ms at the median, p99 {p99 / f99:.2f} "
              f"times the floor's); bare floor (no journal) p50={b50:.2f} p99={b99:.2f} ms "
              f"({p99 / b99:.2f} times); a journal line, written and synced: p50={j50:.2f} "
              f"p99={j99:.2f} ms", flush=True)
        c50, c99 = confirm.measure(list(confirm.GAMES), args.seconds, args.seed, limit)
    finally:
        if limit is not None:
            limit.close()
    under = f" cpu_limit={limit.percent:g}%" if limit is not None else ""
    print(f"latency: confirm_p50_ms={c50:.1f} confirm_p99_ms={c99:.1f} "
          f"processing_p99_ms={p99:.2f} floor_p99_ms={f99:.2f} ratio={p99 / f99:.2f} "
          f"bare_floor_p99_ms={b99:.2f}{under}")


if __name__ == "__main__":
    main()
