"""Every class of machine and network fault tried so far, tried and counted in one table.

Runs the fault benches of the service (classes 1, 6, 10, 14, 15), of `obelisk play` (2, 7,
16), of the page (3, 4, 8, 9, 11, 12, 13) and of the club (5, 8, 10, 17, 18, 19), each
``--rounds`` times, and prints per class what was tried, what held and what was lost; the
sensor faults are `bench/faults.py`'s. A class is held when nothing was lost: no game, no
result, no lock, no process left behind, no traceback.

Run: .venv/bin/python bench/fault_classes.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "bench"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

BENCHES = ("faults_service", "faults_play", "faults_web", "faults_club")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    rows = []
    for name in BENCHES:
        started = time.monotonic()
        try:
            bench = importlib.import_module(name)
        except ImportError as exc:
            print(f"{name}: not here ({exc})", file=sys.stderr)
            continue
        for row in bench.run(rounds):
            rows.append({**row, "bench": name})
        print(f"{name}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    print(f"{'class':<6} {'fault':<26} {'bench':<15} {'tried':>6} {'held':>6} {'lost':>6}")
    for row in sorted(rows, key=lambda r: (r["class"], r["bench"])):
        print(f"{row['class']:<6} {row['name'][:26]:<26} {row['bench']:<15} {row['tried']:>6} "
              f"{row['held']:>6} {row['lost']:>6}")
    lost = sum(r["lost"] for r in rows)
    print(f"fault_classes: tried={sum(r['tried'] for r in rows)} "
          f"held={sum(r['held'] for r in rows)} lost={lost}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
