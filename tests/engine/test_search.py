"""The search opponents: wins in one found, legal moves only, seeded, blind in High Rise.

Each test plays real positions through the one game API; nothing is timed.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import ChanceStream, play_chance, seeded_start
from engine.highrise.game import HighriseGame, Place, Size
from engine.maze.actions import Move, Orientation, Pass, PlaceWall
from engine.maze.game import MazeGame, MazeState, Phase
from engine.maze.plan import plan
from engine.players import Player
from engine.search import LEVELS, Search, opponent
from engine.search.base import DEFAULT
from engine.search.maze import moves as maze_moves
from engine.search.maze import moves_needed
from engine.search.maze import value as maze_value
from engine.stones.game import Kind, Stone, StonesGame, StonesState
from engine.stones.game import Move as StonesMove
from engine.towers.actions import Place as TowersPlace
from engine.towers.blocks import Colour
from engine.towers.game import TowersGame, TowersState
from engine.towers.tower import LEVELS as TOWER_LEVELS
from engine.towers.tower import PlacedBlock, Tower
from engine.towers.turns import Phase as TowersPhase
from firmware.games import GAMES
from firmware.towers.sets import load_block_set

BENCH_GAMES = ("towers", "stones", "highrise", "maze")


def opponent_of(game_id: str, level: int):
    """The opponent a table plays: its game's declared tuning (none: the defaults)."""
    game = GAMES.get(game_id)
    return opponent(DEFAULT if game is None else game.opponent_tuning(), level)


def _game(game_id: str):
    spec = GAMES[game_id]
    return spec.make(spec.options())


