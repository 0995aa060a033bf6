"""The towers actions: what a player, the clock or the coin does in a turn.

Each is an immutable value: ``TowersState.apply_action`` says what it does to a
game, and ``engine.towers.record`` writes it as plain data.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.players import Player
from engine.towers.blocks import Cell
from engine.towers.tower import cells_text


@dataclass(frozen=True)
class Choose:
    """The active player puts a block from the common pile into the building zone."""

    block: str

    def __str__(self) -> str:
        return f"choose {self.block} for the building zone"


@dataclass(frozen=True)
class PutBack:
    """The active player returns a zone block to the pile before the second is in."""

    block: str

    def __str__(self) -> str:
        return f"put {self.block} back in the common pile"


@dataclass(frozen=True)
class Timeout:
    """The active player's hourglass ran out. Sent by the clock, never by a bot."""

    def __str__(self) -> str:
        return "the hourglass ran out"


@dataclass(frozen=True)
class Take:
    """The passive player takes one zone block; the active player gets the other."""

    block: str

    def __str__(self) -> str:
        return f"take {self.block} from the building zone"


@dataclass(frozen=True)
class Place:
    """A block comes to rest on a tower, filling ``cells``.

    Normally the tower's owner places their own block; during a flat bonus
    the opponent places a black block on it.
    """

    tower: Player
    block: str
    cells: frozenset[Cell]

    def __str__(self) -> str:
        return f"place {self.block} on tower {self.tower.value} at {cells_text(self.cells)}"


@dataclass(frozen=True)
class Toss:
    """Chance: the coin toss says who is the active player of the first turn."""

    first: Player

    def __str__(self) -> str:
        return f"the toss: {self.first} goes first"


@dataclass(frozen=True)
class Decline:
    """A player with a flat bonus chooses not to place a black block."""

    player: Player

    def __str__(self) -> str:
        return f"{self.player} declines the black block"


Action = Toss | Choose | PutBack | Timeout | Take | Place | Decline
