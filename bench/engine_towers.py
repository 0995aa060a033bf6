"""How fast the towers engine is: placements enumerated, and whole random games.

Prints two figures:
- legal placements enumerated per second for each blue block on a half-full
  tower (the work behind every sensor inference and every bot move);
- random full games per second (uniformly random legal actions to the end).

Run: .venv/bin/python bench/engine_towers.py [--seconds S] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time

from engine.bots import low_action, random_playout
from engine.players import Player
from engine.towers.blocks import Colour
from engine.towers.game import TowersGame
from engine.towers.tower import LEVELS, RODS, resting_placements
from firmware.towers.sets import load_block_set


def half_full_tower(game: TowersGame, seed: int):
    """Tower A of a low-packing game, once it holds about half its 81 positions."""
    rng = random.Random(seed)
    state = game.new_initial_state(first=Player.A)
    while len(state.tower(Player.A).occupied) < RODS * LEVELS // 2:
        state = state.apply_action(low_action(state, rng))
        if state.is_terminal():
            state, rng = game.new_initial_state(first=Player.A), random.Random(rng.random())
    return state.tower(Player.A)


def placements_per_second(game: TowersGame, seconds: float, seed: int) -> tuple[float, float, str]:
    tower = half_full_tower(game, seed)
    blues = game.block_set.of_colour(Colour.BLUE)
    found = calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for block in blues:
            found += len(resting_placements(tower, block))
            calls += 1
    elapsed = time.perf_counter() - start
    return found / elapsed, calls / elapsed, str(tower.heights)


def games_per_second(game: TowersGame, seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        states = random_playout(game.new_initial_state(), rng)
        games += 1
        actions += len(states) - 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = TowersGame(load_block_set())
    per_s, calls_s, heights = placements_per_second(game, args.seconds, args.seed)
    print(f"half-full tower, rod heights {heights}")
    print(f"placements: {per_s:,.0f} legal blue placements enumerated per second "
          f"({calls_s:,.0f} blue blocks fully enumerated per second)")
    games_s, actions = games_per_second(game, args.seconds, args.seed)
    print(f"games: {games_s:,.1f} random full games per second "
          f"(mean {actions:.0f} actions a game)")


if __name__ == "__main__":
    main()
