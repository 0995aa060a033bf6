"""Confirm latency: from the touch that completes an action to the LED frame that confirms it.

Each game's demo plays in real time (speed 1, the windows a real table
uses) on the simulated table: the bots' hands change the simulated sensors,
the scanner code scans and debounces them, the frames cross a
pseudo-terminal, the service settles the reading, asks the engine, writes
the journal (fsync) and sends the LED frame. For every accepted action this
times, on one clock, the last change of the simulated table before it
or the button press (the hand that completed it) to the first LED frame sent after the journal
had it. The demos' planned hourglass timeouts and refusals add no samples:
only accepted actions a hand completed count (an hourglass running out
completes none).

The towers demo plays with a 10 s hourglass here, so that the turn it lets
run out costs 10 s rather than a minute. Prints each game's p50 and p99 and
ends with `confirm_ms: worst_p50=X worst_p99=Y` (targets 150 and 250);
`bench/latency.py` runs it too, for its summary line.

With ``--cpu-limit`` each demo runs on one core with a share of it, its
simulated board and hands included (``cpu_limit.py``).

Run: .venv/bin/python bench/confirm.py [--seconds 30] [--games towers,stones,...]
     [--cpu-limit [PERCENT]]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from cpu_limit import CpuLimit, add_option, open_limit

HERE = Path(__file__).resolve()
GAMES = ("towers", "stones", "highrise", "maze")
PHYSICAL = ("cubes", "stacks", "grams", "walls", "hovering")
"""What a hand changes on the simulated table."""


def one_game(game: str, seconds: float, seed: int) -> list[float]:
    """Play ``game`` in real time for about ``seconds``; the confirm latencies in ms."""
    from firmware.games import GAMES
    from firmware.sim.demo_runner import DemoSettings
    from hardware.sim.table import SimTable

    touched = [0.0]  # the last touch; 0 once an action has counted it
    original = SimTable.__setattr__

    def noting(self, name, value):  # the time of every hand on the table
        if name in PHYSICAL:
            touched[0] = time.perf_counter()
        original(self, name, value)

    SimTable.__setattr__ = noting
    samples: list[float] = []

    def hook(table, devices) -> None:
        press = devices.buttons.press

        def timed_press(*args, **kwargs):  # a button completes an action too (a wall's facing)
            press(*args, **kwargs)  # returns as the hold is seen (within 5 ms) or let go
            touched[0] = time.perf_counter()

        devices.buttons.press = timed_press
        show = devices.leds.show
        seen = [len(table.actions)]

        def timed_show() -> None:
            show()
            count = len(table.actions)
            # An action with no touch since the last one (an hourglass ran out): no sample.
            if count > seen[0] and touched[0]:
                samples.append((time.perf_counter() - touched[0]) * 1000)
                touched[0] = 0.0
            seen[0] = count

        devices.leds.show = timed_show

    short = {"hourglass_s": 10.0} if game == "towers" else {}  # its planned timeout: 10 s
    with open(os.devnull, "w") as nowhere:
        settings = DemoSettings(seed=seed, as_json=True, speed=1.0, out=nowhere, chosen=short,
                                state_dir=tempfile.mkdtemp(prefix=f"obelisk-confirm-{game}-"),
                                max_real_s=seconds, hook=hook)
        GAMES[game].run_demo()(settings)
    return samples


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(games: list[str], seconds: float, seed: int,
            limit: CpuLimit | None = None) -> tuple[float, float]:
    """Each game in a process of its own (under ``limit``, if given); prints a line per
    game; (worst p50, worst p99)."""
    worst50 = worst99 = 0.0
    start = limit.run if limit is not None else subprocess.run
    for game in games:
        run = start([sys.executable, str(HERE), "--one", game, "--seconds",
                     str(seconds), "--seed", str(seed)],
                    capture_output=True, text=True, timeout=seconds * 4 + 60)
        lines = run.stdout.strip().splitlines()
        if not lines:
            raise SystemExit(f"{game}: no samples ({run.stderr.strip()[-300:]})")
        samples = json.loads(lines[-1])
        if not samples:
            raise SystemExit(f"{game}: no action was accepted in {seconds:g} s")
        p50, p99 = statistics.median(samples), percentile(samples, 0.99)
        worst50, worst99 = max(worst50, p50), max(worst99, p99)
        print(f"{game:9} actions={len(samples):4} touch -> LED confirm p50={p50:6.1f} "
              f"p99={p99:6.1f} max={max(samples):6.1f} ms", flush=True)
    return worst50, worst99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="real seconds of play per game (default: %(default)g)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child: one game
    add_option(parser)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_game(args.one, args.seconds, args.seed)))
        return
    limit = open_limit(args.cpu_limit)
    try:
        if limit is not None:
            print(f"each demo runs under {limit.note()}, its simulated board and hands too")
        worst50, worst99 = measure(args.games.split(","), args.seconds, args.seed, limit)
    finally:
        if limit is not None:
            limit.close()
    under = f" cpu_limit={limit.percent:g}%" if limit is not None else ""
    print(f"confirm_ms: worst_p50={worst50:.1f} worst_p99={worst99:.1f}{under}")


if __name__ == "__main__":
    threading.current_thread().name = "confirm"
    main()
