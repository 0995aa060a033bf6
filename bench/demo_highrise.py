"""Plays the High Rise demo for many seeds on 3x3 and 5x5 and checks each ending.

Each run of `obelisk demo highrise --seed N --json --speed S --size RxC` must
end with a game_over line of the documented form whose totals equal the sum
of its stacks' points, and no event before the reveal may carry a hidden
value or a stack's contents. Prints one line per game and a summary:
`demo_highrise: games=N ok=K failed=F`.

Run: .venv/bin/python bench/demo_highrise.py [--seeds 20] [--speed 50] [--jobs 3]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from demo_runs import play_all

OBELISK = Path(sys.executable).parent / "obelisk"
QUIET = {"event", "game", "first", "pieces_each", "player", "ply", "left", "message", "sizes",
         "tolerance"}


def _problem(events: list[dict], cells: int) -> str:
    last = events[-1]
    if list(last) != ["event", "game", "winner", "players", "stacks"] or \
            last["event"] != "game_over" or last["game"] != "highrise":
        return f"last line is not game_over: {json.dumps(last)[:120]}"
    if len(last["stacks"]) != cells:
        return f"{len(last['stacks'])} stacks for {cells} squares"
    for p in "AB":
        total = sum(s["points"] for s in last["stacks"] if s["controller"] == p)
        if last["players"][p]["score"] != total:
            return f"player {p} scored {last['players'][p]['score']}, stacks sum to {total}"
    kinds = [e["event"] for e in events]
    for event in events[:kinds.index("reveal")]:
        if not set(event) <= QUIET:
            return f"before the reveal: {event}"
    return ""


def check(seed: int, size: str, speed: float) -> tuple[str, bool, str, float]:
    start = time.monotonic()
    run = subprocess.run([str(OBELISK), "demo", "highrise", "--seed", str(seed), "--json",
                          "--speed", str(speed), "--size", size],
                         capture_output=True, text=True, timeout=1800)
    took = time.monotonic() - start
    label = f"{size} seed {seed:>3}"
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        return label, False, f"exit {run.returncode}: {run.stderr.strip()[-200:]}", took
    events = [json.loads(line) for line in lines]
    rows, cols = (int(v) for v in size.split("x"))
    problem = _problem(events, rows * cols)
    if problem:
        return label, False, problem, took
    last = events[-1]
    a, b = last["players"]["A"]["score"], last["players"]["B"]["score"]
    return label, True, f"winner {last['winner']}, A {a} B {b}", took


def main() -> None:
    play_all("demo_highrise", __doc__.splitlines()[0], ("3x3", "5x5"), check, jobs=3)


if __name__ == "__main__":
    main()
