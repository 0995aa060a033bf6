"""How fast the maze engine lists a position's legal walls.

Every wall of every wall phase of a set of seeded random games is listed
by ``legal_actions`` (the shortcuts and bit floods of ``engine/maze/game.py``),
and for the reference by the plain check of the tests (a flood of the whole
board, square by square, for each wall). Both lists are compared, so the
figure is only printed when the fast one is right. The Architect's plan (the
shortest route to every segment, which the table works out after every
action and the demo's Maze Master weighs walls with) is timed the same way,
beside the plain search of the tests. The last two lines are
``maze_plan: ms_per_position=... reference_ms=...`` and
``maze_walls: ms_per_position=... reference_ms=... speedup=...``.

Run: .venv/bin/python bench/engine_maze.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maze.actions import PlaceWall
from engine.maze.game import Phase
from engine.maze.plan import plan
from tests.support.maze import plain_legal_walls, plain_plan, positions


def timed(fn, states) -> float:
    """Milliseconds per position, each position fresh (nothing cached from before)."""
    fresh = [dataclasses.replace(s) for s in states]
    start = time.perf_counter()
    for state in fresh:
        fn(state)
    return (time.perf_counter() - start) * 1000 / len(fresh)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = [s for g in range(args.games)
              for s in positions(args.seed * 1000 + g, wall_bias=0.7, corner_bias=0.2)]
    wrong = sum({a for a in s.legal_actions() if isinstance(a, PlaceWall)}
                != plain_legal_walls(s) for s in states)
    if wrong:
        print(f"maze_walls: WRONG in {wrong} of {len(states)} positions")
        return 1
    moving = [s.apply_action(next(a for a in s.legal_actions() if isinstance(a, PlaceWall)))
              for s in states if s.walls_left]
    moving = [s for s in moving if s.phase is Phase.MOVE]
    if any((p.moves, p.route) != plain_plan(s) for s, p in ((s, plan(s)) for s in moving)):
        print("maze_plan: WRONG (the plan differs from the plain search)")
        return 1
    planned = [timed(plan, moving) for _ in range(3)]
    plain_planned = [timed(plain_plan, moving) for _ in range(3)]
    fast = [timed(lambda s: s.legal_actions(), states) for _ in range(3)]
    plain = [timed(plain_legal_walls, states) for _ in range(3)]
    print(f"{len(states)} wall-phase positions from {args.games} random games, "
          f"mean {statistics.mean(len(s.walls) for s in states):.1f} walls standing")
    runs = ", ".join(f"{t:.2f}" for t in fast)
    print(f"fast: {min(fast):.2f} ms per position (best of 3; {runs})")
    print(f"reference: {min(plain):.2f} ms per position (the plain flood per wall)")
    print(f"maze_plan: ms_per_position={min(planned):.2f} reference_ms={min(plain_planned):.2f}"
          f" ({len(moving)} positions, best of 3)")
    print(f"maze_walls: ms_per_position={min(fast):.2f} reference_ms={min(plain):.2f} "
          f"speedup={min(plain) / min(fast):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
