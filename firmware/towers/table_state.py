"""The state the towers table adds to every table's machine: the coin toss."""

from __future__ import annotations

from enum import StrEnum


class TowersTableState(StrEnum):
    """Towers' own state beside ``TableState``'s (its name is its word, as there)."""

    toss = "toss"  # the light runs round both rings and stops on the first player
