"""How strong the search opponents are, and how long they think, as the table plays them.

Every search move goes through ``firmware.seats.solo.think``, the table's own:
its level's budget of simulations, cut short at the level's think cap
(``firmware.seats.solo.THINK_CAP_S``) on the monotonic clock. So on a busy
machine a level may play weaker than on a quiet one, as it would on a
busy table; the run's load is printed with the figures.

For every game and role (seat A and seat B; in the maze A is the Architect
and B the Maze Master) each level plays random play, and each level plays
the level below it (with the lower level in the other seat). A game's
score for a side is 1 for a win, 1/2 for a draw; each row prints the score
with its 95 % Wilson interval; the top level's rows against random play take
twice the games (``TOP_VS_RANDOM``), enough for "90 % or more" to stand on the
interval, and a line says whether it does. A level beats the one below when its score
over both seats together has an interval wholly above one half (equal
players score one half over both seats however unequal the roles). Then
the think time per search at each level (p50, p99, max; a towers turn may
be two searches, its two zone blocks).

The last line:
``opponents: top_vs_random_min=... levels_monotonic=yes|no top_think_p99_ms=...``
(the top level's lowest score against random play over every game and
role; yes when in every game each level beats the one below with 95 %
confidence; the top level's think p99, in the game where it is highest).

Run: .venv/bin/python bench/opponents.py [--games N | --quick] [--jobs J] [--game G ...]
"""

from __future__ import annotations

import argparse
import math
import os
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
from firmware.seats.solo import THINK_CAP_S, think

