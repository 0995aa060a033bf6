"""Plays the High Rise demo for many seeds on 3x3 and 5x5 and checks each ending.

Each run of `obelisk demo highrise --seed N --json --speed S --size RxC` must
end with one reveal event a square, then a game_over line whose outcome's
scores equal the sum of its stacks' points, and no event before the reveal
may carry a hidden value or a stack's contents. Prints one line per game and
a summary: `demo_highrise: games=N ok=K failed=F`.

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
QUIET = {"event", "game", "options", "players", "first", "observation", "player", "doing",
         "action", "text", "message", "where", "sizes", "tolerance", "actions", "state"}
QUIET_OBSERVATION = {"game", "rows", "cols", "to_play", "plies", "pieces_left"}


def _problem(events: list[dict], cells: int) -> str:
    last = events[-1]
    if last["event"] != "game_over" or last["game"] != "highrise":
        return f"last line is not game_over: {json.dumps(last)[:120]}"
    outcome, stacks = last["outcome"], last["observation"].get("stacks", [])
    if len(stacks) != cells:
        return f"{len(stacks)} stacks for {cells} squares"
    for p in "AB":
        total = sum(s["points"] for s in stacks if s["controller"] == p)
        if outcome["scores"][p] != total:
            return f"player {p} scored {outcome['scores'][p]}, stacks sum to {total}"
    kinds = [e["event"] for e in events]
    if "reveal" not in kinds:
        return "no reveal"
    first = kinds.index("reveal")
    if kinds[first:] != ["reveal"] * cells + ["game_over"]:
        return f"the end is not {cells} reveals and the outcome: {kinds[first:]}"
    for event in events[:first]:
        if not set(event) <= QUIET or not set(event.get("observation", {})) <= QUIET_OBSERVATION \
                or (event["event"] == "accepted" and event["action"] != "placed"):
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
    outcome = events[-1]["outcome"]
    a, b = outcome["scores"]["A"], outcome["scores"]["B"]
    return label, True, f"winner {outcome['winner']}, A {a} B {b}", took


def main() -> None:
    play_all("demo_highrise", __doc__.splitlines()[0], ("3x3", "5x5"), check, jobs=3)


if __name__ == "__main__":
    main()
