"""The suite's pytest plugin: sealed (``seal``), swept (``reaper``), tiered (``tiers``), and
run side by side where the machine allows (``workers``).

``tests/conftest.py`` loads it for the suite; a test that runs pytest inside pytest loads
it with ``-p tests.support.plugin``, so the inner run is held to the same rules.
"""

from __future__ import annotations

import atexit
import contextlib

import pytest

from tests.support import patience, reaper, tiers, workers
from tests.support.seal import Seal, seal, unseal

_GUARD = tiers.Guard()
_RUN: dict = {}


@pytest.hookimpl(tryfirst=True)  # (before pytest-timeout reads its limit)
def pytest_configure(config: pytest.Config) -> None:
    tiers.add_markers(config)
    try:
        patience.install()  # (a slow machine's waits: OBELISK_TEST_PATIENCE)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    patience.stretch_test_limit(config)
    if "seal" in _RUN:  # loaded twice (conftest and -p): once is enough
        return
    _RUN["seal"] = seal()
    _RUN["mark"] = reaper.mark_run()
    _RUN["stops"] = reaper.Interruption(_RUN["mark"])
    _RUN["stops"].install()
    _GUARD.install()
    atexit.register(_last_sweep)  # after pytest's threads are joined: what they started


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return workers.this_machine()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tiers.mark_tiers(items)
    workers.heaviest_first(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    _GUARD.armed = item.nodeid if item.get_closest_marker(tiers.QUICK) else None
    _hold_the_stops()  # the modules just collected, or the test before, may have taken them
    try:
        return (yield)
    finally:
        _GUARD.armed = None
        _hold_the_stops()


def _hold_the_stops() -> None:
    if "stops" in _RUN:
        _RUN["stops"].hold()


def pytest_unconfigure(config: pytest.Config) -> None:
    if "seal" not in _RUN:
        return
    _GUARD.closed = True
    left = reaper.sweep(_RUN["mark"])
    if left:
        writer = config.get_terminal_writer()
        writer.line(f"the run stopped {len(left)} processes its tests had left running:",
                    yellow=True)
        for process in left:
            writer.line(f"  {process.pid} {process.command[:150]}")


def _last_sweep() -> None:
    if "seal" in _RUN:
        reaper.sweep(_RUN["mark"], grace=1.0)
        unseal(_RUN.pop("seal"))


def started_ahead() -> contextlib.AbstractContextManager[None]:
    """Start processes for later tests from within whichever test runs now (``Guard.ahead``)."""
    return _GUARD.ahead()


def the_seal() -> Seal:
    """This run's machine (``seal.Seal``)."""
    return _RUN["seal"]
