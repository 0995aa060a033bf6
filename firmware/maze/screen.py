"""The maze board in text, from the public observation alone."""

from __future__ import annotations

from engine.core import parse_square
from engine.maze.actions import Orientation, PlaceWall
from engine.maze.board import SIZE
from engine.maze.game import MazeGame, MazeOptions, MazeState, Phase
from engine.maze.plan import plan


def _state(seen: dict) -> MazeState:
    """The position an observation shows, for the plan (the whole maze is in plain view;
    the segments' numbers the plan does not need)."""
    walls = tuple(PlaceWall(parse_square(square), Orientation(way))
                  for square, way in seen["walls"])
    options = MazeOptions(turns=seen["turn"] + seen["turns_left"],
                          walls=len(walls) + seen["walls_left"])
    return MazeState(MazeGame(options), phase=Phase(seen["phase"]),
                     obelisk=parse_square(seen["obelisk"]) if seen["obelisk"] else None,
                     segments=frozenset(parse_square(s) for s in seen["segments"]),
                     claimed=seen["claimed"], walls=walls, turn=seen["turn"])


def turn_words(seen: dict) -> str:
    """The turn under way, as the turn line and the page count it: "turn 3 of 20" once the
    Architect has moved twice (``turn`` counts the moves made); "no turns left" after the
    last; once the game is over, the turns played ("5 of 15 turns played": none is under
    way)."""
    if seen["phase"] == "over":
        return f"{seen['turn']} of {seen['turn'] + seen['turns_left']} turns played"
    if not seen["turns_left"]:
        return "no turns left"
    return f"turn {seen['turn'] + 1} of {seen['turn'] + seen['turns_left']}"


def draw(seen: dict) -> str:
    """Rows from the far edge down: O the obelisk, a segment by its number, a wall's
    orientation after its square; then the turns, walls and claims, and the Architect's
    shortest way."""
    walls = {square: way for square, way in seen["walls"]}
    numbers = seen["numbers"]
    lines = []
    for r in reversed(range(SIZE)):
        row = []
        for c in range(SIZE):
            name = f"{'abcdefgh'[c]}{r + 1}"
            mark = "O" if name == seen["obelisk"] else str(numbers.get(name, "."))
            row.append(mark + walls.get(name, "  "))
        lines.append(f"{r + 1} " + " ".join(row))
    lines.append("  " + " ".join(f"{c}  " for c in "abcdefgh"))
    line = (f"{turn_words(seen)}, walls left {seen['walls_left']}, "
            f"segments claimed {seen['claimed']}")
    if seen["phase"] in ("wall", "move"):
        way = plan(_state(seen))
        moves = f"{way.moves} more move{'' if way.moves == 1 else 's'}"
        line += (f"; the Architect needs {moves} "
                 f"({'in time' if way.enough else 'too late'})")
    lines.append(line)
    return "\n".join(lines)
