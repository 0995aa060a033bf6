"""The long run of the search over two real tables: random schedules of a match between two
of the project's tables on the simulated sensors, each with its real link, over a fake broker
that loses, doubles, reorders and delays messages, replays retained ones and restarts; either
table restarts from its journal, either link restarts or loses the broker
(``tests/support/table_search.py``).

Each seed is one schedule on one of the four games in turn; every schedule ends with the two
tables left to settle and is checked there: the same journals, the same game shown, the same
outcome for every ask, no ask waiting. A failing schedule is printed with its seed and steps
(keep it as a test in ``tests/match/test_table_search.py``). Failures of the faults reported
in docs/match-protocol.md are counted apart (``known``); ``failures`` counts the rest.
``--first`` and ``--schedules`` take a range of seeds, so a long run may be split.

Ends with `table_search: schedules=N failures=F known=K seconds=S games=...`, after how often
each kind of ask ended each way.

Run: .venv/bin/python bench/table_search.py [--schedules 10000] [--first 0] [--steps 40]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.table_search import GAMES, KNOWN, search  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--steps", type=int, default=40, help="steps a schedule")
    args = parser.parse_args()
    logging.getLogger("obelisk.remote").disabled = True  # (each lost broker, said: noise)
    seeds = range(args.first, args.first + args.schedules)
    seen: dict[tuple[str, str], int] = {}
    began = time.perf_counter()
    failed = search(seeds, GAMES, args.steps, seen)
    took = time.perf_counter() - began
    known = [(seed, done) for seed, done in failed if done.failure.startswith(KNOWN)]
    other = [(seed, done) for seed, done in failed if not done.failure.startswith(KNOWN)]
    for seed, done in other[:3]:
        print(done.report(seed), end="\n\n")
    for mark in KNOWN:
        seeds_of = [f"{done.shape}:{seed}" for seed, done in known
                    if done.failure.startswith(mark)]
        if seeds_of:
            print(f"{mark.rstrip(': ').lower()} ({len(seeds_of)}):", " ".join(seeds_of[:20]))
    if other:
        print("failing seeds:", " ".join(f"{done.shape}:{seed}" for seed, done in other[:50]))
    print("asks decided:", ", ".join(f"{kind} {outcome} {count}"
                                     for (kind, outcome), count in sorted(seen.items())))
    print(f"table_search: schedules={len(seeds)} failures={len(other)} known={len(known)} "
          f"seconds={took:.1f} games={','.join(GAMES)} steps={args.steps} "
          f"seeds={seeds.start}-{seeds.stop - 1}")
    return 1 if other else 0


if __name__ == "__main__":
    sys.exit(main())
