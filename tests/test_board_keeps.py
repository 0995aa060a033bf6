"""The simulated board keeps its pieces, as the wooden set does (issue 32, point 1).

What the hands put on the simulated table is written to the state directory
after every act and put back when a board starts there again: a restarted
``obelisk play`` finds the table as it was and plays on, with no repair asked.
A file that is damaged or from another game leaves the board empty, says why
in one line, and is kept aside, never deleted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.sim.hands_board import TABLE_FILE, hands_for
from hardware.sim.board import SimBoard

ACTS = {
    "towers": ("sim", [
        {"act": "take", "seat": "A", "block": "G01"},
        {"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]},
        {"act": "take", "seat": "A", "block": "B01"},
        {"act": "set", "seat": "A", "pad": 1},
        {"act": "take", "seat": "B", "block": "G03"},
        {"act": "lower", "seat": "B", "tower": 1, "at": [0, 0]},
        {"act": "knock", "tower": 1},  # G03 lies on the table
        {"act": "take", "seat": "B", "block": "G02"},
        {"act": "turn", "seat": "B"},
        {"act": "hover", "seat": "B", "tower": 0, "at": [1, 1]},  # a hand over tower 0
    ]),
    "stones": ("sim", [
        {"act": "take", "seat": "A", "piece": "A corner"},
        {"act": "put", "seat": "A", "square": "c1"},
        {"act": "take", "seat": "A", "piece": "A key"},
        {"act": "put", "seat": "A", "square": "c1"},  # a stack of two
        {"act": "take", "seat": "B", "piece": "B cap"},  # held
    ]),
    "highrise": ("sim", [
        {"act": "cover", "square": "b1"},
        {"act": "set", "seat": "A", "square": "b1", "size": "medium"},
        {"act": "set", "seat": "B", "square": "b1", "size": "small"},
        {"act": "lean", "seat": "B", "square": "a2", "other": "b2", "size": "large"},
    ]),
    "maze": ("sim-maze", [
        {"act": "take", "seat": "A", "piece": "obelisk"},
        {"act": "put", "seat": "A", "square": "a1"},
        {"act": "take", "seat": "B", "piece": "segment 2"},
        {"act": "put", "seat": "B", "square": "a3"},
        {"act": "lift", "seat": "A", "square": "a1"},
        {"act": "put", "seat": "A", "square": "a3"},  # the obelisk on its segment
        {"act": "stand", "square": "c3"},
        {"act": "stand", "square": "h8"},
        {"act": "take", "seat": "B", "piece": "segment 4"},  # held
    ]),
}


def _truth(board: SimBoard) -> tuple:
    """What the scanner code reads off the simulated table: every sensor's physical cause."""
    sim = board.sim
    return sim.cubes, sim.stacks, sim.grams, sim.walls, sim.hovering, sim.load_counts()


@pytest.mark.parametrize("game", list(ACTS))
def test_a_board_started_again_on_its_directory_has_the_same_pieces(tmp_path, game):
    profile, acts = ACTS[game]
    with SimBoard(tmp_path, profile, hands_for(game)) as board:
        empty = _truth(board)
        for act in acts:
            answer = board.answer(act)
            assert answer["ok"], answer
        truth, look = _truth(board), board.answer({"act": "look"})["table"]
    assert truth != empty
    with SimBoard(tmp_path, profile, hands_for(game)) as again:
        assert _truth(again) == truth  # the same sensors
        assert again.answer({"act": "look"})["table"] == look  # the same pieces, and hands
        assert again.hands.said == ""
    fresh = SimBoard(tmp_path / "other", profile, hands_for(game))
    assert _truth(fresh) == empty  # another directory's board starts empty


def test_the_kept_pieces_play_on_the_hands_know_which_block_is_which(tmp_path):
    """The restored hands are the hands: the block on the tower lifts off, the held one
    lowers, the knocked one is picked up off the table."""
    with SimBoard(tmp_path, "sim", hands_for("towers")) as board:
        for act in ACTS["towers"][1]:
            assert board.answer(act)["ok"]
    with SimBoard(tmp_path, "sim", hands_for("towers")) as board:
        for act in ({"act": "lower", "seat": "B", "tower": 0, "at": [1, 1]},
                    {"act": "take", "seat": "B", "block": "G03"},
                    {"act": "lift", "seat": "A", "tower": 0, "block": "G02"}):
            answer = board.answer(act)
            assert answer["ok"], (act, answer)
        look = board.answer({"act": "look"})["table"]
    assert [p["id"] for p in look["towers"][0]] == ["G01"]
    assert look["held"]["A"]["id"] == "G02" and look["held"]["B"]["id"] == "G03"
    assert "G03" not in {b["id"] for b in look["pile"]} and look["fallen"] == []


def _maze_file(tmp_path: Path) -> bytes:
    with SimBoard(tmp_path / "maze", "sim-maze", hands_for("maze")) as board:
        for act in ACTS["maze"][1]:
            board.answer(act)
    return (tmp_path / "maze" / TABLE_FILE).read_bytes()


DAMAGED = {
    "not JSON": (lambda _: b'{"game": "towers", "table": {"tow', "cannot be read"),
    "empty": (lambda _: b"", "cannot be read"),
    "not a table": (lambda _: b"[1, 2, 3]", "cannot be read"),
    "another game's": (_maze_file, "from a game of maze, not towers"),
    "unknown block": (lambda _: json.dumps({"game": "towers", "table": {
        "pads": [None, None], "held": {"A": None, "B": None}, "fallen": [],
        "towers": [[{"block": "Z99", "cells": [[0, 0, 0]]}], []], "hovering": None}}).encode(),
        "cannot be read"),
    "a block twice": (lambda _: json.dumps({"game": "towers", "table": {
        "pads": ["G01", None], "held": {"A": None, "B": {"block": "G01", "turn": 0}},
        "fallen": [], "towers": [[], []], "hovering": None}}).encode(), "cannot be read"),
}


@pytest.mark.parametrize("case", list(DAMAGED))
def test_a_damaged_or_foreign_file_leaves_the_board_empty_says_why_and_is_kept(tmp_path,
                                                                              case):
    make, words = DAMAGED[case]
    data = make(tmp_path)
    state = tmp_path / "table"
    state.mkdir()
    (state / TABLE_FILE).write_bytes(data)
    with SimBoard(state, "sim", hands_for("towers")) as board:
        said = board.hands.said
        assert not any(board.sim.cubes) and not any(board.sim.grams)  # empty
        assert board.answer({"act": "look"})["table"] == \
            SimBoard(tmp_path / "fresh", "sim", hands_for("towers")).hands.look()
    assert len(said.splitlines()) == 1 and words in said, said
    assert "Traceback" not in said and "starts empty" in said, said
    kept = [p for p in state.iterdir() if p.name.startswith("sim-hands") and "aside" in p.name]
    assert [p.read_bytes() for p in kept] == [data]  # kept aside, whole
    assert str(kept[0]) in said and not (state / TABLE_FILE).exists()


def test_a_file_kept_aside_never_replaces_another_kept_aside(tmp_path):
    for n in range(3):
        (tmp_path / TABLE_FILE).write_bytes(b"damaged %d" % n)
        SimBoard(tmp_path, "sim", hands_for("towers"))
    kept = sorted(p.read_bytes() for p in tmp_path.iterdir() if "aside" in p.name)
    assert kept == [b"damaged 0", b"damaged 1", b"damaged 2"]