BENCH_GAMES = ("towers", "stones", "highrise", "maze")
ROLES = {"maze": {Player.A: "architect", Player.B: "maze master"}}
RANDOM = 0
DEFAULT_GAMES = 20
"""Games per row and seat: at 20 a run takes about ten minutes on two busy cores."""
CLOSE_LEVELS = {"maze": 3}
"""Games whose levels part by little, and how many times more games their level rows play.
The maze's Architect wins nearly every game from level 3 up, so a level shows mostly in how
often its Maze Master catches the Architect below it out: level 4 scores about 60 % against
level 3 over both roles, which takes a hundred games or so to tell from a half."""
"""Level 0 in a match: uniformly random legal play."""
TOP_VS_RANDOM = 2
"""How many times more games the top level's rows against random play take. The claim is
90 % or more against random play: at 20 games a clean sweep's 95 % interval starts at 84 %,
at 40 at 91 %, so that the claim stands with confidence, not only as a rate."""


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
    bots = {level: opponent(spec.opponent_tuning(), level) for level in set(match.levels) if level}
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
    the match). Each row plays ``games`` games with the measured side in that seat (times
    ``CLOSE_LEVELS`` for a game's rows of a level against the one below)."""
    out = []
    rows = [(level, RANDOM) for level in reversed(LEVELS)] + \
        [(level, level - 1) for level in reversed(LEVELS[1:])]
    for level, other in rows:
        if other != RANDOM:
            count = games * CLOSE_LEVELS.get(game_id, 1)
        else:
            count = games * (TOP_VS_RANDOM if level == LEVELS[-1] else 1)
        for seat in PLAYERS:
            for g in range(count):
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


@dataclass(frozen=True)
class Row:
    """One row's scores for the side measured, by the seat it played."""

    game_id: str
    name: str  # "L4 vs random", "L4 vs L3"
    by_seat: tuple[tuple[float, ...], tuple[float, ...]]  # seat A's games, seat B's

    @property
    def both(self) -> tuple[float, ...]:
        return self.by_seat[0] + self.by_seat[1]

    @property
    def against_level(self) -> bool:
        return "random" not in self.name


def beats(scores: tuple[float, ...]) -> bool:
    """Whether a level beats the one below with 95 % confidence, both seats together.

    Two equal players score exactly one half over both seats, however
    unequal the seats (the maze's Architect wins most games at every level),
    so the test is that the interval lies wholly above one half: the level
    does better in each role than the level below does in that role against it.
    """
    return bool(scores) and wilson(sum(scores), len(scores))[0] > 0.5


def verdict(rows: list[Row]) -> tuple[float, float, bool]:
    """(the top level's lowest score against random play over every game and seat, the
    lowest start of those scores' 95 % intervals, whether every level beats the one below
    in every game)."""
    top = f"L{LEVELS[-1]} vs random"
    seats = [s for r in rows if r.name == top for s in r.by_seat if s]
    lowest = min((sum(s) / len(s) for s in seats), default=0.0)
    sure = min((wilson(sum(s), len(s))[0] for s in seats), default=0.0)
    return lowest, sure, all(beats(r.both) for r in rows if r.against_level)


def _line(label: str, scores: tuple[float, ...]) -> str:
    low, high = wilson(sum(scores), len(scores))
    return (f"  {label:<32} {sum(scores):6.1f}/{len(scores):<4} {sum(scores) / len(scores):6.1%}"
            f"  [{low:5.1%}, {high:5.1%}]")


def report(rows: list[Row], think: dict[tuple[str, int], list[float]]) -> str:
    """The tables and the last line, from every row's scores and the think times (s)."""
    out = []
    top = LEVELS[-1]
    for game_id in dict.fromkeys(r.game_id for r in rows):
        out.append(f"\n{game_id}")
        for row in (r for r in rows if r.game_id == game_id):
            for seat, scores in zip(PLAYERS, row.by_seat, strict=True):
                role = ROLES.get(game_id, {}).get(seat, f"seat {seat.value}")
                out.append(_line(f"{row.name} as {role}", scores))
            if row.against_level:
                sure = "beats it (95 %)" if beats(row.both) else "NOT sure at 95 %"
                out.append(_line(f"{row.name} both seats", row.both) + f"  {sure}")
        tuning = GAMES[game_id].opponent_tuning()
        for level in LEVELS:
            ts = [t * 1000 for t in think.get((game_id, level), [])]
            if ts:
                out.append(f"  think L{level}: p50 {_p(ts, 0.5):6.1f} ms"
                           f"  p99 {_p(ts, 0.99):6.1f} ms"
                           f"  max {max(ts):6.1f} ms (cap {THINK_CAP_S[level - 1] * 1000:.0f} ms,"
                           f" {len(ts)} searches of up to "
                           f"{opponent(tuning, level).simulations} simulations)")
    lowest, sure, monotonic = verdict(rows)
    out.append(f"\ntop level against random play: lowest score {lowest:.1%}, lowest 95 % "
               f"interval from {sure:.1%} (90 % or more with confidence: "
               f"{'yes' if sure >= 0.9 else 'no'})")
    top_p99 = max((_p([t * 1000 for t in ts], 0.99) for (g, level), ts in think.items()
                   if level == top), default=0.0)
    out.append(f"\nopponents: top_vs_random_min={lowest:.3f} "
               f"levels_monotonic={'yes' if monotonic else 'no'} top_think_p99_ms={top_p99:.0f}")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per row and seat (default {DEFAULT_GAMES})")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: one game per row and seat (three in the maze's "
                        "level rows); no confident answers")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", choices=BENCH_GAMES,
                        help="only these games (repeatable)")
    args = parser.parse_args()
    games = 1 if args.quick else args.games
    if games < 1:
        parser.error("--games must be at least 1")
    game_ids = args.game or list(BENCH_GAMES)
    plan = [p for g in game_ids for p in pairings(g, games, args.seed)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, [p[4] for p in plan], chunksize=1))
    elapsed = time.perf_counter() - started

    scores: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    think: dict[tuple[str, int], list[float]] = defaultdict(list)
    for (name, seat, *_), (match, score, times) in zip(plan, results, strict=True):
        scores.setdefault((match.game_id, name), ([], []))[seat.index].append(score[seat.index])
        for level, ts in times.items():
            think[(match.game_id, level)].extend(ts)
    rows = [Row(g, name, (tuple(a), tuple(b))) for (g, name), (a, b) in scores.items()]
    print(f"{len(plan)} games in {elapsed:.0f} s on {args.jobs} process(es); "
          f"load {os.getloadavg()[0]:.2f} ({games} games per row and seat)")
    print(report(rows, think))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
