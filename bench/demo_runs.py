"""What the demo benchmarks share: play many seeds in parallel, print each, sum up."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


def play_all(name: str, description: str, variants: tuple,
             check: Callable[[int, object, float], tuple[str, bool, str, float]],
             jobs: int = 2) -> None:
    """Run ``check(seed, variant, speed)`` for every seed and variant; one line each.

    Ends with `<name>: games=N ok=K failed=F`.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--jobs", type=int, default=jobs)
    args = parser.parse_args()
    runs = [(s, v) for v in variants for s in range(1, args.seeds + 1)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: check(r[0], r[1], args.speed), runs))
    for label, ok, summary, took in results:
        print(f"{label}: {'ok    ' if ok else 'FAILED'} {took:5.1f}s  {summary}")
    good = sum(1 for _, ok, _, _ in results if ok)
    print(f"{name}: games={len(results)} ok={good} failed={len(results) - good}")
