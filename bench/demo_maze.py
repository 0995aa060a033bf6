"""Plays the maze demo for many seeds with every turn limit and checks each ending.

Each run of `obelisk demo maze --seed N --json --speed S --turns T` must end
with a game_over event (the outcome and the board as it ended), consistent
with itself (the Architect, player A, wins exactly when all five segments
are claimed, within T turns).
Prints one line per game and a summary: `demo_maze: games=N ok=K failed=F`.

Run: .venv/bin/python bench/demo_maze.py [--seeds 20] [--speed 50] [--jobs 2]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from demo_runs import play_all

OBELISK = Path(sys.executable).parent / "obelisk"


def check(seed: int, turns: int, speed: float) -> tuple[str, bool, str, float]:
    start = time.monotonic()
    run = subprocess.run([str(OBELISK), "demo", "maze", "--seed", str(seed), "--json",
                          "--speed", str(speed), "--turns", str(turns)],
                         capture_output=True, text=True, timeout=900)
    took = time.monotonic() - start
    label = f"turns {turns} seed {seed:>3}"
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        return label, False, f"exit {run.returncode}: {run.stderr.strip()[-200:]}", took
    last = json.loads(lines[-1])
    outcome, seen = last.get("outcome", {}), last.get("observation", {})
    if not (last["event"] == "game_over" and last["game"] == "maze"
            and outcome.get("winner") in ("A", "B") and seen.get("phase") == "over"):
        return label, False, f"last line is not game_over: {lines[-1][:120]}", took
    claimed, turns_used, walls_used = seen["claimed"], seen["turn"], len(seen["walls"])
    won = claimed == 5 and turns_used <= turns
    lost = claimed < 5 and turns_used == turns
    if outcome["winner"] != ("A" if won else "B") or not (won or lost) \
            or not 0 <= walls_used <= 10:
        return label, False, f"inconsistent ending: {lines[-1][:120]}", took
    who = "the Architect" if outcome["winner"] == "A" else "the Maze Master"
    return label, True, (f"{who}, {claimed} claimed in {turns_used} turns, "
                         f"{walls_used} walls"), took


def main() -> None:
    play_all("demo_maze", __doc__.splitlines()[0], (15, 20, 25), check, jobs=2)


if __name__ == "__main__":
    main()
