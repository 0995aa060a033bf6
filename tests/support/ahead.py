"""Commands started ahead of the tests that check them, a few side by side.

A demo mostly waits on its simulated sensors' real time (five towers demos at once take
about as long as one on 2 cores), so a module that checks several whole games starts them
together when its first test asks, and each test waits only for its own. Only the runs the
selected tests use are started: a module's fixture of the run's name marks a test's use.

A whole game played on a page by clicking mostly waits on the browser and the table
(each click, each act's answer), so ``Browsing`` plays two such games at once, each of its
threads with a chromium of its own.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

AT_ONCE = 5
"""Runs side by side at most: each takes about a quarter of one core, so five fit on 2 cores."""


class Ahead:
    """``commands`` (name: argument list, or a function of no argument that runs its own
    commands with their own timeouts) run in the background in their order, ``at_once`` at
    a time; ``result(name)`` waits for one and gives its ``CompletedProcess`` (what the
    function returned)."""

    def __init__(self, commands: dict[str, list[str] | Callable[[], object]],
                 timeout: float, at_once: int = AT_ONCE) -> None:
        self._pool = ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="ahead")
        self._runs: dict[str, Future] = {
            name: self._pool.submit(command) if callable(command) else
            self._pool.submit(subprocess.run, command, capture_output=True, text=True,
                              timeout=timeout)
            for name, command in commands.items()}

    def result(self, name: str) -> object:
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


def started(request, commands: Callable[[str], list[str] | Callable[[], object]],
            names: list[str], timeout: float, at_once: int = AT_ONCE) -> Ahead:
    """An ``Ahead`` of the runs the module's selected tests use (``commands(name)`` gives
    one's argument list)."""
    return Ahead({name: commands(name) for name in wanted(request, names)}, timeout, at_once)


def played_ahead(request, tmp_path_factory, plays: dict[str, Callable], timeout: float) -> Ahead:
    """``started`` for plays that each take a directory of their own (``plays[name](dir)``)."""
    return started(request, lambda name: partial(plays[name], tmp_path_factory.mktemp(name)),
                   list(plays), timeout)


BROWSERS_AT_ONCE = 2
"""Pages played side by side at most: each game keeps about one core busy (its page, its
browser and its table)."""


class Browsing:
    """``calls`` (name: a function of a Playwright browser) run in the background in their
    order, ``BROWSERS_AT_ONCE`` at a time, each thread with a browser of its own (Playwright's
    sync API serves only the thread that started it); ``result(name)`` waits for one and
    gives what it returned, or raises what it raised."""

    def __init__(self, calls: dict[str, Callable], executable: str) -> None:
        self._executable = executable
        self._runs: dict[str, Future] = {name: Future() for name in calls}
        self._left: queue.SimpleQueue = queue.SimpleQueue()
        for name, call in calls.items():
            self._left.put((self._runs[name], call))
        self._threads = [threading.Thread(target=self._play, name=f"browsing-{n}", daemon=True)
                         for n in range(min(BROWSERS_AT_ONCE, len(calls)))]
        for thread in self._threads:
            thread.start()

    def _next(self) -> tuple[Future, Callable] | None:
        """The next call no one has taken or cancelled (None: none left)."""
        while True:
            try:
                run, call = self._left.get_nowait()
            except queue.Empty:
                return None
            if run.set_running_or_notify_cancel():
                return run, call

    def _play(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=self._executable)
                try:
                    while (taken := self._next()) is not None:
                        run, call = taken
                        try:
                            run.set_result(call(browser))
                        except BaseException as exc:  # a failed assertion: the test's
                            run.set_exception(exc)
                finally:
                    browser.close()
        except BaseException as exc:  # no browser here: each call left says why
            while (taken := self._next()) is not None:
                taken[0].set_exception(exc)

    def result(self, name: str) -> object:
        return self._runs[name].result()

    def close(self) -> None:
        """Start nothing more; what runs finishes (each game has its own timeouts)."""
        for run in self._runs.values():
            run.cancel()
        for thread in self._threads:
            thread.join()


def browsing(request, call: Callable[[str], Callable], names: list[str],
             executable: str) -> Browsing:
    """A ``Browsing`` of the calls the module's selected tests use (``call(name)`` gives one,
    a function of a browser)."""
    return Browsing({name: call(name) for name in wanted(request, names)}, executable)
