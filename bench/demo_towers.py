"""Plays the towers demo for many seeds and checks every ending.

For each seed: `obelisk demo towers --seed N --json --speed S` must end with
a game_over line of the vocabulary (outcome and final observation), and each
player's score must equal the values of the blocks on their tower minus
their over-the-top cubes. Prints one
line per seed and a summary: `demo_towers: seeds=N ok=K failed=F`.

Run: .venv/bin/python bench/demo_towers.py [--seeds 20] [--speed 50] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.towers.blocks import Colour

POINTS = {c.label: c.points for c in Colour}
OBELISK = Path(sys.executable).parent / "obelisk"


def check(seed: int, speed: float) -> tuple[int, bool, str, float]:
    start = time.monotonic()
    run = subprocess.run([str(OBELISK), "demo", "towers", "--seed", str(seed), "--json",
                          "--speed", str(speed)], capture_output=True, text=True, timeout=900)
    took = time.monotonic() - start
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        return seed, False, f"exit {run.returncode}: {run.stderr.strip()[-200:]}", took
    last = json.loads(lines[-1])
    if last.get("event") != "game_over" or set(last) != {"event", "game", "outcome",
                                                          "observation"}:
        return seed, False, f"last line is not game_over: {lines[-1][:120]}", took
    events = [json.loads(line) for line in lines]
    outcome, seen = last["outcome"], last["observation"]
    scores = outcome["scores"]
    for name, blocks in seen["towers"].items():
        expected = sum(POINTS[b["colour"]] for b in blocks) - seen["penalties"][name]
        if scores[name] != expected:
            return seed, False, f"player {name} scored {scores[name]}, blocks say {expected}", took
    timeouts = sum(e["event"] == "timer" and e["state"] == "expired" for e in events)
    refused = sum(e["event"] == "refused" for e in events)
    summary = (f"winner {outcome['winner']}, scores {scores}, {outcome['termination']}, "
               f"timeouts {timeouts}, refused {refused}")
    return seed, True, summary, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda s: check(s, args.speed), seeds))
    for seed, ok, summary, took in results:
        print(f"seed {seed:>3}: {'ok    ' if ok else 'FAILED'} {took:5.1f}s  {summary}")
    good = sum(1 for _, ok, _, _ in results if ok)
    print(f"demo_towers: seeds={len(results)} ok={good} failed={len(results) - good}")


if __name__ == "__main__":
    main()
