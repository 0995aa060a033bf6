"""Python's garbage collector, timed for the loop: its young passes between wake-ups.

bench/latency.py saw two thirds of the collector's passes fall inside a wake-up, in the
middle of a move; collecting the young garbage after a wake-up's LED frame, once it passes
half the collector's threshold, leaves it seldom to run on its own.
"""

from __future__ import annotations

import gc


def collect_young() -> None:
    """After a wake-up's LED frame, collect the young garbage once it passes half the
    collector's threshold: the collector then seldom stops the loop in the middle of a move
    (bench/latency.py saw two thirds of its collections inside a wake-up before)."""
    if not gc.isenabled():
        return  # `obelisk run` still starting (firmware.run turns it on)
    threshold, count = gc.get_threshold(), gc.get_count()
    if count[0] > threshold[0] // 2:
        gc.collect(1 if count[1] + 1 >= threshold[1] else 0)
