"""The wooden blocks of the towers game: colours, shapes and whole sets.

A block is a polycube whose cubes are drilled along one axis. That axis is
``z`` in a set file and it stands vertical on the tower, so a block may only
be turned about the vertical axis or put in upside down. A set file is TOML:

    name = "My set"

    [[block]]
    id = "G01"
    colour = "green"
    cells = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]

Each cell is ``[x, y, z]``: x runs along the columns a-c, y along the rows
1-3, z up the rods. Parsing is pure; reading the file is the caller's job.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any

from engine.core import counted, plural
from engine.errors import BlockSetError

Cell = tuple[int, int, int]
"""A cube position: x (column a-c), y (row 1-3), z (level, 0 is level 1)."""

WIDTH = 3
"""Rods per side of a tower: the footprint is WIDTH x WIDTH."""


class Colour(Enum):
    """Block colours. Volume identifies the colour one-to-one."""

    BLACK = ("black", "K", 1, -2, 4)
    YELLOW = ("yellow", "Y", 2, 0, 4)
    RED = ("red", "R", 3, 1, 4)
    GREEN = ("green", "G", 4, 2, 15)
    BLUE = ("blue", "B", 5, 3, 12)

    def __init__(self, label: str, letter: str, volume: int, points: int, count: int) -> None:
        self.label = label
        self.letter = letter
        self.volume = volume
        self.points = points
        self.count = count

    def __str__(self) -> str:
        return self.label

    @classmethod
    def from_label(cls, label: str) -> Colour:
        for colour in cls:
            if colour.label == label:
                return colour
        names = ", ".join(c.label for c in cls)
        raise KeyError(f"unknown colour {label!r}; use one of {names}")

    @classmethod
    def from_volume(cls, volume: int) -> Colour | None:
        for colour in cls:
            if colour.volume == volume:
                return colour
        return None


def normalize(cells: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
    """Shift cells so their smallest x, y and z are 0: the shape, wherever it sits."""
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return frozenset((x - mx, y - my, z - mz) for x, y, z in cells)


def is_connected(cells: frozenset[Cell] | set[Cell]) -> bool:
    """True when every cube touches the others face to face, so it is one piece."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        x, y, z = todo.pop()
        for n in (
            (x + 1, y, z), (x - 1, y, z), (x, y + 1, z),
            (x, y - 1, z), (x, y, z + 1), (x, y, z - 1),
        ):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def orientations(cells: frozenset[Cell]) -> tuple[frozenset[Cell], ...]:
    """Every way the block can go on the rods, duplicates removed.

    Four quarter turns about the vertical axis, each upright or upside down
    (a half turn about a horizontal axis). Each is normalized.
    """
    found: list[frozenset[Cell]] = []
    for flipped in (False, True):
        shape = frozenset((x, -y, -z) for x, y, z in cells) if flipped else cells
        for _ in range(4):
            shape = frozenset((-y, x, z) for x, y, z in shape)
            norm = normalize(shape)
            if norm not in found:
                found.append(norm)
    return tuple(found)


def shape_key(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """One canonical form for all orientations: equal keys mean interchangeable shapes."""
    return min(tuple(sorted(o)) for o in orientations(cells))


@dataclass(frozen=True)
class Block:
    """One wooden block of the set."""

    id: str
    colour: Colour
    cells: frozenset[Cell]

    @cached_property
    def orientations(self) -> tuple[frozenset[Cell], ...]:
        return orientations(self.cells)

    @cached_property
    def kind(self) -> tuple[Colour, tuple[Cell, ...]]:
        """Blocks of the same kind are interchangeable for the whole game."""
        return (self.colour, shape_key(self.cells))

    def __str__(self) -> str:
        """A block in words is its colour: the wooden blocks carry no labels, and the table
        tells a block by its weight (its colour) and its shape, never which of them it is."""
        return f"{self.colour} block"


@dataclass(frozen=True)
class BlockSet:
    """A complete, validated towers set: build one with ``parse_block_set``."""

    name: str
    blocks: tuple[Block, ...]
    _by_id: dict[str, Block] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {b.id: b for b in self.blocks})

    def __getitem__(self, block_id: str) -> Block:
        try:
            return self._by_id[block_id]
        except KeyError:
            raise KeyError(f"there is no block {block_id!r} in the set {self.name!r}") from None

    def __contains__(self, block_id: object) -> bool:
        return block_id in self._by_id

    def of_colour(self, colour: Colour) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.colour is colour)


