"""Stones positions as tests write them: stacks by square name, moves by two names."""

from __future__ import annotations

from engine.core import parse_square as sq
from engine.players import Player
from engine.stones.game import (
    Edition,
    Kind,
    Mode,
    Move,
    Stone,
    StonesGame,
    StonesOptions,
    StonesState,
)

A = Player.A
KINDS = {"c": Kind.CORNER, "k": Kind.KEY, "p": Kind.CAP}


def position(layout: dict[str, str], to_play=A, mode=Mode.OPEN, rows=6, cols=4,
             edition=Edition.CLASSIC, ply_limit=None) -> StonesState:
    """{"b2": "Ac", "c3": "BkAp"}: stacks bottom to top, owner then c/k/p."""
    game = StonesGame(StonesOptions(rows=rows, cols=cols, mode=mode, edition=edition,
                                    ply_limit=ply_limit))
    stacks = {}
    for square, text in layout.items():
        stacks[sq(square)] = tuple(Stone(Player(text[i]), KINDS[text[i + 1]])
                                   for i in range(0, len(text), 2))
    return StonesState(game, tuple(sorted(stacks.items())), to_play, 0)


def mv(a: str, b: str) -> Move:
    return Move(sq(a), sq(b))


LOOP = [("d1", "c2"), ("a6", "b5"), ("c2", "d3"), ("b5", "a4"), ("d3", "d1"), ("a4", "a6")]
"""Six moves that bring the start back: each capstone steps out twice and vaults home."""
