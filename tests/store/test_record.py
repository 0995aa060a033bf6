"""A game's record: every action through JSON and back, a game replayed exactly, bad entries
named in words."""

from __future__ import annotations

import json
import random

import pytest

from engine.bots import low_action
from engine.players import Player
from engine.record import RecordError, options_from_dict, options_to_dict, replay
from engine.towers.actions import Choose, Place, Timeout
from engine.towers.game import TowersOptions
from engine.towers.record import action_from_dict, action_to_dict


def _game_actions(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(first=Player.B)
    actions = []
    while not state.is_terminal():
        action = Timeout() if rng.random() < 0.05 and state.phase.value == "choose" \
            else low_action(state, rng)
        actions.append(action)
        state = state.apply_action(action)
    return state, actions


def test_every_action_survives_json_and_a_game_replays_exactly(game, block_set):
    for seed in range(5):
        final, actions = _game_actions(game, seed)
        data = json.loads(json.dumps([action_to_dict(a) for a in actions]))
        again = [action_from_dict(d) for d in data]
        assert again == actions
        assert replay(game.new_initial_state(first=Player.B), again)[-1] == final


@pytest.mark.parametrize(("entry", "words"), [
    ({"a": "fly"}, "unknown action 'fly'"),
    ({"a": "place", "tower": "C", "block": "G01", "cells": []}, "malformed"),
    ({"a": "place", "tower": "A", "block": "G01", "cells": [[0, 0]]}, "three whole numbers"),
    (["choose"], "must be an object"),
    ({"a": "decline"}, "incomplete"),
])
def test_bad_record_entries_say_what_is_wrong(entry, words):
    with pytest.raises(RecordError, match=words):
        action_from_dict(entry)


def test_a_record_that_does_not_replay_names_the_action(block_set, game):
    actions = [Choose("G01"), Choose("G01")]
    with pytest.raises(RecordError, match=r"action 2 \(choose G01 for the building zone\)"):
        replay(game.new_initial_state(first=Player.A), actions)


def test_options_round_trip():
    options = TowersOptions(hourglass_s=45, sudden_death=True)
    assert options_from_dict(TowersOptions, options_to_dict(options)) == options
    with pytest.raises(RecordError):
        options_from_dict(TowersOptions, {"hourglass_s": -1})


def test_a_placement_entry_keeps_its_cells():
    place = Place(Player.A, "G07", frozenset({(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)}))
    data = action_to_dict(place)
    assert data["cells"] == [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]
    assert action_from_dict(data) == place


