"""What the search needs to know about a game, and what any game gets by default.

The search itself knows only the one game API. A tuning adds, per game:
which moves are worth searching (all legal ones by default), how to value a
new position (a random rollout by default), how boldly to explore, and the
budget of each level. Games with no tuning of their own get ``DEFAULT``, so
every game the engine can play, the tests' toy game included, has opponents.

This module imports no game: the per-game searches build their tunings from
it, and each game's declaration (``firmware/<game>/__init__.py``) names its
tuning, so the engine holds no table of games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic

from engine.core import ChanceStream, S, State

Results = tuple[float, float]

LEVELS = (1, 2, 3, 4)
"""Opponent levels, weakest first."""


def legal_moves(state: State) -> list[Any]:
    """Every legal action: what the search tries unless a game says otherwise."""
    return state.legal_actions()


def random_rollout(state: State, stream: ChanceStream, limit: int = 400) -> Results:
    """Uniformly random legal actions to the end; a draw if ``limit`` actions do not end it."""
    for _ in range(limit):
        if state.is_terminal():
            return state.returns()
        actions = state.legal_actions()
        state = state.apply_action(actions[stream.below(len(actions))])
    return state.returns()


@dataclass(frozen=True)
class Tuning(Generic[S]):
    """A game's search settings: moves to try, a position's value, exploration, budgets
    (a ``Tuning[S]`` values states of type ``S``; the defaults take any game's)."""

    budgets: tuple[int, int, int, int]  # simulations per move for levels 1 to 4
    moves: Callable[[S], list[Any]] = legal_moves
    evaluate: Callable[[S, ChanceStream], Results] = random_rollout
    exploration: float = 1.0

    def simulations(self, level: int) -> int:
        """The budget of ``level`` (1 is the weakest)."""
        if level not in LEVELS:
            raise ValueError(f"levels run from {LEVELS[0]} to {LEVELS[-1]}, not {level}")
        return self.budgets[level - 1]


DEFAULT: Tuning[State] = Tuning(budgets=(4, 16, 64, 256))
