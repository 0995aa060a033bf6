"""Random legal towers games, checked at every step.

Hypothesis draws the games: the seed, the bot (uniformly random, or one that
packs low and so reaches flats and black blocks), sudden death or not, and
how often the hourglass runs out. At least 200 distinct games run each time.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import low_action, random_action
from engine.players import PLAYERS
from engine.towers.actions import Place, Timeout
from engine.towers.blocks import WIDTH, normalize
from engine.towers.game import TowersGame, TowersOptions, TowersState
from engine.towers.tower import LEVELS
from engine.towers.turns import EndReason, Phase

BOTS = {"random": random_action, "low": low_action}


def _ids_everywhere(s: TowersState) -> Counter:
    on_towers = [pb.block.id for t in s.towers for pb in t.blocks]
    hands = [h for h in s.hands if h is not None]
    return Counter([*s.pile, *s.zone, *hands, *on_towers, *s.removed, *s.blacks])


def _check_state(s: TowersState, all_ids: Counter) -> None:
    assert _ids_everywhere(s) == all_ids, "blocks were lost or duplicated"
    for tower in s.towers:
        cubes = [c for pb in tower.blocks for c in pb.cells]
        assert len(cubes) == len(set(cubes)), "two cubes share a position"
        for pb in tower.blocks:
            assert normalize(pb.cells) in pb.block.orientations, "a block changed shape"
            for x, y, z in pb.cells:
                assert 0 <= x < WIDTH and 0 <= y < WIDTH and z >= 0, "a cube is off the rods"
        if s.phase is not Phase.PLACE:
            # Cubes above level 9 only exist between a placement and the turn's end.
            assert tower.overflow == 0


def _check_gaps_stay_empty(before: TowersState, after: TowersState) -> None:
    if after.is_terminal():
        return  # over-the-top blocks come off at the end
    for old, new in zip(before.towers, after.towers, strict=True):
        assert old.occupied <= new.occupied
        below_old_tops = {c for c in new.occupied if c[2] < old.heights[c[1] * WIDTH + c[0]]}
        assert below_old_tops <= old.occupied, "a cube got into a gap"


def _check_end(last: TowersState, before_end: TowersState, final_action: object) -> None:
    outcome = last.outcome()
    assert outcome is not None and outcome.scores == last.scores()
    for p in PLAYERS:
        tower = last.tower(p)
        assert all(z < LEVELS for pb in tower.blocks for *_, z in pb.cells)
    # Penalties, counted again from the position before the end and the last placement.
    placed = [(p, pb.block.id, pb.cells) for p in PLAYERS for pb in before_end.tower(p).blocks]
    if isinstance(final_action, Place):
        placed.append((final_action.tower, final_action.block, final_action.cells))
    penalties = [0, 0]
    for p, block_id, cells in placed:
        if block_id in last.removed:
            penalties[p.index] += sum(1 for *_, z in cells if z >= LEVELS)
    assert list(last.penalties) == penalties
    if last.game.options.sudden_death:
        assert last.scores() == (0, 0)
        over = set(last.over_the_top)
        expected = next(iter(over)).other if len(over) == 1 else None
        assert outcome.winner is expected
        return
    for p in PLAYERS:
        values = sum(pb.block.colour.points for pb in last.tower(p).blocks)
        assert last.scores()[p.index] == values - penalties[p.index]
    a, b = last.scores()
    assert outcome.winner is (None if a == b else PLAYERS[0] if a > b else PLAYERS[1])


@settings(max_examples=220)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    bot=st.sampled_from(sorted(BOTS)),
    sudden_death=st.booleans(),
    timeout_rate=st.sampled_from([0.0, 0.1]),
)
def test_random_games_keep_every_rule(block_set, seed: int, bot: str,
                                     sudden_death: bool, timeout_rate: float) -> None:
    rng = random.Random(seed)
    game = TowersGame(block_set, TowersOptions(sudden_death=sudden_death))
    state = game.new_initial_state(first=rng.choice(PLAYERS))
    all_ids = _ids_everywhere(state)
    assert sum(all_ids.values()) == len(block_set.blocks)
    choose = BOTS[bot]
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 5_000, "the game never ends"
        if state.phase is Phase.CHOOSE and rng.random() < timeout_rate:
            action = Timeout()
        else:
            action = choose(state, rng)
        after = state.apply_action(action)
        _check_state(after, all_ids)
        _check_gaps_stay_empty(state, after)
        if after.is_terminal():
            _check_end(after, state, action)
        state = after


def test_the_bots_reach_the_rare_rules(game):
    """The games above are only worth something if they visit flats and black blocks."""
    seen = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state(first=PLAYERS[0])
        while not state.is_terminal():
            action = Timeout() if state.phase is Phase.CHOOSE and rng.random() < 0.1 \
                else low_action(state, rng)
            seen[(state.phase, type(action).__name__)] += 1
            state = state.apply_action(action)
        seen[state.end] += 1
    assert seen[(Phase.BONUS, "Place")] > 0 and seen[(Phase.BONUS, "Decline")] > 0
    assert seen[(Phase.CHOOSE, "Timeout")] > 0 and seen[(Phase.TAKE, "Take")] > 0
    assert seen[EndReason.OVER_THE_TOP] > 0
