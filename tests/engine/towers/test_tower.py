"""One tower's geometry: falling, gaps, overhangs, over the top, flats."""

from __future__ import annotations

import pytest

from engine.errors import CellsTakenError, NotRestingError, OverhangError, ShapeMismatchError
from engine.players import Player
from engine.towers.blocks import Block, Colour
from engine.towers.tower import LEVELS, PlacedBlock, Tower, check_placement, resting_placements
from tests.support.towers import COLUMN_A, build_tower, cells, column


def _block(shape, colour=Colour.GREEN, block_id="X"):
    return Block(block_id, colour, frozenset(shape))


@pytest.mark.parametrize(("block_id", "count"), [
    ("K01", 9),   # a single cube on any rod
    ("Y01", 12),  # flat pair: 6 along x + 6 along y
    ("Y04", 9),   # standing pair on any rod
    ("R01", 6),   # flat bar of three: 3 rows + 3 columns
    ("G01", 4),  # flat square: 4 corners
    ("B03", 1),  # the plus only fits centred
])
def test_placements_on_an_empty_tower(block_set, block_id, count):
    placements = resting_placements(Tower(), block_set[block_id])
    assert len(placements) == count
    assert all(min(z for _, _, z in p) == 0 for p in placements)


def test_a_block_rests_on_the_highest_cube_it_covers(block_set):
    # A standing pair on b2, then a flat bar across row 2: the bar rests on the pair.
    tower = build_tower(block_set, ("Y04", cells("b2:1", "b2:2")))
    bar_row2 = [p for p in resting_placements(tower, block_set["R01"])
                if {(x, y) for x, y, _ in p} == {(0, 1), (1, 1), (2, 1)}]
    assert bar_row2 == [cells("a2:3", "b2:3", "c2:3")]
    after = tower.add(PlacedBlock(block_set["R01"], bar_row2[0], Player.A))
    # The gaps under the bar on a2 and c2 stay empty, yet count as covered.
    assert after.heights == (0, 0, 0, 3, 3, 3, 0, 0, 0)
    assert (0, 1, 0) not in after.occupied


def test_upside_down_blocks_hang_their_low_cube_into_a_lower_column(block_set):
    # Standing corner R04 upside down: its single low cube drops beside a tall rod.
    tower = build_tower(block_set, ("Y04", cells("a1:1", "a1:2")))
    fits = resting_placements(tower, block_set["R04"])
    assert cells("b1:1", "b1:2", "a1:3") not in fits  # the hanging cube would need to sink
    assert cells("b1:2", "a1:3", "b1:3") in fits       # it rests on a1's top instead


def test_a_gap_never_fills(block_set):
    tower = build_tower(block_set, ("B12", cells("a1:1", "a1:2", "b1:2", "c1:2", "c1:1")))
    # The arch leaves b1 level 1 empty; a single cube on b1 lands on top of the arch.
    assert resting_placements(tower, block_set["K01"]).count(cells("b1:3")) == 1
    with pytest.raises(NotRestingError, match=r"b1 level 1.*in the way"):
        check_placement(tower, block_set["K01"], cells("b1:1"))


def test_floating_blocks_are_refused(block_set):
    with pytest.raises(NotRestingError, match="floats 2 level"):
        check_placement(Tower(), block_set["G01"], cells("a1:3", "b1:3", "a2:3", "b2:3"))


@pytest.mark.parametrize(("block_id", "where", "side"), [
    ("R01", {(1, 0, 0), (2, 0, 0), (3, 0, 0)}, "beyond column c"),
    ("R01", {(-1, 2, 0), (0, 2, 0), (1, 2, 0)}, "before column a"),
    ("R02", {(0, 2, 0), (0, 3, 0), (1, 2, 0)}, "beyond row 3"),
])
def test_overhang_names_the_block_and_the_side(block_set, block_id, where, side):
    colour = block_set[block_id].colour
    with pytest.raises(OverhangError,
                       match=f"the {colour} block overhangs the tower {side}"):
        check_placement(Tower(), block_set[block_id], frozenset(where))


