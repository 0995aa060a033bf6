"""The maze: the Architect against the Maze Master. The game's declaration, its entry point.

Everything the table needs of the maze is named here once; the parts are
imported when first asked for (see ``firmware.contract``).
"""

from __future__ import annotations

from firmware.contract import Flag, GameType

GAME = GameType(
    "maze", "the Architect against the Maze Master", __name__,
    options_class="engine.maze.game:MazeOptions", engine="engine.maze.game:MazeGame",
    record="engine.maze.record", rules="engine.maze.rules:rules_text",
    table=".table:MazeTable", view=".view:view_of", demo=".demo:run_demo",
    screen=".screen:draw", tuning="engine.search.maze:TUNING", solo=".solo",
    hands=".hands:Hands", profile="sim-maze", page="maze", hands_page="hands_maze",
    seats="engine.maze.game:ROLE_NAMES",
    flags=(Flag("--turns", ("turns",), "the turn limit (default: 20; 25 helps the "
                "Architect, 15 the Maze Master)", type=int, choices=(15, 20, 25)),),
    # the choices are the engine's TURN_LIMITS (a test checks)
)
