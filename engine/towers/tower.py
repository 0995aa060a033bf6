"""One tower: nine rods, nine levels, and the blocks threaded onto it.

A block threads onto the rods and falls until one of its cubes lands on the
highest cube of a column it covers (or on the base). It cannot slip into a
gap, so gaps stay empty forever and the future of a tower depends only on
its 3x3 height map. Cubes may rise above level 9; that ends the game, and
the tower keeps them so the end-of-turn check can count them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from engine.core import counted
from engine.errors import CellsTakenError, NotRestingError, OverhangError, ShapeMismatchError
from engine.players import Player
from engine.towers.blocks import WIDTH, Block, Cell, normalize

LEVELS = 9
"""Height of the rods: a cube above this level is over the top."""

RODS = WIDTH * WIDTH


def rod_name(x: int, y: int) -> str:
    """Rods are named like a chess board: columns a-c, rows 1-3."""
    return f"{'abc'[x]}{y + 1}"


def cell_name(cell: Cell) -> str:
    """A cube position in words, levels counted from 1 at the base."""
    x, y, z = cell
    return f"{rod_name(x, y)} level {z + 1}"


def cells_text(cells: frozenset[Cell]) -> str:
    """Cube positions in words, bottom level first."""
    return ", ".join(cell_name(c) for c in sorted(cells, key=lambda c: (c[2], c[1], c[0])))


def _rod(x: int, y: int) -> int:
    return y * WIDTH + x


@dataclass(frozen=True)
class PlacedBlock:
    """A block on a tower, where it sits and who put it there."""

    block: Block
    cells: frozenset[Cell]
    placed_by: Player

    @property
    def overflow(self) -> int:
        """Cubes of this block above the top of the rods."""
        return sum(1 for c in self.cells if c[2] >= LEVELS)


@dataclass(frozen=True)
class Tower:
    """One player's tower, built up from the blocks placed on it in order."""

    blocks: tuple[PlacedBlock, ...] = ()

    @cached_property
    def occupied(self) -> frozenset[Cell]:
        return frozenset(c for pb in self.blocks for c in pb.cells)

    @cached_property
    def heights(self) -> tuple[int, ...]:
        """Cubes-high of each rod's top cube, rods in order a1 b1 c1 a2 ... c3."""
        h = [0] * RODS
        for x, y, z in self.occupied:
            i = _rod(x, y)
            if z + 1 > h[i]:
                h[i] = z + 1
        return tuple(h)

    def heights_after(self, cells: frozenset[Cell]) -> tuple[int, ...]:
        """The height map once ``cells`` are filled too, without building a tower."""
        h = list(self.heights)
        for x, y, z in cells:
            i = _rod(x, y)
            if z + 1 > h[i]:
                h[i] = z + 1
        return tuple(h)

    @property
    def overflow(self) -> int:
        """Cubes above level 9 on this tower."""
        return sum(pb.overflow for pb in self.blocks)

    @property
    def is_flat(self) -> bool:
        """All nine rods level and at least one cube high: earns a black block."""
        return min(self.heights) >= 1 and len(set(self.heights)) == 1

    @property
    def points(self) -> int:
        """Sum of the values of the blocks on the tower, before penalties."""
        return sum(pb.block.colour.points for pb in self.blocks)

    def add(self, placed: PlacedBlock) -> Tower:
        """A new tower with one more block; the caller has checked it rests there."""
        return Tower((*self.blocks, placed))

    def remove(self, block_id: str) -> Tower:
        """A new tower without the named block (an over-the-top block leaves)."""
        return Tower(tuple(pb for pb in self.blocks if pb.block.id != block_id))

    def __str__(self) -> str:
        top = max(LEVELS, max(self.heights))
        letter = {c: pb.block.colour.letter for pb in self.blocks for c in pb.cells}
        lines = []
        for z in reversed(range(top)):
            rows = []
            for y in reversed(range(WIDTH)):
                rows.append("".join(letter.get((x, y, z), ".") for x in range(WIDTH)))
            mark = "^" if z >= LEVELS else " "
            lines.append(f"{z + 1:>2}{mark} " + " ".join(rows))
        lines.append("     " + " ".join(f"r{y + 1} " for y in reversed(range(WIDTH))))
        return "\n".join(lines)


