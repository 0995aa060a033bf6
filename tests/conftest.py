"""Shared fixtures: the default set and small builders for towers positions."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from engine.towers.blocks import BlockSet
from engine.towers.game import TowersGame, TowersOptions
from firmware.towers.sets import load_block_set

pytest_plugins = ("tests.support.plugin",)

settings.register_profile("obelisk", deadline=None, print_blob=True)
settings.load_profile("obelisk")


@pytest.fixture(scope="session")
def block_set() -> BlockSet:
    return load_block_set()


@pytest.fixture(scope="session")
def game(block_set: BlockSet) -> TowersGame:
    return TowersGame(block_set)


@pytest.fixture(scope="session")
def sudden_game(block_set: BlockSet) -> TowersGame:
    return TowersGame(block_set, TowersOptions(sudden_death=True))


class _Chromium:
    """Debian's chromium through Playwright, launched when a test first asks for it and
    shared by the browser tests that run one after another; ``close`` after the last of them.

    While it runs, Playwright keeps an event loop on this thread (``asyncio.run`` would refuse
    to start here), so it never outlives the run of tests that use it.
    """

    def __init__(self) -> None:
        self._playwright = self._browser = None

    def get(self):
        if self._browser is None or not self._browser.is_connected():
            self.close()
            from tests.support.browser import chromium

            executable = chromium()  # first: on a Pi it skips, and there is no Playwright
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=executable)
        return self._browser

    def close(self) -> None:
        if self._playwright is None:
            return
        with contextlib.suppress(Exception):  # gone already: nothing to close
            self._browser.close()
        self._playwright.stop()
        self._playwright = self._browser = None


_CHROMIUM = _Chromium()


@pytest.fixture(scope="module")
def browser():
    """The shared chromium (``_Chromium``); the pages a module leaves open close with it."""
    shared = _CHROMIUM.get()
    yield shared
    for context in shared.contexts:
        with contextlib.suppress(Exception):  # its browser already gone
            context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last module of a run of modules that use the browser, it closes."""
    try:
        return (yield)
    finally:
        if nextitem is None or (nextitem.module is not item.module
                                and not _uses_browser(item.session, nextitem.module)):
            _CHROMIUM.close()


def _uses_browser(session, module) -> bool:
    """Whether a selected test of ``module`` uses the browser."""
    return any("browser" in getattr(test, "fixturenames", ()) for test in session.items
               if getattr(test, "module", None) is module)


WHOLE_MATCHES = {"towers": ("tw1", ["towers", "--speed", "50"], "cut"),
                 "maze": ("maze-whole", ["maze", "--speed", "50"], "kill")}
"""The remote matches ``tests/match/test_whole_matches.py`` plays whole: the match's name (its
game's seed), the demo's arguments, and the fault done at table B on the way (its link cut
off the network a while; its plug pulled). Stones and High Rise play theirs in
``tests/match/test_matches.py``."""


@pytest.fixture(scope="session")
def whole_matches(tmp_path_factory):
    from tests.support.remote import WholeMatches

    matches = WholeMatches(tmp_path_factory.mktemp("whole-matches"), WHOLE_MATCHES)
    yield matches
    matches.close()


@pytest.fixture(scope="session", autouse=True)
def _whole_matches_early(request):
    """When a selected test checks the whole matches, they start with the session's first
    test and play while the rest of the suite runs (they mostly wait on real time). With
    processes side by side (pytest-xdist), each would start them: there the process that
    takes their file plays them, while the other runs the rest (``workers.heaviest_first``
    hands that file out first)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if any("whole_matches" in getattr(item, "fixturenames", ()) for item in
           request.session.items):
        from tests.support.plugin import started_ahead

        with started_ahead():
            request.getfixturevalue("whole_matches")


@pytest.fixture
def home(monkeypatch):
    """This test's default state directory (``XDG_STATE_HOME``, for this process and the
    commands it starts), and a Pi service directory of its own where no table runs. Short,
    under /tmp rather than the test's own directory: a table's sockets live in
    ``play/<game>`` there, and a socket's path may hold only 107 bytes."""
    short = Path(tempfile.mkdtemp(prefix="obelisk-home-", dir="/tmp"))
    monkeypatch.setenv("XDG_STATE_HOME", str(short / "state"))
    monkeypatch.setenv("OBELISK_SERVICE_STATE_DIR", str(short / "no-service"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    yield short / "state" / "obelisk"
    shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
def service(tmp_path, block_set):
    """A towers table's whole service running in this process (``support.service``)."""
    from tests.support.service import running_service

    with running_service(tmp_path / "state", block_set) as running:
        yield running


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto of the test's own, on a free port (``support.broker``)."""
    from tests.support.broker import Mosquitto

    started = Mosquitto(tmp_path / "broker").start()
    yield started
    started.stop()


@pytest.fixture
def tls_broker(tmp_path):
    """A real mosquitto speaking mqtts with a certificate of a club's own CA."""
    from tests.support.broker import Mosquitto, make_certs

    started = Mosquitto(tmp_path / "broker", tls=make_certs(tmp_path / "certs")).start()
    yield started
    started.stop()
