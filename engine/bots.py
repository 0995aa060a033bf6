"""Bots that play any engine game through the same calls the table uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from engine.core import S, State

T = TypeVar("T")


class Rng(Protocol):
    """What a bot needs of a random source; ``random.Random`` fits."""

    def choice(self, seq: Sequence[T]) -> T: ...

    def random(self) -> float: ...


def random_action(state: State, rng: Rng) -> Any:
    """A uniformly random legal action: the simplest opponent, and a test driver."""
    return rng.choice(state.legal_actions())


def random_playout(state: S, rng: Rng, *, max_actions: int = 100_000) -> list[S]:
    """Play random legal actions to the end; return every state, first to last.

    ``max_actions`` guards against a rules bug that never ends a game: reaching
    it raises instead of looping forever.
    """
    states = [state]
    while not state.is_terminal():
        if len(states) > max_actions:
            raise RuntimeError(f"no end after {max_actions} actions: the rules never finish")
        state = state.apply_action(random_action(state, rng))
        states.append(state)
    return states


def low_action(state: State, rng: Rng) -> Any:
    """Like ``random_action``, but a placement goes as low as it can.

    Packing low keeps towers under the top for longer, so games reach flats
    and black blocks: the corners random play rarely sees. When placing is
    optional (a flat bonus), it is chosen half the time.
    """
    actions = state.legal_actions()
    placements = [a for a in actions if hasattr(a, "cells")]
    others = [a for a in actions if not hasattr(a, "cells")]
    if not placements or (others and rng.random() < 0.5):
        return rng.choice(others)
    best = min(max(z for _, _, z in a.cells) for a in placements)
    return rng.choice([a for a in placements if max(z for _, _, z in a.cells) == best])
