"""Shared fixtures: the default set and small builders for towers positions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import settings

from engine.blocks import BlockSet
from engine.players import Player
from engine.tower import PlacedBlock, Tower
from engine.towers import TowersGame, TowersOptions, TowersState
from firmware.sets import load_block_set

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
    """A tower with the given (block id, cells) already on it, in order."""
    tower = Tower()
    for block_id, where in placed:
        tower = tower.add(PlacedBlock(block_set[block_id], where, owner))
    return tower


def position(state: TowersState, tower_a: Tower | None = None,
             tower_b: Tower | None = None, **changes) -> TowersState:
    """``state`` with prebuilt towers; blocks on them leave the pile and the blacks."""
    towers = (tower_a or state.towers[0], tower_b or state.towers[1])
    used = {pb.block.id for t in towers for pb in t.blocks}
    return replace(
        state, towers=towers,
        pile=tuple(b for b in state.pile if b not in used),
        blacks=tuple(b for b in state.blacks if b not in used),
        **changes,
    )
