"""Plays the stones demo for many seeds in every mode and checks each ending.

Each run of `obelisk demo stones --seed N --json --speed S --mode M` must end
with a game_over line of the documented form. Prints one line per game and a
summary: `demo_stones: games=N ok=K failed=F`.

Run: .venv/bin/python bench/demo_stones.py [--seeds 20] [--speed 50] [--jobs 2]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from demo_runs import play_all

OBELISK = Path(sys.executable).parent / "obelisk"
REASONS = {"obelisk", "no_legal_moves", "ply_limit", "repetition"}


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
    outcome = last.get("outcome", {})
    if not (last["event"] == "game_over" and last["game"] == "stones"
            and outcome.get("winner") in ("A", "B", None)
            and outcome.get("termination") in REASONS):
        return label, False, f"last line is not game_over: {lines[-1][:120]}", took
    plies = last["observation"]["plies"]
    return label, True, f"winner {outcome['winner']}, {outcome['termination']}, {plies} plies", took


def main() -> None:
    play_all("demo_stones", __doc__.splitlines()[0], ("open", "bounded", "balanced"), check, jobs=2)


if __name__ == "__main__":
    main()
