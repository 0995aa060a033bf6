"""Search opponents for every game: Monte Carlo tree search at four levels.

    from engine.search import opponent
    bot = opponent(stones.TUNING, level=3)   # a game's tuning (engine.search.stones)
    action = bot.choose(state, rng_seed=7)   # the computer's move
    hint = bot.hint(state, rng_seed=7)       # the move it would play for the person

A level is a number of simulations per move (``Tuning.budgets``), never a
time: the engine reads no clock. A caller that must answer within a time
takes ``bot.search(state, seed)`` and runs it in steps, stopping with its
own clock (``Search.run(should_stop)``); the move is ``Search.best()``.
The same state and seed always give the same move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from engine.core import S
from engine.search.base import LEVELS, Tuning
from engine.search.mcts import Search

__all__ = ["LEVELS", "Opponent", "Search", "Tuning", "opponent"]


@dataclass(frozen=True)
class Opponent(Generic[S]):
    """The computer at one level of one game: a plain value a table can keep."""

    level: int
    tuning: Tuning[S]

    @property
    def simulations(self) -> int:
        return self.tuning.simulations(self.level)

    def search(self, state: S, rng_seed: int) -> Search[S]:
        """A search not yet run, for a caller that runs it in steps under its own clock."""
        return Search(state, self.tuning, self.simulations, rng_seed)

    def choose(self, state: S, rng_seed: int) -> Any:
        """The move the computer plays for the player to move in ``state``."""
        return self.search(state, rng_seed).run()

    def hint(self, state: S, rng_seed: int) -> Any:
        """The move the computer would play in the person's place (a hint).

        The same search as ``choose``: it plays for whoever is to move, and in
        High Rise it sees only what that player may know.
        """
        return self.choose(state, rng_seed)


def opponent(tuning: Tuning[S], level: int = LEVELS[-1]) -> Opponent[S]:
    """The opponent at a level from 1 to 4, searching with a game's tuning (its declared
    one, ``GameType.opponent_tuning``; ``base.DEFAULT`` for a game with none)."""
    tuning.simulations(level)  # refuses a level out of range
    return Opponent(level, tuning)
