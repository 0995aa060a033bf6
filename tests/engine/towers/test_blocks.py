"""The block set: the default file, orientations, and refusing bad set files."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import BlockSetError
from engine.towers.blocks import (
    WIDTH,
    Colour,
    is_connected,
    normalize,
    orientations,
    parse_block_set,
)
from firmware.towers.sets import load_block_set


def test_default_set_has_the_seed_counts(block_set):
    counts = Counter(b.colour for b in block_set.blocks)
    assert counts == {Colour.BLACK: 4, Colour.YELLOW: 4, Colour.RED: 4,
                      Colour.GREEN: 15, Colour.BLUE: 12}
    assert len({b.id for b in block_set.blocks}) == 39


def test_default_blocks_have_ids_in_one_form_and_are_said_by_their_colour(block_set):
    """The set file's ids, the record's (K01 as G01, never K1 beside G01); in words a block
    is its colour, all the table can tell of it (the wooden blocks carry no labels)."""
    for block in block_set.blocks:
        assert block.id == f"{block.colour.letter}{block.id[1:]}" and len(block.id) == 3 \
            and block.id[1:].isdigit(), block.id
        assert str(block) == f"{block.colour} block"


def test_default_blocks_are_connected_fit_the_footprint_and_match_volume(block_set):
    for block in block_set.blocks:
        assert len(block.cells) == block.colour.volume, block.id
        assert is_connected(block.cells), block.id
        assert max(x for x, _, _ in block.cells) < WIDTH, block.id
        assert max(y for _, y, _ in block.cells) < WIDTH, block.id


def test_several_default_blocks_are_genuinely_3d(block_set):
    def spans(cells, axis):
        return len({c[axis] for c in cells}) > 1
    solid = [b.id for b in block_set.blocks
             if spans(b.cells, 0) and spans(b.cells, 1) and spans(b.cells, 2)]
    assert len(solid) >= 5, solid


@pytest.mark.parametrize(("cells", "count"), [
    ({(0, 0, 0)}, 1),                                    # a single cube
    ({(0, 0, 0), (1, 0, 0)}, 2),                         # flat pair: along x or y
    ({(0, 0, 0), (0, 0, 1)}, 1),                         # standing pair: always the same
    ({(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)}, 1),   # flat square
    ({(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)}, 8),   # flat L: 4 turns x 2 mirror images
    ({(0, 0, 0), (1, 0, 0), (0, 0, 1)}, 8),              # standing corner: 4 turns x up/down
    ({(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 0, 1)}, 4),   # standing T: upside down is new,
])                                                        # but half turns repeat
def test_orientation_counts(cells, count):
    assert len(orientations(frozenset(cells))) == count


def test_orientations_keep_holes_vertical():
    # A standing pair never lies down: every orientation is still one rod wide.
    for shape in orientations(frozenset({(0, 0, 0), (0, 0, 1), (1, 0, 1)})):
        assert len({z for _, _, z in shape}) == 2


def _set_text(block_set, replace_id=None, new_entry=None, drop=None):
    """The default set as TOML, with one block replaced or dropped."""
    lines = [f'name = "{block_set.name}"']
    for b in block_set.blocks:
        if b.id == drop:
            continue
        if b.id == replace_id:
            lines.append(new_entry)
            continue
        cells = ", ".join(f"[{x}, {y}, {z}]" for x, y, z in sorted(b.cells))
        lines.append(f'[[block]]\nid = "{b.id}"\ncolour = "{b.colour}"\ncells = [{cells}]')
    return "\n".join(lines)


def test_the_default_set_round_trips(block_set):
    again = parse_block_set(_set_text(block_set))
    assert again.blocks == block_set.blocks


@pytest.mark.parametrize(("entry", "words"), [
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[2,0,0]]',
     ["block G07", "4 cubes", "3 cells are listed"]),
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[0,1,0],[2,2,0]]',
     ["block G07", "not connected"]),
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]',
     ["block G07", "4 x 1", "wider than the 3 x 3"]),
    ('[[block]]\nid = "G07"\ncolour = "purple"\ncells = [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]',
     ["block G07", "unknown colour 'purple'"]),
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[1,0,0],[0,1,0]]',
     ["block G07", "listed twice"]),
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0],[1,1,0],[0,1,0]]',
     ["block G07", "three whole numbers"]),
    ('[[block]]\nid = "G01"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[1,1,0],[0,1,0]]',
     ["block G01", "used more than once"]),
    ('[[block]]\nid = "G07"\ncolour = "green"\ncells = [[0,0,0],[1,0,0],[1,1,0],[0,1,0]]\n'
     'colur = "green"', ["block #", "unknown key colur"]),
])
def test_bad_blocks_are_refused_by_name(block_set, entry, words):
    with pytest.raises(BlockSetError) as err:
        parse_block_set(_set_text(block_set, replace_id="G07", new_entry=entry),
                        source="my.toml")
    message = str(err.value)
    assert message.startswith("my.toml")
    for word in words:
        assert word in message


def test_wrong_counts_are_refused(block_set):
    with pytest.raises(BlockSetError, match=r"14 green block.*exactly 15"):
        parse_block_set(_set_text(block_set, drop="G07"))


@pytest.mark.parametrize(("text", "words"), [
    ("name = ", "not valid TOML"),
    ('name = "empty"', "no blocks found"),
    ("name = 3\n[[block]]", "'name' must be text"),
    ('block = "x"', "no blocks found"),
])
def test_bad_files_are_refused(text, words):
    with pytest.raises(BlockSetError, match=words):
        parse_block_set(text)


def test_loading_files_from_disk(tmp_path, block_set):
    good = tmp_path / "mine.toml"
    good.write_text(_set_text(block_set), "utf-8")
    assert load_block_set(good).blocks == block_set.blocks
    with pytest.raises(BlockSetError, match="not found"):
        load_block_set(tmp_path / "missing.toml")
    binary = tmp_path / "photo.toml"
    binary.write_bytes(b"\xff\xd8\xff\xe0 not text")
    with pytest.raises(BlockSetError, match="not a text file"):
        load_block_set(binary)
    assert load_block_set().name == "Obelisk Table default set"


def test_normalize_moves_a_shape_to_the_origin():
    assert normalize({(2, 1, 5), (2, 2, 5)}) == {(0, 0, 0), (0, 1, 0)}
