"""Commands started ahead of the tests that check them, a few side by side.

A demo mostly waits on its simulated sensors' real time (five towers demos at once take
about as long as one on 2 cores), so a module that checks several whole games starts them
together when its first test asks, and each test waits only for its own. Only the runs the
selected tests use are started: a module's fixture of the run's name marks a test's use.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

AT_ONCE = 3
"""Runs side by side at most: each takes about a quarter of one core."""


class Ahead:
    """``commands`` (name: argument list) run in the background in their order, ``AT_ONCE``
    at a time; ``result(name)`` waits for one and gives its ``CompletedProcess``."""

    def __init__(self, commands: dict[str, list[str]], timeout: float) -> None:
        self._pool = ThreadPoolExecutor(max_workers=AT_ONCE, thread_name_prefix="ahead")
        self._runs: dict[str, Future] = {
            name: self._pool.submit(subprocess.run, command, capture_output=True, text=True,
                                    timeout=timeout)
            for name, command in commands.items()}

    def result(self, name: str) -> subprocess.CompletedProcess:
        return self._runs[name].result()

    def close(self) -> None:
        """Start nothing more; what runs finishes (each has its timeout)."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def wanted(request, names: list[str]) -> list[str]:
    """Of ``names`` (each a fixture of the requesting module), those a selected test of that
    module uses, directly or through a parameter naming it; in their order."""
    used: set[str] = set()
    for item in request.session.items:
        if getattr(item, "module", None) is not request.module:
            continue
        used.update(item.fixturenames)
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            used.update(v for v in callspec.params.values() if isinstance(v, str))
    return [name for name in names if name in used]


def started(request, commands: Callable[[str], list[str]], names: list[str],
            timeout: float) -> Ahead:
    """An ``Ahead`` of the runs the module's selected tests use (``commands(name)`` gives
    one's argument list)."""
    return Ahead({name: commands(name) for name in wanted(request, names)}, timeout)
