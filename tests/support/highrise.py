"""High Rise as tests write it: pyramid sizes by letter, seeds that differ where it matters."""

from __future__ import annotations

from engine.core import seeded_start
from engine.highrise.game import HighriseGame, Size
from engine.players import Player

S, M, L = Size.SMALL, Size.MEDIUM, Size.LARGE


def same_first_other_values():
    seeds = {}
    for seed in range(100):
        state = seeded_start(HighriseGame(), seed)[0]
        if state.first is Player.A:
            seeds.setdefault(state.first, []).append((seed, state.values))
    (s1, v1), (s2, v2) = seeds[Player.A][:2]
    assert v1 != v2
    return s1, s2