@lru_cache(maxsize=4096)
def _plan(shape: frozenset[Cell]) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """Span across x and y, and the lowest cube of the shape in each column it covers."""
    bottoms: dict[tuple[int, int], int] = {}
    for x, y, z in shape:
        if (x, y) not in bottoms or z < bottoms[(x, y)]:
            bottoms[(x, y)] = z
    span_x = max(c[0] for c in shape) + 1
    span_y = max(c[1] for c in shape) + 1
    return span_x, span_y, tuple((x, y, z) for (x, y), z in sorted(bottoms.items()))


def heights_of(cells: Iterable[Cell]) -> tuple[int, ...]:
    """Cubes-high of each rod's top cube for loose cube positions (a physical tower)."""
    h = [0] * RODS
    for x, y, z in cells:
        h[_rod(x, y)] = max(h[_rod(x, y)], z + 1)
    return tuple(h)


def drop(heights: tuple[int, ...], shape: frozenset[Cell], at: tuple[int, int]) -> frozenset[Cell]:
    """Where one orientation of a block comes to rest, threaded with its corner on rod ``at``.

    The same fall as ``resting_placements`` uses, for a hand that chose the
    spot: the simulated table's physics. Raises OverhangError off the rods.
    """
    span_x, span_y, bottoms = _plan(shape)
    tx, ty = at
    if not (0 <= tx <= WIDTH - span_x and 0 <= ty <= WIDTH - span_y):
        raise OverhangError(f"a block {span_x} x {span_y} rods wide overhangs the tower with "
                            f"its corner there: choose a spot where every cube has a rod")
    rest = max(heights[_rod(tx + x, ty + y)] - z for x, y, z in bottoms)
    return frozenset((x + tx, y + ty, z + rest) for x, y, z in shape)


def resting_placements(tower: Tower, block: Block) -> tuple[frozenset[Cell], ...]:
    """Every distinct place the block can come to rest on this tower.

    Each is the set of cells the block's cubes would fill. Over-the-top
    placements are included: they are legal, and they end the game.
    """
    heights = tower.heights
    found: dict[frozenset[Cell], None] = {}
    for shape in block.orientations:
        span_x, span_y, bottoms = _plan(shape)
        for tx in range(WIDTH - span_x + 1):
            for ty in range(WIDTH - span_y + 1):
                rest = max(heights[_rod(tx + x, ty + y)] - z for x, y, z in bottoms)
                cells = frozenset((x + tx, y + ty, z + rest) for x, y, z in shape)
                found.setdefault(cells, None)
    return tuple(found)


def check_placement(tower: Tower, block: Block, cells: frozenset[Cell]) -> None:
    """Raise the specific reason why ``block`` cannot fill ``cells``; return if it can."""
    if not cells or normalize(cells) not in block.orientations:
        raise ShapeMismatchError(
            f"those {counted(len(cells), 'cube position')} do not make the shape of the {block}"
        )
    _check_on_rods(block, cells)
    taken = sorted(cells & tower.occupied)
    if taken:
        raise CellsTakenError(
            f"the {block} cannot go there: {cell_name(taken[0])} already holds a cube"
        )
    lowest: dict[tuple[int, int], int] = {}
    for x, y, z in cells:
        lowest[(x, y)] = min(z, lowest.get((x, y), z))
    heights = tower.heights
    for (x, y), z in sorted(lowest.items()):
        if z < heights[_rod(x, y)]:
            raise NotRestingError(
                f"the {block} cannot get down to {cell_name((x, y, z))}: the cubes above "
                f"it on rod {rod_name(x, y)} are in the way, and gaps stay empty"
            )
    gap = min(z - heights[_rod(x, y)] for (x, y), z in lowest.items())
    if gap > 0:
        raise NotRestingError(
            f"the {block} would not stay there: it floats {counted(gap, 'level')} above the "
            f"tower and falls until a cube rests on a rod's top cube"
        )


def _check_on_rods(block: Block, cells: frozenset[Cell]) -> None:
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    side = None
    if max(xs) >= WIDTH:
        side = "beyond column c"
    elif min(xs) < 0:
        side = "before column a"
    elif max(ys) >= WIDTH:
        side = "beyond row 3"
    elif min(ys) < 0:
        side = "before row 1"
    if side:
        raise OverhangError(f"the {block} overhangs the tower {side}: every cube needs a rod")
    if min(c[2] for c in cells) < 0:
        raise OverhangError(f"the {block} cannot go below the base of the tower")
