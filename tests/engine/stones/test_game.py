"""Stones (SE20ND Obelisk): moves, pillars, symmetry modes and the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.players import Player
from engine.stones.game import (
    Edition,
    EndReason,
    IllegalMoveError,
    Kind,
    Mode,
    Stone,
    StonesGame,
    StonesOptions,
    StonesState,
)
from tests.support.stones import LOOP, mv, position, sq

A, B = Player.A, Player.B


# ----------------------------------------------------------------- the start


def test_the_default_board_and_setup():
    s = StonesGame().new_initial_state()
    assert (s.options.rows, s.options.cols) == (6, 4)
    assert s.board == {sq("d1"): (Stone(A, Kind.CAP),), sq("d2"): (Stone(A, Kind.KEY),),
                       sq("c1"): (Stone(A, Kind.CORNER),), sq("a6"): (Stone(B, Kind.CAP),),
                       sq("a5"): (Stone(B, Kind.KEY),), sq("b6"): (Stone(B, Kind.CORNER),)}
    assert s.to_play is A


@pytest.mark.parametrize(("mode", "ply1", "ply2"), [
    # Worked by hand on the 6 x 4 board: A may move the cornerstone c1-b2, the
    # capstone d1-c2 or the keystone d2-c3. All keep colour symmetry; only c1-b2
    # also lines up a cornerstone with B's (column b). B then has three moves
    # each time; in balanced play only two of them keep shape symmetry.
    (Mode.OPEN, 3, 9),
    (Mode.BOUNDED, 3, 9),
    (Mode.BALANCED, 1, 2),
])
def test_move_counts_of_the_first_plies(mode, ply1, ply2):
    s = StonesGame(StonesOptions(mode=mode)).new_initial_state()
    first = s.legal_actions()
    assert len(first) == ply1
    assert sum(len(s.apply_action(m).legal_actions()) for m in first) == ply2
    if mode is Mode.BALANCED:
        assert first == [mv("c1", "b2")]


def test_balanced_play_on_a_wide_board_is_lost_at_once():
    s = StonesGame(StonesOptions(rows=8, cols=8, mode=Mode.BALANCED)).new_initial_state()
    assert s.is_terminal() and s.outcome().winner is B
    assert s.outcome().termination == EndReason.NO_LEGAL_MOVES.value


@pytest.mark.parametrize(("edition", "words"), [
    (Edition.CLASSIC, ("keystone", "vault")), (Edition.SECOND, ("pedestal", "jump"))])
def test_editions_only_change_the_words(edition, words):
    s = position({"b3": "Ak", "c4": "Bc", "a1": "Ac", "a2": "Ap", "d6": "Bk", "c6": "Bp"},
                 edition=edition)
    move = mv("b3", "d5")
    assert move in s.legal_actions()
    assert s.move_to_string(move) == f"{words[0]} b3-d5 ({words[1]})"


# ----------------------------------------------------------------- moves


def test_steps_go_diagonally_forward_or_straight_back():
    s = position({"b3": "Ak", "a1": "Ac", "d1": "Ap", "a6": "Bp", "a5": "Bk", "b6": "Bc"})
    from_b3 = {m.to for m in s.legal_actions() if m.frm == sq("b3")}
    assert from_b3 == {sq("a4"), sq("c4"), sq("b2")}
    with pytest.raises(IllegalMoveError, match="one square diagonally forward or straight back"):
        s.apply_action(mv("b3", "b4"))


def test_a_jump_needs_the_square_beyond_empty_and_never_stacks():
    layout = {"b2": "Ak", "c3": "Bc", "a1": "Ac", "d1": "Ap", "a6": "Bp", "b5": "Bk"}
    s = position(layout)
    assert mv("b2", "d4") in s.legal_actions()
    # The same, with B's capstone on d4: the landing square is taken.
    blocked = position({"b2": "Ak", "c3": "Bc", "a1": "Ac", "d1": "Ap", "d4": "Bp", "b5": "Bk"})
    assert mv("b2", "d4") not in blocked.legal_actions()
    with pytest.raises(IllegalMoveError, match="must land on an empty square"):
        blocked.apply_action(mv("b2", "d4"))


def test_the_foundation_then_the_obelisk_wins():
    s = position({"a2": "Ak", "a1": "Ac", "c1": "Ap", "a6": "Bp", "a5": "Bk", "b6": "Bc"},
                 mode=Mode.BOUNDED)
    s = s.apply_action(mv("a2", "a1"))            # keystone straight back onto the cornerstone
    assert s.board[sq("a1")] == (Stone(A, Kind.CORNER), Stone(A, Kind.KEY))
    assert s.has_foundation(A)
    s = s.apply_action(mv("a5", "b4"))
    s = s.apply_action(mv("a1", "b2"))            # the foundation moves as one stone
    s = s.apply_action(mv("b4", "a3"))
    s = s.apply_action(mv("c1", "b2"))            # capstone onto the foundation
    assert s.is_terminal() and s.outcome().winner is A
    assert s.outcome().termination == EndReason.OBELISK.value


def test_the_capstone_cannot_stack_on_its_own_stones_before_the_foundation():
    s = position({"b2": "Ak", "c3": "Bk", "a1": "Ap", "d1": "Ac", "a6": "Bp", "b6": "Bc"})
    assert mv("a1", "b2") not in s.legal_actions()
    with pytest.raises(IllegalMoveError, match="only a keystone onto its own cornerstone"):
        s.apply_action(mv("a1", "b2"))


def test_a_pillar_must_come_off_next_turn():
    s = position({"b2": "Ap", "c3": "Bk", "a1": "Ac", "d1": "Ak", "a6": "Bp", "b6": "Bc"})
    s = s.apply_action(mv("b2", "c3"))            # pillar the opposing keystone
    assert s.board[sq("c3")] == (Stone(B, Kind.KEY), Stone(A, Kind.CAP))
    # B may move the pillared keystone, the capstone riding on it: steps and jumps only.
    from_c3 = {m.to for m in s.legal_actions() if m.frm == sq("c3")}
    assert from_c3 and all(not s.board.get(t) for t in from_c3)
    s = s.apply_action(mv("c3", "b2"))
    assert s.board[sq("b2")] == (Stone(B, Kind.KEY), Stone(A, Kind.CAP))
    assert {m.frm for m in s.legal_actions()} == {sq("b2")}  # only the capstone may move
    with pytest.raises(IllegalMoveError, match="capstone on b2 must come off the pillar"):
        s.apply_action(mv("a1", "b2"))
    off = s.legal_actions()[0]
    s = s.apply_action(off)
    assert s.board[sq("b2")] == (Stone(B, Kind.KEY),)


def test_a_pillar_that_cannot_come_off_loses():
    # A's capstone sits on B's keystone in the far corner: forward is off the
    # board, straight back is A's own keystone, and the square beyond is taken.
    s = position({"a4": "BkAp", "a3": "Ak", "a2": "Ac", "c4": "Bc", "d4": "Bp"},
                 to_play=B, rows=4, cols=4)
    s = s.apply_action(mv("d4", "c3"))
    assert s.is_terminal() and s.outcome().termination == EndReason.NO_LEGAL_MOVES.value
    assert s.outcome().winner is B


def test_the_ply_limit_draws():
    s = StonesGame(StonesOptions(ply_limit=2)).new_initial_state()
    s = s.apply_action(s.legal_actions()[0])
    s = s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.outcome().winner is None
    assert s.outcome().termination == EndReason.PLY_LIMIT.value and s.returns() == (0.0, 0.0)


# ----------------------------------------------------------------- every game ends


def test_by_default_a_game_has_a_limit_and_the_repetition_rule():
    options = StonesOptions()
    assert options.ply_limit == 200 and options.repetition


def test_a_position_a_third_time_with_the_same_player_to_move_is_a_draw():
    s = StonesGame(StonesOptions(ply_limit=None)).new_initial_state()
    for ply in range(12):
        assert not s.is_terminal(), f"the game ended after {ply} moves"
        s = s.apply_action(mv(*LOOP[ply % len(LOOP)]))
    assert s.is_terminal() and s.plies == 12
    outcome = s.outcome()
    assert outcome.termination == EndReason.REPETITION.value == "repetition"
    assert outcome.winner is None and s.returns() == (0.0, 0.0)
    assert outcome.words() == "a draw (the game ended: repetition)"
    assert outcome.breakdown[0] == ("drawn: the same position, player A to move, a third time "
                                    "after 12 moves",)


def test_without_the_repetition_rule_the_loop_goes_on():
    """Records from before the rule replay as they were played (see test_stones_limit)."""
    s = StonesGame(StonesOptions(ply_limit=None, repetition=False)).new_initial_state()
    for ply in range(60):
        s = s.apply_action(mv(*LOOP[ply % len(LOOP)]))
    assert not s.is_terminal()


@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.integers(0, 3), min_size=1, max_size=5),
       mode=st.sampled_from(list(Mode)), size=st.sampled_from([(6, 4), (4, 4), (8, 8), (5, 7)]))
def test_the_game_ends_exactly_when_a_position_comes_a_third_time(picks, mode, size):
    """Moves picked by a short cycle of indices loop often; the count is kept here apart
    from the rules, by (stacks, player to move)."""
    game = StonesGame(StonesOptions(rows=size[0], cols=size[1], mode=mode, ply_limit=None))
    state = game.new_initial_state()
    seen = Counter({(state.stacks, state.to_play): 1})
    for ply in range(400):
        if state.is_terminal():
            break
        moves = state.legal_actions()
        state = state.apply_action(moves[picks[ply % len(picks)] % len(moves)])
        seen[(state.stacks, state.to_play)] += 1
        third = seen[(state.stacks, state.to_play)] == 3
        assert (state.end is EndReason.REPETITION) is third, (ply, state.end)
    assert max(seen.values()) <= 3


def test_the_computer_against_itself_no_longer_loops_for_ever():
    """Two searches that see no way forward shuffle the same stones; the rule ends it."""
    from engine.search import opponent
    from engine.search.stones import TUNING

    bot = opponent(TUNING, level=1)
    state = StonesGame(StonesOptions(ply_limit=None)).new_initial_state()
    while not state.is_terminal() and state.plies < 150:
        state = state.apply_action(bot.choose(state, rng_seed=state.plies))
    assert state.is_terminal(), "150 moves and no end"
    assert state.end in (EndReason.REPETITION, EndReason.OBELISK, EndReason.NO_LEGAL_MOVES)


def test_a_move_that_breaks_symmetry_says_so():
    s = StonesGame(StonesOptions(mode=Mode.BALANCED)).new_initial_state()
    with pytest.raises(IllegalMoveError, match="balanced play needs colour and shape symmetry"):
        s.apply_action(mv("d1", "c2"))


# ----------------------------------------------------------------- symmetry oracle


def _aligned(a, b):
    return a[0] == b[0] or a[1] == b[1]


def _oracle(state: StonesState, player: Player, mode: Mode) -> bool:
    """Symmetry, worked out independently from where each stone stands."""
    at = {(s.owner, s.kind): square for square, stack in state.stacks for s in stack}
    mine = [at[(player, k)] for k in Kind]
    colour = any(_aligned(mine[i], mine[j]) for i in range(3) for j in range(i + 1, 3))
    shape = any(_aligned(at[(player, k)], at[(player.other, k)]) for k in Kind)
    return {Mode.OPEN: colour or shape, Mode.BOUNDED: colour,
            Mode.BALANCED: colour and shape}[mode]


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(list(Mode)),
       size=st.sampled_from([(6, 4), (4, 4), (8, 8), (7, 5), (4, 8)]))
def test_random_games_keep_every_rule(seed, mode, size):
    rng = random.Random(seed)
    game = StonesGame(StonesOptions(rows=size[0], cols=size[1], mode=mode, ply_limit=200))
    state = game.new_initial_state()
    while not state.is_terminal():
        moves = state.legal_actions()
        assert moves, "a live position always has a move"
        move = rng.choice(moves)
        mover = state.to_play
        after = state.apply_action(move)
        stones = [s for _, stack in after.stacks for s in stack]
        assert len(stones) == 6 and len(set(stones)) == 6, "stones appeared or vanished"
        for square, stack in after.stacks:
            assert 0 <= square[0] < size[0] and 0 <= square[1] < size[1]
            assert 1 <= len(stack) <= 3
        assert _oracle(after, mover, mode), "the mover broke symmetry"
        state = after
    assert state.plies <= 200
    if state.outcome().termination == EndReason.NO_LEGAL_MOVES.value:
        loser = state.to_play
        assert state.outcome().winner is loser.other


def test_balanced_play_opens_exactly_where_the_rules_sheet_says():
    """Worked out for every supported size, and said so by the sheet for each."""
    from engine.stones.rules import balanced_opens, rules_text

    for rows in range(4, 9):
        for cols in range(4, 9):
            options = StonesOptions(rows=rows, cols=cols, mode=Mode.BALANCED)
            state = StonesGame(options).new_initial_state()
            opens = bool(state.legal_actions())
            assert opens == (rows == 4 or cols == 4), (rows, cols)  # the sheet's sentence
            assert opens == balanced_opens(options)
            assert state.is_terminal() is not opens               # no move: A has lost
            sheet = " ".join(rules_text(StonesGame(options)).split())
            assert f"On this board, {rows} x {cols}, balanced play " + \
                ("opens" if opens else "is lost at once") in sheet
