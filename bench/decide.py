"""The table's own work on a settled reading, from the window's end to its LED frame.

``latency.py`` times the whole road (the loop waking, the board read again, the
decision, the journal's fsync, the frame) against a floor table, on a real
clock beside whatever else the machine runs. This takes the table's part
alone, in one process on a controlled clock: a stones table fed each move's
view as the board would show it, then ticked as its short window closes, and
timed from that tick to its LED frame (``Table.tick`` and ``led_frame``: the
decision, the journal line and its fsync, the events, the frame). No board, no
link, no thread wakes, so two versions of the code compare on a busy machine.

``--journal-dir`` puts the journal elsewhere (``/dev/shm``: no disk, so the
Python work alone); ``--profile`` prints cProfile's view of the same path.

Ends with `decide: moves=N p50_ms=A p99_ms=B max_ms=C`.

Run: .venv/bin/python bench/decide.py [--moves 200] [--games 5] [--journal-dir DIR] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import statistics
import tempfile
import time

from engine.stones.game import StonesGame, StonesOptions
from engine.stones.sensing import BoardView, candidate_moves, sight_after, stack_heights
from firmware.stones.table import StonesTable
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent

RING = 16
"""Pixels a ring, as the bench board's profile has them."""


def one_game(moves: int, seed: int, journal_dir: str | None,
             profile: cProfile.Profile | None) -> list[float]:
    """``moves`` stones moves the sensors see at once; ms from each window's end to its frame."""
    table = StonesTable(StonesGame(StonesOptions(ply_limit=10_000)),
                        Journal(tempfile.mkdtemp(prefix="obelisk-decide-", dir=journal_dir)))
    now = 0.0
    table.start(now)
    table.on_view(BoardView.of(stack_heights(table.position), 3), now)
    now += 1.0
    table.tick(now)
    table.on_button(ButtonEvent("A", "press"), now)
    rng, samples = random.Random(seed), []
    while len(samples) < moves and not table.position.is_terminal():
        pos = table.position
        occupied = {sq for sq, _ in pos.stacks}
        fits = [m for m in pos.legal_actions()
                if m.to not in occupied and candidate_moves(pos, sight_after(pos, m)) == (m,)]
        if not fits:
            break
        now += 1.0
        table.on_view(sight_after(pos, rng.choice(fits), 3), now)  # as the board shows it
        now += table.settler.quick_s
        if profile is not None:
            profile.enable()
        began = time.perf_counter()
        table.tick(now)
        frame = table.led_frame(now, RING)
        took = time.perf_counter() - began
        if profile is not None:
            profile.disable()
        table.tell_lights(frame)
        if table.position is pos:
            raise SystemExit(f"a sure move was not taken: {table.state} {table.problem}")
        samples.append(took * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves a game")
    parser.add_argument("--games", type=int, default=5, help="games, each of its own seed")
    parser.add_argument("--journal-dir", help="where the journals go (default: the temp dir)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    gc.freeze()  # as `obelisk run` does once it has started
    samples: list[float] = []
    for seed in range(1, args.games + 1):
        samples += one_game(args.moves, seed, args.journal_dir, profile)
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(f"decide: moves={len(ordered)} p50_ms={statistics.median(ordered):.3f} "
          f"p99_ms={p99:.3f} max_ms={ordered[-1]:.3f}")


if __name__ == "__main__":
    main()