def one_per_kind(block_set: BlockSet, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The first of ``ids`` of each kind, in their order: interchangeable blocks once."""
    seen: set[object] = set()
    out = []
    for block_id in ids:
        kind = block_set[block_id].kind
        if kind not in seen:
            seen.add(kind)
            out.append(block_id)
    return tuple(out)


def parse_block_set(text: str, source: str = "set file") -> BlockSet:
    """Read and validate a set described in TOML; ``source`` names it in errors.

    Refuses anything the table could not play with: a message names the
    block and the problem, so an owner can fix the file.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BlockSetError(f"{source}: not valid TOML ({exc})") from None
    return block_set_from_dict(data, source)


def block_set_to_dict(block_set: BlockSet) -> dict[str, Any]:
    """The set as plain data in the set file's own layout (a journal keeps it)."""
    return {"name": block_set.name,
            "block": [{"id": b.id, "colour": b.colour.label,
                       "cells": sorted([list(c) for c in b.cells])} for b in block_set.blocks]}


def block_set_from_dict(data: object, source: str = "set") -> BlockSet:
    """A set from plain data laid out as a set file, checked just as strictly."""
    if not isinstance(data, dict):
        raise BlockSetError(f"{source}: not a block set (name and [[block]] tables)")
    name = data.get("name", source)
    if not isinstance(name, str):
        raise BlockSetError(f"{source}: 'name' must be text, like name = \"My set\"")
    entries = data.get("block")
    if not isinstance(entries, list) or not entries:
        raise BlockSetError(
            f"{source}: no blocks found; describe each one in a [[block]] table "
            "with id, colour and cells"
        )
    blocks = [_parse_block(entry, i, source) for i, entry in enumerate(entries, 1)]
    _check_ids_unique(blocks, source)
    _check_counts(blocks, source)
    return BlockSet(name=name, blocks=tuple(blocks))


def _parse_block(entry: object, number: int, source: str) -> Block:
    where = f"{source}: block #{number}"
    if not isinstance(entry, dict):
        raise BlockSetError(f"{where}: must be a [[block]] table")
    unknown = sorted(set(entry) - {"id", "colour", "cells"})
    if unknown:
        raise BlockSetError(f"{where}: unknown {plural(len(unknown), 'key')} {', '.join(unknown)}; "
                            "a block has only id, colour and cells")
    block_id = entry.get("id")
    if not isinstance(block_id, str) or not block_id.strip():
        raise BlockSetError(f"{where}: needs an id, like id = \"G01\"")
    where = f"{source}: block {block_id}"
    label = entry.get("colour")
    try:
        colour = Colour.from_label(label) if isinstance(label, str) else None
    except KeyError as exc:
        raise BlockSetError(f"{where}: {exc.args[0]}") from None
    if colour is None:
        raise BlockSetError(f"{where}: needs a colour, like colour = \"green\"")
    cells = _parse_cells(entry.get("cells"), where)
    if len(cells) != colour.volume:
        raise BlockSetError(
            f"{where}: a {colour} block has {counted(colour.volume, 'cube')}, "
            f"but {counted(len(cells), 'cell')} {'is' if len(cells) == 1 else 'are'} listed"
        )
    if not is_connected(cells):
        raise BlockSetError(f"{where}: its cubes are not connected face to face; "
                            "a block must be one piece")
    shape = normalize(cells)
    span_x = max(c[0] for c in shape) + 1
    span_y = max(c[1] for c in shape) + 1
    if span_x > WIDTH or span_y > WIDTH:
        raise BlockSetError(
            f"{where}: it is {span_x} x {span_y} cubes across, wider than the "
            f"{WIDTH} x {WIDTH} tower; the z axis (the drilled holes) must be vertical"
        )
    return Block(id=block_id, colour=colour, cells=shape)


def _parse_cells(raw: object, where: str) -> frozenset[Cell]:
    if not isinstance(raw, list) or not raw:
        raise BlockSetError(f"{where}: needs cells, like cells = [[0, 0, 0], [1, 0, 0]]")
    cells: list[Cell] = []
    for item in raw:
        if (not isinstance(item, list) or len(item) != 3
                or not all(type(v) is int for v in item)):
            raise BlockSetError(f"{where}: cell {item!r} must be three whole numbers [x, y, z]")
        cells.append((item[0], item[1], item[2]))
    if len(set(cells)) != len(cells):
        twice = sorted(c for c, n in Counter(cells).items() if n > 1)
        raise BlockSetError(f"{where}: cell {list(twice[0])} is listed twice")
    return frozenset(cells)


def _check_ids_unique(blocks: list[Block], source: str) -> None:
    counts = Counter(b.id for b in blocks)
    twice = sorted(i for i, n in counts.items() if n > 1)
    if twice:
        raise BlockSetError(f"{source}: block {twice[0]}: the id is used more than once")


def _check_counts(blocks: list[Block], source: str) -> None:
    have = Counter(b.colour for b in blocks)
    for colour in Colour:
        if have[colour] != colour.count:
            raise BlockSetError(
                f"{source}: the set has {counted(have[colour], f'{colour} block')}; a towers "
                f"set needs exactly {colour.count} ({counted(colour.volume, 'cube')} each)"
            )
