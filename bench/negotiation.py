"""The long run of the asks' search: random schedules of two model tables over a fake broker
that loses, doubles, reorders and delays messages, replays retained ones, restarts either
table from its journal and restarts itself (``tests/support/match_search.py``).

Each seed is one schedule on one of the four games' turn shapes in turn; every schedule ends
with the two tables left to settle and is checked there: the same games, the same outcome
for every ask, no ask waiting. A failing schedule is printed with its seed and steps (keep
it as a test in ``tests/match/test_negotiation_search.py``). ``--old ahead`` or ``--old
next-game`` runs today's main's behaviour instead, to see the search catch it.

Ends with `negotiation: schedules=N failures=F seconds=S` and how often each kind of ask
ended each way.

Run: .venv/bin/python bench/negotiation.py [--schedules 10000] [--first 0] [--steps 60]
     [--old ahead|next-game]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.match_search import (  # noqa: E402
    NEW,
    OLD_AHEAD,
    OLD_NEXT_GAME,
    SHAPES,
    kinds_decided,
    search,
)

VARIANTS = {"ahead": OLD_AHEAD, "next-game": OLD_NEXT_GAME}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--steps", type=int, default=60, help="steps a schedule")
    parser.add_argument("--old", choices=sorted(VARIANTS), help="today's main's behaviour")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.schedules)
    variant = VARIANTS[args.old] if args.old else NEW
    began = time.perf_counter()
    failed = search(seeds, tuple(SHAPES), args.steps, variant)
    took = time.perf_counter() - began
    for seed, done in failed[:3]:
        print(done.report(seed), end="\n\n")
    if failed:
        print("failing seeds:", " ".join(f"{done.shape}:{seed}" for seed, done in failed[:50]))
    seen = kinds_decided(range(args.first, args.first + min(args.schedules, 2000)), args.steps)
    print("asks decided (first 2,000 schedules):", ", ".join(
        f"{kind} {outcome} {count}" for (kind, outcome), count in sorted(seen.items())))
    print(f"negotiation: schedules={len(seeds)} failures={len(failed)} seconds={took:.1f} "
          f"games={','.join(SHAPES)} steps={args.steps}"
          + (f" old={args.old}" if args.old else ""))
    return 1 if failed and not args.old else 0


if __name__ == "__main__":
    sys.exit(main())