def _positions(game_id: str, seed: int, count: int) -> list:
    """Positions of one random game, every few moves, a player to move in each."""
    state, stream = seeded_start(_game(game_id), seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        if rng.random() < 0.3:
            found.append(state)
        state = play_chance(state.apply_action(rng.choice(state.legal_actions())), stream)
    return found


# ------------------------------------------------------------------ wins in one


def test_stones_search_builds_the_obelisk_in_one() -> None:
    a, b = Player.A, Player.B
    stacks = {(2, 1): (Stone(a, Kind.CORNER), Stone(a, Kind.KEY)), (1, 0): (Stone(a, Kind.CAP),),
              (5, 3): (Stone(b, Kind.CAP),), (4, 3): (Stone(b, Kind.KEY),),
              (5, 2): (Stone(b, Kind.CORNER),)}
    state = StonesState(StonesGame(), tuple(sorted(stacks.items())), a, 10)
    win = StonesMove((1, 0), (2, 1))
    assert win in state.legal_actions() and len(state.legal_actions()) > 1
    for level in LEVELS:
        for seed in range(3):
            assert opponent_of("stones", level).choose(state, seed) == win


def test_maze_architect_claims_the_last_segment_in_one() -> None:
    state = MazeState(MazeGame(), phase=Phase.MOVE, obelisk=(0, 0),
                      segments=frozenset({(0, 5)}), claimed=4, turn=12)
    assert len(state.legal_actions()) > 10
    for level in LEVELS:
        move = opponent_of("maze", level).choose(state, 1)
        assert move == Move((0, 5))
        assert state.apply_action(move).outcome().winner is Player.A


def _towers_last_placement() -> tuple[TowersState, frozenset]:
    """A places the last block of the game: in the one hole it wins, anywhere else it
    goes over the top and loses."""
    block_set = load_block_set()
    game = TowersGame(block_set)
    green = block_set.of_colour(Colour.GREEN)
    hand = green[0]
    shape = hand.orientations[0]
    hole = {(x, y) for x, y, _ in shape}
    full = frozenset((x, y, z) for x in range(3) for y in range(3) for z in range(TOWER_LEVELS)
                     if (x, y) not in hole)
    tower_a = Tower((PlacedBlock(green[1], full, Player.A),))  # 2 points
    blue = block_set.of_colour(Colour.BLUE)[0]
    tower_b = Tower((PlacedBlock(blue, next(iter([blue.orientations[0]])), Player.B),))  # 3
    state = TowersState(game=game, phase=TowersPhase.PLACE, active=Player.B, turn=18,
                        towers=(tower_a, tower_b), pile=(), blacks=(),
                        hands=(hand.id, None))
    return state, shape


def test_towers_search_finds_the_one_placement_that_wins() -> None:
    state, _ = _towers_last_placement()
    legal = state.legal_actions()
    winning = [a for a in legal if state.apply_action(a).outcome().winner is Player.A]
    assert winning and len(winning) < len(legal)
    for level in LEVELS:
        action = opponent_of("towers", level).choose(state, 3)
        assert isinstance(action, TowersPlace) and action in winning


# ------------------------------------------------------------------ legal, seeded


@pytest.mark.parametrize("game_id", BENCH_GAMES)
def test_the_search_only_plays_legal_actions(game_id: str) -> None:
    bot = opponent_of(game_id, 2)
    for seed in range(2):
        for state in _positions(game_id, seed, 4):
            action = bot.choose(state, seed)
            assert action in state.legal_actions()
            state.apply_action(action)  # and the engine takes it


@pytest.mark.parametrize("game_id", BENCH_GAMES)
def test_the_same_seed_plays_the_same_move(game_id: str) -> None:
    state = _positions(game_id, 5, 2)[-1]
    bot = opponent_of(game_id, 2)
    assert bot.choose(state, 11) == bot.choose(state, 11) == bot.hint(state, 11)


def test_a_caller_can_run_the_search_in_steps_and_stop_it() -> None:
    state = _positions("highrise", 2, 1)[0]
    search = opponent_of("highrise", 4).search(state, 9)
    assert search.step(5) and search.done == 5
    calls = []
    action = search.run(should_stop=lambda: calls.append(1) or len(calls) >= 3, chunk=4)
    assert search.done == 5 + 3 * 4 and action in state.legal_actions()
    assert Search(state, GAMES["highrise"].opponent_tuning(), 7, 9).run() in state.legal_actions()


def test_levels_grow_and_stop_at_four() -> None:
    for game_id in (*BENCH_GAMES, "a game with no tuning"):
        budgets = [opponent_of(game_id, level).simulations for level in LEVELS]
        assert budgets == sorted(budgets) and len(set(budgets)) == len(LEVELS)
    with pytest.raises(ValueError):
        opponent_of("stones", 5)


# ------------------------------------------------------------------ High Rise: blind


def _highrise_pair() -> tuple:
    game = HighriseGame()
    one = game.state_with((1, 6, 2, 5, 3, 4, 6, 1, 2), Player.A)
    two = game.state_with((6, 1, 5, 2, 4, 3, 1, 6, 5), Player.A)
    for move in (Place((1, 1), Size.LARGE), Place((0, 2), Size.SMALL),
                 Place((1, 1), Size.MEDIUM)):
        one, two = one.apply_action(move), two.apply_action(move)
    return one, two


def test_highrise_search_plays_the_same_whatever_the_hidden_values() -> None:
    one, two = _highrise_pair()
    assert one.values != two.values
    for level in LEVELS:
        for seed in range(3):
            bot = opponent_of("highrise", level)
            assert bot.choose(one, seed) == bot.choose(two, seed)


def test_highrise_sample_hidden_keeps_what_players_know() -> None:
    one, two = _highrise_pair()
    a, b = one.sample_hidden(ChanceStream(4)), two.sample_hidden(ChanceStream(4))
    assert a.values == b.values and all(1 <= v <= 6 for v in a.values)
    assert a == one and a.stacks == one.stacks and a.left == one.left
    assert a.legal_actions() == one.legal_actions()
    draws = {one.sample_hidden(ChanceStream(s)).values for s in range(20)}
    assert len(draws) == 20  # fresh values each time
    start = HighriseGame().new_initial_state()
    assert start.sample_hidden(ChanceStream(1)) is start  # nothing rolled yet


# ------------------------------------------------------------------ strength


def test_maze_value_counts_the_architects_moves() -> None:
    state = MazeState(MazeGame(), phase=Phase.MOVE, obelisk=(0, 0),
                      segments=frozenset({(0, 5), (7, 5)}), claimed=3, turn=0)
    assert moves_needed(state) == plan(state).moves == 2
    walled = state
    for wall in (PlaceWall((0, 1), Orientation.NE), PlaceWall((1, 1), Orientation.SW)):
        walled = replace(walled, walls=(*walled.walls, wall))
    assert moves_needed(walled) == plan(walled).moves


def _maze_midgame() -> MazeState:
    state = MazeState(MazeGame(), phase=Phase.WALL, obelisk=(3, 3),
                      segments=frozenset({(0, 0), (7, 6), (2, 7)}), claimed=2, turn=4)
    for wall in (PlaceWall((5, 5), Orientation.NE), PlaceWall((1, 1), Orientation.SW)):
        state = replace(state, walls=(*state.walls, wall))
    return state


def test_the_maze_value_counts_one_move_more_even_with_many_to_spare() -> None:
    """At the start the Architect has a dozen moves to spare; a wall that costs it one more
    must still count, or the Maze Master stands its walls at random."""
    state = replace(_maze_midgame(), phase=Phase.MOVE)
    assert state.turns_left - moves_needed(state) >= 10
    stream = ChanceStream(1)
    now, later = maze_value(state, stream)[0], maze_value(replace(state, turn=5), stream)[0]
    assert now - later > 0.05 and now > 0.5


def test_the_maze_master_tries_walls_on_the_obelisk_and_the_segments_and_the_pass() -> None:
    state = _maze_midgame()
    tried = maze_moves(state)
    points = {state.obelisk, *state.segments}
    legal = state.legal_actions()
    assert tried[0] == Pass() and all(a in legal for a in tried)
    assert [a for a in legal if isinstance(a, PlaceWall) and a.square in points] == tried[1:]
    assert 10 <= len(tried) <= 1 + 4 * len(points) < len(legal) // 4
    moving = replace(state, phase=Phase.MOVE)
    assert maze_moves(moving) == moving.legal_actions()
    assert state.walls_on([(5, 5)]) == [] and replace(state, phase=Phase.MOVE).walls_on(
        [(3, 3)]) == []


def test_the_maze_master_walls_off_the_last_move_it_can() -> None:
    """One turn left, the last segment one move away along the edge: a wall on the
    segment's west side wins the game for the Maze Master, and every level above the
    first finds one."""
    state = MazeState(MazeGame(), phase=Phase.WALL, obelisk=(0, 0),
                      segments=frozenset({(0, 5)}), claimed=4, turn=19)
    for level in LEVELS[1:]:
        for seed in range(2):
            wall = opponent_of("maze", level).choose(state, seed)
            after = state.apply_action(wall)
            assert isinstance(wall, PlaceWall) and moves_needed(after) >= 2
            assert all(after.apply_action(m).outcome().winner is Player.B
                       for m in after.legal_actions())


def test_the_maze_master_walls_only_where_a_wall_costs_the_architect_a_move() -> None:
    """Level 2 and up keep their walls while none lengthens the way, and stand one that
    does when there is one (a wall that costs no move only gives the Architect time)."""
    quiet = _maze_midgame()
    assert max(moves_needed(quiet.apply_action(a)) for a in maze_moves(quiet)) == 6
    tight = MazeState(MazeGame(), phase=Phase.WALL, obelisk=(0, 0),
                      segments=frozenset({(0, 5), (5, 5), (7, 0)}), claimed=2, turn=12)
    assert moves_needed(tight) == 4
    for level in LEVELS[1:]:
        for seed in range(3):
            assert opponent_of("maze", level).choose(quiet, seed) == Pass()
            assert moves_needed(tight.apply_action(opponent_of("maze", level).choose(
                tight, seed))) == 5


def _play(game_id: str, seat: Player, level: int, seed: int) -> Player | None:
    state, stream = seeded_start(_game(game_id), seed)
    bot = opponent_of(game_id, level)
    rng = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        if state.current_player() is seat:
            action = bot.choose(state, seed * 1000 + ply)
        else:
            action = rng.choice(state.legal_actions())
        state = play_chance(state.apply_action(action), stream)
        ply += 1
    return state.outcome().winner


def test_the_top_level_beats_random_play() -> None:
    top = LEVELS[-1]
    assert _play("stones", Player.A, top, 1) is Player.A
    assert _play("maze", Player.A, top, 0) is Player.A  # the Architect
