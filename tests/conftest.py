"""Shared fixtures: the default set and small builders for towers positions."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest
from hypothesis import settings

from engine.players import Player
from engine.towers.blocks import BlockSet
from engine.towers.game import TowersGame, TowersOptions, TowersState
from engine.towers.tower import LEVELS, PlacedBlock, Tower, check_placement, resting_placements
from firmware.towers.sets import load_block_set

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


def cells(*names: str) -> frozenset[tuple[int, int, int]]:
    """Cells from names like 'b2:3' (rod b2, level 3), as people read them."""
    out = set()
    for name in names:
        rod, level = name.split(":")
        out.add(("abc".index(rod[0]), int(rod[1]) - 1, int(level) - 1))
    return frozenset(out)


def build_tower(block_set: BlockSet, *placed: tuple[str, frozenset], owner=Player.A) -> Tower:
    """A tower with the given (block id, cells) already on it, each checked as legal."""
    ids = [block_id for block_id, _ in placed]
    assert len(ids) == len(set(ids)), f"a block is used twice: {ids}"
    tower = Tower()
    for block_id, where in placed:
        check_placement(tower, block_set[block_id], where)
        tower = tower.add(PlacedBlock(block_set[block_id], where, owner))
    return tower


def column(block_set: BlockSet, spec: list[tuple[str, str]], owner=Player.A) -> Tower:
    """``build_tower`` from (block id, "a1:1 b1:1") pairs."""
    return build_tower(block_set, *[(b, cells(*where.split())) for b, where in spec],
                       owner=owner)


def pack_tower(block_set: BlockSet, ids: list[str], owner=Player.A) -> Tower | None:
    """A tower holding exactly ``ids``, packed without gaps and under the top.

    A small depth-first search, so tests get a legal full tower without
    typing out every cube. None when no gap-free packing exists.
    """
    dead: set = set()

    def search(tower: Tower, left: list[str]) -> Tower | None:
        if not left:
            return tower
        key = (tower.heights, tuple(sorted(left)))
        if key in dead:
            return None
        for block_id in sorted(set(left), key=lambda b: (-len(block_set[b].cells), b)):
            rest = list(left)
            rest.remove(block_id)
            block = block_set[block_id]
            snug = [p for p in resting_placements(tower, block)
                    if max(z for *_, z in p) < LEVELS
                    and sum(tower.heights_after(p)) - sum(tower.heights) == len(p)]
            for p in sorted(snug, key=lambda p: (max(z for *_, z in p), sorted(p))):
                found = search(tower.add(PlacedBlock(block, p, owner)), rest)
                if found:
                    return found
        dead.add(key)
        return None

    return search(Tower(), list(ids))


# Two legal ways of building rod a1 (and its neighbours) up to level 8, from
# different blocks, so both players can stand at the top at once.
COLUMN_A = [("Y04", "a1:1 a1:2"), ("R04", "a1:3 b1:3 a1:4"), ("G12", "a1:5 b1:5 c1:5 a1:6"),
            ("G09", "a1:7 b1:7 a2:7 a1:8")]
COLUMN_B = [("Y01", "a1:1 b1:1"), ("Y02", "a1:2 b1:2"), ("Y03", "a1:3 b1:3"),
            ("R01", "a1:4 b1:4 c1:4"), ("R02", "a1:5 b1:5 a2:5"), ("R03", "a1:6 b1:6 a2:6"),
            ("G01", "a1:7 b1:7 a2:7 b2:7"), ("G02", "a1:8 b1:8 a2:8 b2:8")]


def position(state: TowersState, tower_a: Tower | None = None,
             tower_b: Tower | None = None, **changes) -> TowersState:
    """``state`` with prebuilt towers; blocks on them leave the pile and the blacks."""
    towers = (tower_a or state.towers[0], tower_b or state.towers[1])
    used = {pb.block.id for t in towers for pb in t.blocks}
    built = replace(
        state, towers=towers,
        pile=tuple(b for b in state.pile if b not in used),
        blacks=tuple(b for b in state.blacks if b not in used),
    )
    return replace(built, **changes)


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
            from playwright.sync_api import sync_playwright

            from tests.browser_support import chromium

            executable = chromium()
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
"""The remote matches ``tests/test_remote_matches.py`` plays whole: the match's name (its
game's seed), the demo's arguments, and the fault done at table B on the way (its link cut
off the network a while; its plug pulled). Stones and High Rise play theirs in
``tests/test_remote.py``."""


@pytest.fixture(scope="session")
def whole_matches(tmp_path_factory):
    from tests.remote_support import WholeMatches

    matches = WholeMatches(tmp_path_factory.mktemp("whole-matches"), WHOLE_MATCHES)
    yield matches
    matches.close()


@pytest.fixture(scope="session", autouse=True)
def _whole_matches_early(request):
    """When a selected test checks the whole matches, they start with the session's first
    test and play while the rest of the suite runs (they mostly wait on real time)."""
    if any("whole_matches" in getattr(item, "fixturenames", ()) for item in
           request.session.items):
        request.getfixturevalue("whole_matches")
