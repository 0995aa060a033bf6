"""How long the table takes to confirm a move once it has settled.

The whole simulated stack runs: the simulated board (in a process of its
own, as a real board is hardware of its own) scans its switches and sends
frames over a pseudo-terminal, the service settles the readings,
re-reads the board, asks the engine, writes the journal (fsync) and sends
the LED frame that lights the move's square. For each of many stones moves
this measures, from the arrival of the frame that completed the change to
the LED frame that confirms it, that time minus the settle time (which is a
deliberate wait, not processing). Ends with `latency_ms: p50=X p99=Y`.
Target: p99 <= 5 ms on this class of machine.

Run: .venv/bin/python bench/latency.py [--moves 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time

from sim_board import BoardProcess

from engine.stones.game import StonesGame, StonesOptions
from engine.stones.sensing import BoardView, candidate_moves, sight_after, stack_heights
from firmware.journal import Journal
from firmware.service import TableService
from firmware.stones.table import StonesTable
from firmware.stones.view import view_of
from hardware.buttons import ButtonEvent
from hardware.devices import open_table

SETTLE_S = 0.3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    board = BoardProcess()
    devices = open_table(board.profile())
    table = StonesTable(StonesGame(StonesOptions(ply_limit=10_000)),
                        Journal(tempfile.mkdtemp(prefix="obelisk-latency-")),
                        settle_s=SETTLE_S)
    service = TableService(devices, table, view_of)
    arrivals: dict[BoardView, float] = {}
    shows: list[tuple[float, int]] = []
    forward = devices.link.on_snapshot

    def on_snapshot(snapshot) -> None:
        arrivals.setdefault(view_of(snapshot), time.perf_counter())
        forward(snapshot)

    show = devices.leds.show

    def timed_show() -> None:
        show()
        shows.append((time.perf_counter(), len(table.actions)))

    devices.link.on_snapshot = on_snapshot
    devices.leds.show = timed_show
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    board.set_stacks(stack_heights(table.position))
    while table.decided != BoardView.of(stack_heights(table.position)):
        time.sleep(0.01)
    devices.buttons.on_event(ButtonEvent("A", "press"))
    while table.state != "play":
        time.sleep(0.01)

    samples = []
    try:
        while len(samples) < args.moves:
            pos = table.position
            if pos.is_terminal():
                break
            occupied = {sq for sq, _ in pos.stacks}
            moves = [m for m in pos.legal_actions()  # steps and jumps: seen at once
                     if m.to not in occupied and candidate_moves(pos, sight_after(pos, m)) == (m,)]
            if not moves:
                break
            move = rng.choice(moves)
            after = sight_after(pos, move, 3)
            arrivals.clear()
            done = len(table.actions) + 1
            board.set_stacks(frozenset(after.heights))  # the stone moves: one change, at once
            deadline = time.monotonic() + 5
            while len(table.actions) < done or not any(n >= done for _, n in shows):
                if time.monotonic() > deadline:
                    raise SystemExit(f"no confirmation for {pos.move_to_string(move)}: "
                                     f"{table.state} {table.problem}")
                time.sleep(0.002)
            seen = BoardView.of(after.heights)
            confirmed = next(t for t, n in shows if n >= done)
            samples.append((confirmed - arrivals[seen] - SETTLE_S) * 1000)
            time.sleep(0.05)
    finally:
        service.stopping.set()
        loop.join(timeout=5)
        devices.close()
        board.close()
    samples.sort()
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
    print(f"{len(samples)} moves; processing after settling, ms: min {samples[0]:.2f}, "
          f"mean {statistics.fmean(samples):.2f}, max {samples[-1]:.2f}")
    print(f"latency_ms: p50={p50:.2f} p99={p99:.2f}")


if __name__ == "__main__":
    main()
