"""A remote match's figures: from a move made at one table to its light at the other, and loss.

Two tables (``obelisk demo stones ... --remote``, each with its ``obelisk
remote`` link) play whole matches through one local mosquitto, as
``tests/match/test_matches.py`` plays them. The bench follows both tables' event
streams and times, for every move, the span from the ``accepted`` event at
the table where it was made to the ``asked`` event at the other (its light
there): the link's look at the journal, the broker's hop both ways, the
other link's hand to its table and that table's loop.

With ``--faults`` each match also has its link killed and started again,
and its broker stopped and started, mid-game; every match ends with both
journals compared: ``lost`` counts actions one table holds and the other
does not, ``doubled`` actions held twice (both targets: 0).

    .venv/bin/python bench/remote.py [--matches 3] [--faults]

Targets: p99 under 250 ms on the local broker; lost 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.service.stream import StreamError, read_events  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.processes import until  # noqa: E402
from tests.support.remote import Table, actions_of, is_over, journal_of  # noqa: E402

GAME = ["stones", "--size", "4x4", "--ply-limit", "60"]


def follow(where: Path, seen: list[tuple[float, dict]], stop: threading.Event) -> None:
    """Note each event of the table on ``where`` with when it came (its stream may not be
    up yet: tried again until it is)."""
    while not stop.is_set():
        try:
            for event in read_events(where, timeout=1.0):
                seen.append((time.monotonic(), event))
                if stop.is_set():
                    return
        except (StreamError, OSError):
            time.sleep(0.05)


def spans(made: list[tuple[float, dict]], lit: list[tuple[float, dict]],
          seat: str) -> list[float]:
    """Seconds from each move of ``seat`` accepted where it was made to the same move asked
    at the other table (matched in order, by its notation)."""
    asked = [(t, e["action"]) for t, e in lit if e.get("event") == "asked"]
    out, k = [], 0
    for t, e in made:
        if e.get("event") != "accepted" or e.get("player") != seat:
            continue
        for j in range(k, len(asked)):
            if asked[j][1] == e["action"] and asked[j][0] >= t:
                out.append(asked[j][0] - t)
                k = j + 1
                break
    return out


def match(home: Path, faults: bool) -> tuple[list[float], int, int]:
    """One whole match: (the spans, actions lost, actions doubled)."""
    broker = Mosquitto(home / "broker").start()
    a = Table(home, broker, GAME, "bench", "A")
    b = Table(home, broker, GAME, "bench", "B")
    seen_a: list = []
    seen_b: list = []
    stop = threading.Event()
    for where, seen in ((a.dir, seen_a), (b.dir, seen_b)):
        threading.Thread(target=follow, args=(where, seen, stop), daemon=True).start()
    try:
        if faults:
            until(lambda: len(actions_of(b.dir)) >= 6, 120, "six actions")
            b.kill_link()
            until(lambda: len(actions_of(a.dir)) >= 16, 120, "sixteen actions")
            broker.stop()
            broker.start()
        until(lambda: is_over(a.dir) and is_over(b.dir), 300, "the match's end")
    finally:
        stop.set()
        a.stop()
        b.stop()
        broker.stop()
    ours = [e for e in journal_of(a.dir) if e["t"] == "action"]
    theirs = [e for e in journal_of(b.dir) if e["t"] == "action"]
    lost = sum(1 for x, y in zip(ours, theirs, strict=False) if x != y) + \
        abs(len(ours) - len(theirs))
    doubled = sum(len(held) - len({e["n"] for e in held}) for held in (ours, theirs))
    return spans(seen_a, seen_b, "A") + spans(seen_b, seen_a, "B"), lost, doubled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3, help="whole matches (default 3)")
    parser.add_argument("--faults", action="store_true",
                        help="kill a link and restart the broker in each match")
    args = parser.parse_args()
    every: list[float] = []
    lost = doubled = 0
    for n in range(args.matches):
        with tempfile.TemporaryDirectory(prefix="obelisk-remote-") as home:
            got, gone, twice = match(Path(home), args.faults)
        every += got
        lost += gone
        doubled += twice
        print(f"match {n + 1}: {len(got)} moves timed, lost {gone}, doubled {twice}",
              flush=True)
    if not every:
        print("no move was timed", file=sys.stderr)
        return 1
    every.sort()
    p99 = every[min(len(every) - 1, int(0.99 * len(every)))]
    print(f"move_to_light_ms p50 {statistics.median(every) * 1000:.0f} p99 {p99 * 1000:.0f} "
          f"max {every[-1] * 1000:.0f} (over {len(every)} moves, {args.matches} matches"
          f"{', faults injected' if args.faults else ''})")
    print(f"lost {lost} doubled {doubled}")
    return 0 if lost == 0 and doubled == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
