"""Plays the stones demo for many seeds in every mode and checks each ending.

Each run of `obelisk demo stones --seed N --json --speed S --mode M` must end
with a game_over line of the documented form. Prints one line per game and a
summary: `demo_stones: games=N ok=K failed=F`.

Run: .venv/bin/python bench/demo_stones.py [--seeds 20] [--speed 50] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

OBELISK = Path(sys.executable).parent / "obelisk"
REASONS = {"obelisk", "no_legal_moves", "ply_limit"}


def check(seed: int, mode: str, speed: float) -> tuple[str, bool, str, float]:
    start = time.monotonic()
    run = subprocess.run([str(OBELISK), "demo", "stones", "--seed", str(seed), "--json",
                          "--speed", str(speed), "--mode", mode],
                         capture_output=True, text=True, timeout=900)
    took = time.monotonic() - start
    label = f"{mode:>8} seed {seed:>3}"
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        return label, False, f"exit {run.returncode}: {run.stderr.strip()[-200:]}", took
    last = json.loads(lines[-1])
    form = list(last) == ["event", "game", "winner", "reason", "plies"]
    if not (form and last["event"] == "game_over" and last["game"] == "stones"
            and last["winner"] in ("A", "B", None) and last["reason"] in REASONS
            and isinstance(last["plies"], int)):
        return label, False, f"last line is not game_over: {lines[-1][:120]}", took
    return label, True, f"winner {last['winner']}, {last['reason']}, {last['plies']} plies", took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runs = [(s, m) for m in ("open", "bounded", "balanced") for s in range(1, args.seeds + 1)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: check(r[0], r[1], args.speed), runs))
    for label, ok, summary, took in results:
        print(f"{label}: {'ok    ' if ok else 'FAILED'} {took:5.1f}s  {summary}")
    good = sum(1 for _, ok, _, _ in results if ok)
    print(f"demo_stones: games={len(results)} ok={good} failed={len(results) - good}")


if __name__ == "__main__":
    main()
