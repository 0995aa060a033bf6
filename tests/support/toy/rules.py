"""The rules sheet of the toy game."""

from __future__ import annotations


def rules_text(game, width: int = 78) -> str:
    return ("Noughts and crosses on the corner a1-c3 of the stones board.\n"
            "Player A begins; each puts one stone on an empty square in turn.\n"
            "Three in a row wins; a full board without one is a draw.\n")
