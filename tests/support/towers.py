"""Towers positions as tests write them: cells by name, towers built block by block."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from engine.players import Player
from engine.towers.blocks import BlockSet
from engine.towers.game import TowersGame, TowersState
from engine.towers.tower import (
    LEVELS,
    PlacedBlock,
    Tower,
    check_placement,
    resting_placements,
)


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


def flat_table(t: Any, black_count: int = 4) -> Any:
    """A's tower holds B01 at level 1 and A is active; G05 will make it flat."""
    pos = position(t.block_set and TowersGame(t.block_set).new_initial_state(first=Player.A),
                   tower_a=build_tower(t.block_set, ("B01", cells("a1:1", "b1:1", "a2:1",
                                                                  "b2:1", "a3:1"))))
    pos = replace(pos, blacks=pos.blacks[:black_count])
    t.put_position(pos)
    t.see(t.towers())
    return t


BLOCK_ID = re.compile(r"\b[KYRGB]\d+\b")
"""A block's id in the set file (G05): the table cannot tell which of a colour's blocks it
sees, so no words a person reads name one."""
