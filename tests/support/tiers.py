"""The suite's tiers: what a test needs beyond this process, marked, and the quick rest.

A test that starts a process of its own (an ``obelisk`` command, node, a compiler) is
marked ``processes``; one that drives Chromium, ``browser``; one that needs a real
mosquitto, ``broker``. Every other test is ``quick``: it runs in this process only, and
``pytest -m quick`` runs all of them in about a minute. The marks cannot drift: a quick
test that starts a process fails, saying which mark it needs.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import pytest

NEEDS = {
    "processes": "starts processes of its own (obelisk commands, node, compilers)",
    "browser": "drives Debian's chromium through Playwright (starts processes too)",
    "broker": "needs a real mosquitto, which it starts (starts processes too)",
}
QUICK = "quick"
QUICK_HELP = "runs in the test's own process only: none of " + ", ".join(NEEDS)

BY_FIXTURE = {"browser": "browser", "broker": "broker", "tls_broker": "broker",
              "whole_matches": "broker"}
"""Fixtures that bring their mark with them: a test asking for one needs what it needs."""


def add_markers(config: pytest.Config) -> None:
    for name, words in (*NEEDS.items(), (QUICK, QUICK_HELP)):
        config.addinivalue_line("markers", f"{name}: {words}")


def mark_tiers(items: list[pytest.Item]) -> None:
    """Each test gets the marks its fixtures bring, ``processes`` with ``browser`` or
    ``broker`` (so ``-m "not processes"`` is the quick tier), and ``quick`` if it has none."""
    for item in items:
        for fixture, mark in BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(mark)
        needs = {name for name in NEEDS if item.get_closest_marker(name)}
        if needs and "processes" not in needs:
            item.add_marker("processes")
        if not needs:
            item.add_marker(QUICK)


class StartsAProcess(AssertionError):
    """A test marked quick started a process."""


class Guard:
    """While a quick test runs, starting a process fails it, naming the mark it needs.

    ``subprocess`` and ``os.fork``/``os.posix_spawn`` are what the project and its tools
    start processes with; the guard wraps them once, and only acts while ``armed``, on the
    test's own thread (a module's runs started ahead play on threads of their own, for the
    tests marked for them).
    """

    def __init__(self) -> None:
        self.armed: str | None = None  # the quick test running, if one is
        self.closed = False  # the run is over: nothing more may start
        self._popen_init = subprocess.Popen.__init__
        self._fork = os.fork
        self._spawn = os.posix_spawn

    def install(self) -> None:
        guard = self

        def popen_init(popen: subprocess.Popen, args: Any, *more: Any, **named: Any) -> None:
            guard.check(args)
            guard._popen_init(popen, args, *more, **named)

        def fork() -> int:
            guard.check("os.fork()")
            return guard._fork()

        def spawn(path: Any, argv: Any, *more: Any, **named: Any) -> int:
            guard.check(argv)
            return guard._spawn(path, argv, *more, **named)

        subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
        os.fork = fork
        os.posix_spawn = spawn

    @contextlib.contextmanager
    def ahead(self) -> Iterator[None]:
        """Processes started here serve tests that are marked for them and run later (a
        session fixture starts the whole remote matches with the run's first test, which may
        be a quick one): the guard lets them through."""
        armed, self.armed = self.armed, None
        try:
            yield
        finally:
            self.armed = armed

    def check(self, what: Any) -> None:
        if self.closed:
            raise RuntimeError(f"the test run is over: not starting {what!r}")
        if self.armed is not None and threading.current_thread() is threading.main_thread():
            raise StartsAProcess(
                f"{self.armed} is a quick test but starts a process ({what!r}): mark it "
                "@pytest.mark.processes (or its module: pytestmark = pytest.mark.processes)")
