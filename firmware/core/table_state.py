"""Where a table is in a game: its machine's states, as values."""

from __future__ import annotations

from enum import StrEnum


class TableState(StrEnum):
    """The states of the machine every game's table runs (``firmware.core.table``).

    A ``StrEnum`` whose names are its words: ``transitions`` names the callbacks after them
    (``on_enter_play``), and an event carries the word itself (``"state": "play"``). Code
    compares, keeps and sends the member, never the word typed again.
    """

    setup = "setup"  # the pieces set out and a player button awaited
    play = "play"  # each settled view read as the next move
    choose = "choose"  # several actions fit: the candidates light in turn
    repair = "repair"  # something breaks the rules: waited out, one fix at a time
    paused = "paused"  # the menu button froze the hourglass
    over = "over"  # the result shown until a press sets up the next game


READING_STATES = frozenset({TableState.play, TableState.choose, TableState.repair})
"""The states in which a settled reading is a move, a choice or a repair to read."""
