"""How many test processes a run starts side by side (``-n auto`` in pyproject.toml).

Most of the suite waits on real time: a table settling, a page loading, a broker
answering. Two processes keep two cores busy through those waits and about halve
the run. More than two gain little on the project's 2-core machine and a Pi's four
cores share one SD card; a machine with one core, or too little memory for two
runs each starting browsers and tables (a Pi Zero 2 W's 512 MB), runs them one
after another in this process, as plain pytest does.
"""

from __future__ import annotations

import os
from pathlib import Path

WORKERS = 2
"""Side by side where the machine allows."""
MEMORY_NEEDED_KB = 1_500_000
"""What two runs side by side need, with a browser each (about 600 MB at their peak)."""
ENV = "PYTEST_XDIST_AUTO_NUM_WORKERS"
"""pytest-xdist's own way to ask for another number; it still wins."""


def workers(cores: int | None, memory_kb: int | None, asked: str | None) -> int:
    """The number of test processes: 0 runs the tests in pytest's own process."""
    if asked:
        return max(0, int(asked))
    if (cores or 1) < 2 or (memory_kb is not None and memory_kb < MEMORY_NEEDED_KB):
        return 0
    return WORKERS


def memory_kb(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """The machine's memory in kB (None where /proc says nothing)."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def this_machine() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return workers(cores, memory_kb(), os.environ.get(ENV))


def heaviest_first(items: list) -> None:
    """Order the tests file by file, the slowest kinds of file first, each file's own order
    kept: the two processes take whole files from the front of this list as each is free,
    so a long file started last cannot leave one process working alone at the end.
    The whole matches first of all: they mostly wait on real time while the other process
    works (``tests/conftest.py``'s ``whole_matches``)."""
    rank: dict[object, int] = {}
    for item in items:
        module = getattr(item, "module", None)
        names = getattr(item, "fixturenames", ())
        weight = (0 if "whole_matches" in names else 1 if item.get_closest_marker("browser")
                  else 2 if item.get_closest_marker("processes") else 3)
        rank[module] = min(rank.get(module, weight), weight)
    first_seen = {module: n for n, module in
                  reversed(list(enumerate(getattr(i, "module", None) for i in items)))}
    items.sort(key=lambda i: (rank[getattr(i, "module", None)],
                              first_seen[getattr(i, "module", None)]))
