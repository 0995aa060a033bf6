"""How strong the search opponents are, and how long they think.

For every game and role (seat A and seat B; in the maze A is the Architect
and B the Maze Master) each level plays random play, and each level plays
the level below it (with the lower level in the other seat). A game's
score for a side is 1 for a win, 1/2 for a draw; each row prints the score
with its 95 % Wilson interval. Then the think time per move at each level
(p50 and p99 over every search move of the run, measured here; the engine
reads no clock). The opponents choose from seeded searches, so a run is the
same moves every time; only the times vary with the machine and its load.

The last line:
``opponents: top_vs_random_min=... levels_monotonic=yes|no top_think_p99_ms=...``
(the top level's lowest score against random play over every game and
role; yes when in every game each level scores more than half against the
one below, both seats together; the slowest top-level moves, p99).

Run: .venv/bin/python bench/opponents.py [--games N] [--jobs J] [--game G ...]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import mix, play_chance, seeded_start
from engine.players import PLAYERS, Player
from engine.search import LEVELS, opponent
from firmware.games import GAMES
from firmware.solo import THINK_CAP_S, think

BENCH_GAMES = ("towers", "stones", "highrise", "maze")
ROLES = {"maze": {Player.A: "architect", Player.B: "maze master"}}
RANDOM = 0
"""Level 0 in a match: uniformly random legal play."""


@dataclass(frozen=True)
class Match:
    """One game: who plays each seat (a level, or RANDOM) and the seed of everything."""

    game_id: str
    levels: tuple[int, int]  # seat A's, seat B's
    seed: int


def own_actions(state) -> list:
    """The legal actions of the player to move (towers lets both act while placing)."""
    if hasattr(state, "actor"):
        me = state.current_player()
        return [a for a in state.legal_actions() if state.actor(a) is me]
    return state.legal_actions()


def play(match: Match) -> tuple[Match, tuple[float, float], dict[int, list[float]]]:
    """Play one match to the end: each seat's score and each level's think times (s)."""
    spec = GAMES[match.game_id]
    game = spec.make(spec.options())
    state, stream = seeded_start(game, match.seed)
    bots = {level: opponent(match.game_id, level) for level in set(match.levels) if level}
    times: dict[int, list[float]] = defaultdict(list)
    ply = 0
    while not state.is_terminal():
        level = match.levels[state.current_player().index]
        if level == RANDOM:
            actions = own_actions(state)
            action = actions[stream.below(len(actions))]
        else:
            action, seconds = think(bots[level], state, mix(match.seed * 1000 + ply),
                                    THINK_CAP_S[level - 1])
            times[level].append(seconds)
        state = play_chance(state.apply_action(action), stream)
        ply += 1
    winner = state.outcome().winner
    score = (0.5, 0.5) if winner is None else \
        ((1.0, 0.0) if winner is Player.A else (0.0, 1.0))
    return match, score, dict(times)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (draws count a half)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairings(game_id: str, games: int, seed: int) -> list[tuple[str, Player, int, int, Match]]:
    """Every match of the run: (row name, seat of the side measured, its level, the other's,
    the match). Each row plays ``games`` games with the measured side in that seat."""
    out = []
    rows = [(level, RANDOM) for level in reversed(LEVELS)] + \
        [(level, level - 1) for level in reversed(LEVELS[1:])]
    for level, other in rows:
        for seat in PLAYERS:
            for g in range(games):
                levels = (level, other) if seat is Player.A else (other, level)
                key = (((BENCH_GAMES.index(game_id) * 8 + level) * 8 + other) * 2
                       + seat.index) * 100_000 + g
                match_seed = mix(mix(seed) ^ key)
                name = f"L{level} vs {'random' if other == RANDOM else f'L{other}'}"
                out.append((name, seat, level, other, Match(game_id, levels, match_seed)))
    return out


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20,
                        help="games per row and seat (default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", choices=BENCH_GAMES,
                        help="only these games (repeatable)")
    args = parser.parse_args()
    game_ids = args.game or list(BENCH_GAMES)
    plan = [p for g in game_ids for p in pairings(g, args.games, args.seed)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, [p[4] for p in plan], chunksize=1))
    elapsed = time.perf_counter() - started

    rows: dict[tuple[str, str, Player], list[float]] = defaultdict(list)
    think: dict[tuple[str, int], list[float]] = defaultdict(list)
    for (name, seat, *_), (match, score, times) in zip(plan, results, strict=True):
        rows[(match.game_id, name, seat)].append(score[seat.index])
        for level, ts in times.items():
            think[(match.game_id, level)].extend(ts)

    print(f"{len(plan)} games in {elapsed:.0f} s on {args.jobs} process(es); "
          f"load {os.getloadavg()[0]:.2f} ({args.games} games per row and seat)")
    top = LEVELS[-1]
    top_vs_random = []
    monotonic = True
    for game_id in game_ids:
        print(f"\n{game_id}")
        for name in dict.fromkeys(p[0] for p in plan if p[4].game_id == game_id):
            both: list[float] = []
            for seat in PLAYERS:
                scores = rows[(game_id, name, seat)]
                both += scores
                role = ROLES.get(game_id, {}).get(seat, f"seat {seat.value}")
                low, high = wilson(sum(scores), len(scores))
                print(f"  {name:<13} as {role:<12} {sum(scores):5.1f}/{len(scores):<3} "
                      f"{sum(scores) / len(scores):6.1%}  [{low:.1%}, {high:.1%}]")
                if name == f"L{top} vs random":
                    top_vs_random.append(sum(scores) / len(scores))
            if "random" not in name:
                low, high = wilson(sum(both), len(both))
                share = sum(both) / len(both)
                monotonic &= share > 0.5
                print(f"  {name:<13} both seats      {sum(both):5.1f}/{len(both):<3} "
                      f"{share:6.1%}  [{low:.1%}, {high:.1%}]"
                      f"{'' if low > 0.5 else '  (not sure at 95 %)'}")
        for level in LEVELS:
            ts = [t * 1000 for t in think[(game_id, level)]]
            if ts:
                print(f"  think L{level}: p50 {_p(ts, 0.5):7.1f} ms  p99 {_p(ts, 0.99):7.1f} ms"
                      f"  max {max(ts):7.1f} ms  mean {statistics.mean(ts):6.1f} ms "
                      f"({len(ts)} moves, {opponent(game_id, level).simulations} simulations)")
    top_p99 = max(_p([t * 1000 for t in think[(g, top)]], 0.99) for g in game_ids)
    print(f"\nopponents: top_vs_random_min={min(top_vs_random):.3f} "
          f"levels_monotonic={'yes' if monotonic else 'no'} top_think_p99_ms={top_p99:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
