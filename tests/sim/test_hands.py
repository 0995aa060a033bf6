"""The simulated board as a process of its own, its hands, and `obelisk play`.

The hands change only the simulated sensors; the table learns of each act
through the scanner code, the pseudo-terminal, the link, settling and the
engine, and the journal shows what it accepted.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

import pytest

from firmware.towers.hands import HandsError, TowersHands
from firmware.towers.view import ZONE_PADS, ZoneScale
from hardware.profile import board_layout, load_profile
from hardware.sim.line_socket import ask
from hardware.sim.table import GRAMS_TO_COUNTS, LOAD_OFFSET, SimTable
from tests.support.person import Follow, plan
from tests.support.play import Play
from tests.support.towers import BLOCK_ID

OBELISK = str(Path(sys.executable).parent / "obelisk")


@pytest.fixture
def hands():
    sim = SimTable(board_layout(load_profile("sim")))  # never started: only its physical truth
    return TowersHands(sim)


def test_a_lowered_block_rests_where_the_tower_lets_it(hands):
    hands.act({"act": "take", "seat": "A", "block": "G01"})
    hands.act({"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]})
    first = hands.towers[0][0].cells
    assert min(z for *_, z in first) == 0
    assert hands.sim.cubes[0] == first
    hands.act({"act": "take", "seat": "B", "block": "G02"})
    hands.act({"act": "lower", "seat": "B", "tower": 0, "at": [0, 0]})
    second = hands.towers[0][1].cells
    assert not first & second
    assert min(z for *_, z in second) >= 1  # it fell onto the first block, no lower
    with pytest.raises(HandsError, match="under another block"):
        hands.act({"act": "lift", "seat": "A", "tower": 0, "block": "G01"})
    hands.act({"act": "lift", "seat": "A", "tower": 0, "block": "G02"})
    assert hands.sim.cubes[0] == first and hands.held["A"].block == "G02"


def test_a_pad_weighs_what_the_hand_sets_on_it(hands):
    hands.act({"act": "take", "seat": "A", "block": "B01"})
    assert "B01" not in hands.pile()
    hands.act({"act": "set", "seat": "A", "pad": 1})
    raw = LOAD_OFFSET + int(hands.sim.grams[ZONE_PADS[1]] * GRAMS_TO_COUNTS)
    assert str(ZoneScale().colour(raw)) == "blue"
    with pytest.raises(HandsError, match="already holds"):
        hands.act({"act": "take", "seat": "B", "block": "R01"}) or \
            hands.act({"act": "set", "seat": "B", "pad": 1})


def test_turns_knocks_and_hovers_change_only_the_sensors(hands):
    hands.act({"act": "take", "seat": "A", "block": "G03"})
    turns = hands.look()["held"]["A"]["turns"]
    shapes = set()
    for _ in range(turns):
        shapes.add(tuple(map(tuple, hands.look()["held"]["A"]["shape"])))
        hands.act({"act": "turn", "seat": "A"})
    assert len(shapes) == turns  # every orientation the rules allow, once
    hands.act({"act": "hover", "seat": "A", "tower": 1, "at": [0, 0]})
    assert hands.sim.hovering and not hands.sim.cubes[1]
    hands.act({"act": "lower", "seat": "A", "tower": 1, "at": [0, 0]})
    assert not hands.sim.hovering and hands.sim.cubes[1]
    hands.act({"act": "knock", "tower": 1})
    assert not hands.sim.cubes[1] and hands.look()["fallen"][0]["id"] == "G03"
    hands.act({"act": "take", "seat": "B", "block": "G03"})  # picked up off the table
    with pytest.raises(HandsError, match="overhangs"):
        hands.act({"act": "lower", "seat": "B", "tower": 0, "at": [2, 2]})
    with pytest.raises(HandsError, match="cannot 'fly'"):
        hands.act({"act": "fly"})


def test_the_hands_refusals_name_a_block_by_its_colour(hands):
    """A person tells the wooden blocks by their colour and where they are (they carry no
    labels): no refusal of the hands names a block by its id in the set file."""
    said = []

    def refused(act: dict) -> None:
        with pytest.raises(HandsError) as err:
            hands.act(act)
        said.append(str(err.value))

    hands.act({"act": "take", "seat": "A", "block": "G01"})
    hands.act({"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]})
    hands.act({"act": "take", "seat": "A", "block": "B01"})
    refused({"act": "take", "seat": "B", "block": "B01"})  # in A's hand
    refused({"act": "take", "seat": "A", "block": "R01"})  # A's hand is full
    refused({"act": "lift", "seat": "B", "tower": 1, "block": "G01"})  # on the other tower
    hands.act({"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]})
    refused({"act": "lift", "seat": "B", "tower": 0, "block": "G01"})  # under the blue one
    hands.act({"act": "take", "seat": "B", "block": "R01"})
    hands.act({"act": "set", "seat": "B", "pad": 0})
    hands.act({"act": "take", "seat": "B", "block": "Y01"})
    refused({"act": "set", "seat": "B", "pad": 0})  # the red block is there
    assert len(said) == 5
    assert not [m for m in said if BLOCK_ID.search(m)], said
    assert "the blue block is not in the pile" in said[0], said



@pytest.mark.processes
def test_obelisk_play_plays_through_the_whole_stack_and_stops_on_ctrl_c(tmp_path):
    play = Play("towers", tmp_path).start()
    try:
        assert play.wait_started().startswith("obelisk play: open http://127.0.0.1:")
        follow = Follow(tmp_path)
        follow.start_game(lambda: ask(tmp_path / "buttons.sock", {"button": "A"}))
        hands = tmp_path / "hands.sock"
        for _ in range(4):  # two turns' choices and the take, each through the sensors
            look = ask(hands, {"act": "look"})["table"]
            before = follow.accepted()
            for act in plan(follow.obs, look):
                reply = ask(hands, act)
                assert reply["ok"], reply
            follow.until(lambda b=before: follow.accepted() > b, 30, "the table accepting")
        journal = [json.loads(line) for line in (tmp_path / "journal.jsonl").read_text()
                   .splitlines()]
        actions = [e["action"] for e in journal if e.get("t") == "action"]
        assert [a["a"] for a in actions[:2]] == ["choose", "choose"], actions
        assert "place" in [a["a"] for a in actions[2:]], actions
    finally:
        play.ctrl_c()
        code = play.wait_ended(30)
    errors = play.err.read_text()
    assert code == 130 and "Traceback" not in errors, errors
    left = {p.name for p in tmp_path.iterdir()}
    assert not left & {"hands.sock", "buttons.sock", "scanner", "sim-board.toml"}, left
    assert "Traceback" not in (tmp_path / "service.log").read_text()


@pytest.mark.processes
def test_obelisk_play_on_a_taken_port_says_so_and_starts_nothing(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        play = Play("towers", tmp_path, port=taken.getsockname()[1]).start()
        code = play.wait_ended(30)
    errors = play.err.read_text()
    assert code == 2 and "Traceback" not in errors, errors
    assert "choose another with --port" in errors
    assert not (tmp_path / "hands.sock").exists() and not (tmp_path / "scanner").exists()
    assert os.listdir(tmp_path) == [] or "journal.jsonl" not in os.listdir(tmp_path)


WEIRD = ([1, 2], {"a": 1}, None, 10**30, -1, "zz", True, 1e309, "")
FIELDS = ("seat", "block", "tower", "at", "pad", "square", "piece", "to", "size", "turn",
          "from", "wall", "pyramid", "stone", "index")


@pytest.mark.parametrize("game, profile", [("towers", "sim"), ("stones", "sim"),
                                           ("highrise", "sim"), ("maze", "sim-maze")])
def test_the_hands_answer_any_request_in_words_and_the_board_lives_on(tmp_path, game, profile):
    """The hands' socket takes requests from any local program: a field of the wrong kind
    is an answer in words, never a dead thread (a list as the act once was)."""
    from firmware.sim.hands_board import hands_for
    from hardware.sim.board import SimBoard

    board = SimBoard(tmp_path, profile, hands_for(game))
    names = ["take", "set", "turn", "lower", "lift", "back", "hover", "away", "knock", "put",
             "lean", "stand", "move"]
    for request in ([{"act": weird} for weird in WEIRD]
                    + [{"act": name, field: weird} for name in names for field in FIELDS
                       for weird in WEIRD]
                    + [{"act": name, **dict.fromkeys(FIELDS, weird)} for name in names
                       for weird in WEIRD]):
        answer = board.answer(request)
        assert isinstance(answer, dict) and isinstance(answer.get("table"), dict), request
        if not answer["ok"]:
            assert isinstance(answer["error"], str) and answer["error"], request
    assert board.answer({"act": "look"})["ok"]
