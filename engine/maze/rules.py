"""The maze rules as this table plays them."""

from __future__ import annotations

from engine.maze.game import MazeGame
from engine.rules_sheet import layout_sheet


def rules_text(game: MazeGame, width: int = 78) -> str:
    """The whole rules sheet for ``obelisk rules maze``."""
    options = game.options
    sections: list[tuple[str, list[str]]] = [
        ("THE MAZE - the Architect against the Maze Master", [
            f"The Architect gathers the five obelisk segments within {options.turns} turns; "
            "the Maze Master walls the board to stop it.",
        ]),
        ("Setting up", [
            "On an 8 x 8 board the Architect (button A) puts segment 1, the obelisk, on "
            "any square; the Maze Master (button B) puts segments 2 to 5, in turn, each on "
            "a square of its own (the table asks for each by the number on it). The table "
            f"counts the turns ({options.turns}; 15 and 25 are the "
            "variants) and the walls (10).",
        ]),
        ("A turn", [
            "- The Maze Master stands one wall, or presses their button to pass.",
            "- A wall stands in a square and blocks two sides of it that meet at a corner "
            "(an L in one of four orientations). The table lights the wall's square and the "
            "two squares it shuts out; press to turn to the next orientation, hold to "
            "confirm. Pieces may share a square with a wall.",
            "- A wall that would leave any square out of the obelisk's reach is refused: "
            "take it off and try another.",
            "- Then the Architect moves the obelisk like a chess queen, any distance in a "
            "straight or diagonal line. It passes over segments still out, never through "
            "a wall side. A diagonal step squeezes past a wall's end: it is blocked only "
            "when both ways round its corner (two straight steps) are walled.",
            "- Ending a move on a segment claims it: put the obelisk on top and hold the "
            "button while the table lights that square.",
        ]),
        ("The end", [
            "The Architect wins the moment all five segments are together, within the "
            "turn limit; otherwise the Maze Master wins. The Architect's ring counts the "
            "turns left, green while the shortest route still fits, red once it cannot; "
            "the Maze Master's ring counts the walls left.",
        ]),
    ]
    return layout_sheet(sections, width)
