"""High Rise rules: pieces, turns, control scoring, the roll, and random games."""

from __future__ import annotations

import collections
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import seeded_start
from engine.errors import GameOverError
from engine.highrise.game import (
    HiddenError,
    HighriseGame,
    HighriseOptions,
    PieceError,
    Place,
    Size,
)
from engine.players import Player

A, B = Player.A, Player.B
S, M, L = Size.SMALL, Size.MEDIUM, Size.LARGE


def test_pieces_come_from_the_stashes_the_board_needs():
    assert HighriseOptions().pieces() == {S: 5, M: 10, L: 10}         # 3x3: two stashes
    assert HighriseOptions(5, 5).pieces() == {S: 20, M: 25, L: 25}    # 5x5: five stashes
    assert HighriseOptions(8, 8).stashes == 13
    with pytest.raises(ValueError, match="3x3 to 8x8"):
        HighriseOptions(2, 3)


def _rolled(seed, game=None):
    return seeded_start(game or HighriseGame(), seed)[0]


def test_the_roll_is_chance_fixed_by_the_seed_and_fair():
    root = HighriseGame().new_initial_state()
    assert root.is_chance_node() and root.current_player() is None
    assert [p for _, p in root.chance_outcomes()] == [1 / 6] * 6
    assert _rolled(7).values == _rolled(7).values != _rolled(8).values
    faces = collections.Counter(v for seed in range(3000) for v in _rolled(seed).values)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 4500) < 300 for n in faces.values())         # ~4.5 sigma
    firsts = collections.Counter(_rolled(seed).first for seed in range(3000))
    assert abs(firsts[A] - 1500) < 150


def _play(state, *moves):
    for square, size in moves:
        state = state.apply_action(Place(square, size))
    return state


def test_control_scores_the_opponents_pips_and_the_value_and_a_tie_scores_nothing():
    game = HighriseGame(HighriseOptions())
    state = game.state_with((4, 1, 1, 1, 6, 1, 1, 1, 2), A)
    # a1: A 3+1 against B 2 -> A scores 2 + 4.  b2: A 2 against B 2 -> tie, nothing.
    state = _play(state, ((0, 0), L), ((0, 0), M), ((0, 0), S), ((1, 1), M), ((1, 1), M))
    with pytest.raises(HiddenError, match="only at the end"):
        state.stacks_scored()                                        # nothing before the end
    while not state.is_terminal():                                   # the rest on c3
        state = state.apply_action(next(a for a in state.legal_actions() if a.square == (2, 2)))
    stacks = state.stacks_scored()
    assert stacks[0].pips == (4, 2) and stacks[0].controller is A and stacks[0].points == 6
    assert (stacks[4].pips, stacks[4].controller, stacks[4].points) == ((2, 2), None, 0)


def test_wrong_placements_are_refused_with_the_reason():
    game = HighriseGame(HighriseOptions())
    state = game.state_with((1,) * 9, A)
    with pytest.raises(PieceError, match="not on the 3x3 board"):
        state.apply_action(Place((3, 0), S))
    for _ in range(5):
        state = _play(state, ((0, 0), S), ((0, 1), S))
    with pytest.raises(PieceError, match="player A has no small pieces left"):
        state.apply_action(Place((0, 0), S))
    assert S not in {a.size for a in state.legal_actions()}


def test_hidden_facts_stay_out_of_the_states_text_equality_and_observation():
    one = HighriseGame().state_with((1, 2, 3, 4, 5, 6, 1, 2, 3), A)
    two = HighriseGame().state_with((6, 5, 4, 3, 2, 1, 6, 5, 4), A)
    text = repr(one) + str(one) + str(one.observation())
    assert "values" not in text and "stacks" not in text and str(one.values) not in text
    assert "25 pieces left" in one.public()
    assert one == two and hash(one) == hash(two)  # the same public facts, however hidden
    a = one.apply_action(Place((0, 0), S))
    b = two.apply_action(Place((0, 0), M))        # another piece on the same square
    assert a == b and a.observation() == b.observation()
    # where a pyramid went everyone sees (the board as it stands), never which it was
    elsewhere = two.apply_action(Place((1, 1), S)).observation()
    assert elsewhere["owners"] == {"b2": ["A"]} and a.observation()["owners"] == {"a1": ["A"]}
    assert {**elsewhere, "owners": None} == {**a.observation(), "owners": None}
    # and whose each pyramid is, bottom to top (its colour), never its size
    both = a.apply_action(Place((0, 0), L)).apply_action(Place((0, 0), M))
    others = b.apply_action(Place((0, 0), S)).apply_action(Place((0, 0), L))
    assert both.observation()["owners"] == {"a1": ["A", "B", "A"]}
    assert both.observation() == others.observation()
    assert "size" not in str(both.observation()) and "pips" not in str(both.observation())


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.sampled_from([(3, 3), (3, 4), (4, 4), (5, 5)]),
       moves=st.integers(0, 2**32))
def test_random_games(seed, size, moves):
    game = HighriseGame(HighriseOptions(*size))
    state = _rolled(seed, game)
    rng = random.Random(moves)
    each = game.options.pieces_each
    for ply in range(2 * each):
        assert not state.is_terminal() and state.outcome() is None
        # turns alternate from the player the roll chose
        assert state.to_play is (state.first if ply % 2 == 0 else state.first.other)
        state = state.apply_action(rng.choice(state.legal_actions()))
        placed = collections.Counter((p, s) for stack in state.stacks for p, s in stack)
        for p in (A, B):                               # pieces are conserved
            for s in Size:
                assert placed[(p, s)] + state.left[p.index][s.value - 1] == \
                    game.options.pieces()[s]
    assert state.is_terminal() and state.plies == 2 * each     # ends after every piece
    with pytest.raises(GameOverError):
        state.apply_action(Place((0, 0), S))
    outcome = state.outcome()
    stacks = state.stacks_scored()
    for p in (A, B):                                   # totals are the sum over stacks
        assert outcome.scores[p.index] == sum(s.points for s in stacks if s.controller is p)
    for s in stacks:                                   # each stack scored by the rule
        a, b = s.pips
        assert (s.controller is None) == (a == b)
        if s.controller is not None:
            assert s.points == min(a, b) + s.value
    a, b = outcome.scores
    assert outcome.winner is (None if a == b else A if a > b else B)
    assert state.returns() == ((0.0, 0.0) if a == b else (1.0, -1.0) if a > b else (-1.0, 1.0))
