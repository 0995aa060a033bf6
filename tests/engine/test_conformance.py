"""Every registered game meets the one game API: the same checks for each.

Random play to the end from seeded chance; the record of the game written
as plain data, read back and replayed to the same end; every action's
string read back as the same action; and the public observation: two games
whose starts look the same to everyone still look the same after the same
actions, so whatever chance hid (High Rise's values) never shows before the
end. The games come from the registry, so a game registered by a test (the
toy game of ``tests/support/toy``) is checked just the same.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.core import Outcome, seeded_start
from engine.record import Record, options_to_dict, replay_record
from firmware.games import GAMES
from tests.support.toy import registered

registered()  # the fifth game, defined in the tests only, checked like the four
MAX_ACTIONS = 5_000


def _games():
    return sorted(GAMES)


def _play(game, seed: int, rng: random.Random, chooser=None):
    state, _ = seeded_start(game, seed)
    states, actions = [state], []
    while not state.is_terminal():
        assert len(actions) < MAX_ACTIONS, "no end: the rules never finish"
        legal = state.legal_actions()
        assert legal, f"no legal action, yet not over:\n{state}"
        action = chooser(state, legal) if chooser else rng.choice(legal)
        actions.append(action)
        state = state.apply_action(action)
        states.append(state)
    return states, actions


@pytest.mark.parametrize("game_id", _games())
def test_random_play_reaches_an_outcome(game_id):
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    for seed in range(3):
        states, _ = _play(game, seed, random.Random(seed))
        for state in states[:-1]:
            assert not state.is_terminal() and state.outcome() is None
            assert state.returns() == (0.0, 0.0)
            assert not state.is_chance_node()             # seeded chance is resolved
            assert state.current_player() is not None
        last = states[-1]
        outcome = last.outcome()
        assert isinstance(outcome, Outcome) and last.current_player() is None
        assert last.returns() == outcome.returns() and sum(last.returns()) == 0
        json.dumps(outcome.to_dict())                      # plain data, for every reader
        assert outcome.words() and all(isinstance(line, str) for lines in outcome.breakdown
                                       for line in lines)


@pytest.mark.parametrize("game_id", _games())
def test_the_same_seed_plays_the_same_game(game_id):
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    one = _play(game, 11, random.Random(5))
    two = _play(game, 11, random.Random(5))
    assert one[1] == two[1] and one[0][-1].observation() == two[0][-1].observation()


@pytest.mark.parametrize("game_id", _games())
def test_a_record_round_trips_through_replay(game_id):
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    to_dict, from_dict = spec.codec()
    states, actions = _play(game, 7, random.Random(7))
    record = Record(game_id, options_to_dict(game.options), 7,
                    tuple(to_dict(a) for a in actions))
    again = Record.from_dict(json.loads(json.dumps(record.to_dict())))
    replayed = replay_record(spec.make(spec.options()), again, from_dict)
    assert len(replayed) == len(states)
    assert [s.observation() for s in replayed] == [s.observation() for s in states]
    assert replayed[-1].outcome() == states[-1].outcome()


@pytest.mark.parametrize("game_id", _games())
def test_every_action_string_reads_back_as_the_same_action(game_id):
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    states, _ = _play(game, 3, random.Random(3))
    root = game.new_initial_state()
    for state in [root, *states[::3]]:
        for action in state.legal_actions()[:200]:
            text = state.action_to_string(action)
            assert isinstance(text, str) and text
            assert state.string_to_action(text) == action, text
    with pytest.raises(ValueError):
        states[0].string_to_action("not an action at all")


@pytest.mark.parametrize("game_id", _games())
def test_the_observation_shows_nothing_chance_hid(game_id):
    """Two starts that look alike stay alike under the same actions, to the end."""
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    starts: dict[str, int] = {}
    pair = None
    for seed in range(200):
        seen = json.dumps(seeded_start(game, seed)[0].observation(), sort_keys=True)
        if seen in starts:
            pair = (starts[seen], seed)
            break
        starts[seen] = seed
    assert pair is not None, "no two seeds start alike: the observation shows the seed"
    rng = random.Random(1)
    one, _ = seeded_start(game, pair[0])
    two, _ = seeded_start(game, pair[1])
    while not one.is_terminal():
        assert one.observation() == two.observation()
        assert one.legal_actions() == two.legal_actions()
        json.dumps(one.observation())
        action = rng.choice(one.legal_actions())
        one, two = one.apply_action(action), two.apply_action(action)
    assert two.is_terminal()
