"""The two seats at the table."""

from __future__ import annotations

from enum import Enum


class Player(Enum):
    """A seat at the table. Games give the seats their own names for people."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Player:
        """The opponent, which every two-player rule needs sooner or later."""
        return Player.B if self is Player.A else Player.A

    @property
    def index(self) -> int:
        """Position in per-player tuples: A is 0, B is 1."""
        return 0 if self is Player.A else 1

    def __str__(self) -> str:
        return f"player {self.value}"


PLAYERS: tuple[Player, Player] = (Player.A, Player.B)