def test_wrong_shape_and_taken_cells(block_set):
    with pytest.raises(ShapeMismatchError, match="shape of the green block"):
        check_placement(Tower(), block_set["G01"], cells("a1:1", "b1:1", "c1:1", "c2:1"))
    tower = build_tower(block_set, ("K01", cells("a1:1")))
    with pytest.raises(CellsTakenError, match="a1 level 1 already holds a cube"):
        check_placement(tower, block_set["K02"], cells("a1:1"))


def test_every_resting_placement_is_found_and_passes_the_check(block_set):
    """Against a slow oracle: every turn of the block at every spot on the 3 x 3,
    dropped until one of its cubes meets the top of the rod under it."""
    tower = build_tower(block_set, ("B12", cells("a1:1", "a1:2", "b1:2", "c1:2", "c1:1")),
                        ("G09", cells("a2:1", "b2:1", "a3:1", "a2:2")))
    top = {(x, y): max((z + 1 for cx, cy, z in tower.occupied if (cx, cy) == (x, y)),
                       default=0) for x in range(3) for y in range(3)}
    total = 0
    for block in block_set.blocks:
        expected = set()
        for shape in block.orientations:
            for dx in range(3):
                for dy in range(3):
                    moved = [(x + dx, y + dy, z) for x, y, z in shape]
                    if any(not (0 <= x < 3 and 0 <= y < 3) for x, y, _ in moved):
                        continue
                    drop = max(top[(x, y)] - z for x, y, z in moved)
                    expected.add(frozenset((x, y, z + drop) for x, y, z in moved))
        found = resting_placements(tower, block)
        assert set(found) == expected and len(found) == len(expected), block.id
        for placement in found:
            check_placement(tower, block, placement)
        total += len(found)
    assert total > 100          # the oracle itself found plenty to compare


def test_over_the_top_is_counted_per_block(block_set):
    tower = column(block_set, COLUMN_A)
    assert tower.heights[0] == 8 and tower.overflow == 0
    # The square with a post, on a1 level 9: upright only the post is above the
    # rods; upside down the post hangs onto a1 and the whole square is above.
    over = {p: tower.add(PlacedBlock(block_set["B09"], p, Player.A)).overflow
            for p in resting_placements(tower, block_set["B09"]) if (0, 0, 8) in p}
    assert over[cells("a1:9", "b1:9", "a2:9", "b2:9", "a1:10")] == 1
    assert over[cells("a1:9", "a1:10", "b1:10", "a2:10", "b2:10")] == 4
    assert all(n == sum(1 for c in p if c[2] >= LEVELS) for p, n in over.items())


def test_flat_means_all_nine_rods_level_and_not_empty(block_set):
    assert not Tower().is_flat
    p_block = cells("a1:1", "b1:1", "a2:1", "b2:1", "a3:1")
    l_block = cells("c1:1", "c2:1", "c3:1", "b3:1")
    half = build_tower(block_set, ("B01", p_block))
    assert not half.is_flat
    assert build_tower(block_set, ("B01", p_block), ("G05", l_block)).is_flat


def test_heights_after_matches_adding_a_block(block_set):
    tower = build_tower(block_set, ("Y04", cells("b2:1", "b2:2")))
    for placement in resting_placements(tower, block_set["B11"]):
        added = tower.add(PlacedBlock(block_set["B11"], placement, Player.B))
        assert tower.heights_after(placement) == added.heights


def test_the_tower_drawing_shows_colours_by_level(block_set):
    text = str(build_tower(block_set, ("Y04", cells("b2:1", "b2:2")), ("K01", cells("a3:1"))))
    lines = text.splitlines()
    assert lines[0].startswith(" 9 ")
    assert lines[-2] == " 1  K.. .Y. ..."
    assert lines[-3] == " 2  ... .Y. ..."


def test_a_custom_shape_on_a_built_tower():
    staircase = _block({(0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1)})
    fits = resting_placements(Tower(), staircase)
    # 2 directions x 2 (upright / upside down) x 3 rows or columns.
    assert len(fits) == 12
