"""High Rise: stacks over hidden values. The game's declaration, its one entry point.

Everything the table needs of High Rise is named here once; the parts are
imported when first asked for (see ``firmware.contract``).
"""

from __future__ import annotations

from firmware.contract import Flag, GameType, board_size

GAME = GameType(
    "highrise", "High Rise: stacks over hidden values", __name__,
    options_class="engine.highrise.game:HighriseOptions",
    engine="engine.highrise.game:HighriseGame", record="engine.highrise.record",
    rules="engine.highrise.rules:rules_text", table=".table:HighriseTable",
    view=".view:view_of", demo=".demo:run_demo", screen=".screen:draw",
    tuning="engine.search.highrise:TUNING", solo=".solo", hands=".hands:Hands",
    prepare=".hands:prepare", calibrate=".calibrate:run_calibrate",
    calibrate_help="weigh an empty board and one piece of each size",
    page="highrise", hands_page="hands_highrise", hidden_chance=True,
    first_by="the draw for the first turn",
    flags=(Flag("--size", ("rows", "cols"), "rows x columns, 3x3 (default) to 8x8",
                type=board_size("highrise", 3), metavar="RxC"),),
)
