"""The High Rise rules as this table plays them."""

from __future__ import annotations

from engine.core import counted
from engine.highrise.game import HighriseGame, Size
from engine.rules_sheet import layout_sheet


def rules_text(game: HighriseGame, width: int = 78) -> str:
    """The whole rules sheet for ``obelisk rules highrise``."""
    options = game.options
    pieces = options.pieces()
    small, medium, large = (f"{pieces[s]} {s.label} ({counted(s.value, 'pip')})" for s in Size)
    sections: list[tuple[str, list[str]]] = [
        ("HIGH RISE - control the tallest, most valuable stacks", [
            "Two players build stacks of pyramids over hidden values. At the end each "
            "stack belongs to whoever has more pips in it, and pays them the other "
            "player's pips plus the value hidden under it.",
        ]),
        ("The board", [
            f"{options.rows} x {options.cols} squares (3 x 3 is the default; any size up "
            "to 8 x 8 works). Each square starts with a neutral large pyramid (the cover) "
            "on it. Under each cover the table keeps a value from 1 to 6: it rolls the "
            "values itself, so there are no dice to hide, and nobody, not even the "
            "table's screen or logs, sees them before the end.",
            f"Each player has {options.pieces_each} pyramids in their own colours: "
            f"{small}, {medium} and {large}. From a Looney Pyramids set that is "
            f"{counted(options.stashes, 'stash', 'stashes')} each, less one small pyramid "
            "of each colour, set aside to show whose colours are whose.",
        ]),
        ("Playing", [
            "The table picks who starts. Taking turns, each player puts one of their "
            "pieces on top of any stack. Nobody lifts a stack to look inside. The game "
            "ends when both players have placed every piece.",
            "The table weighs each square: it knows which size went where, and it lights "
            "the square red when something else happened (two squares changed, a piece "
            "taken off, a weight that is no pyramid). Put things back as they were and "
            "play on.",
        ]),
        ("Scoring", [
            "For each stack, count each player's pips (the cover counts for nobody). "
            "More pips controls the stack and scores the opponent's pips in it plus its "
            "hidden value. A tied stack scores nothing for either. The higher total "
            "wins; equal totals are a draw.",
            "At the end the table reveals the stacks square by square: the value, who "
            "controls it and the points.",
        ]),
    ]
    return layout_sheet(sections, width)
