"""Stones (SE20ND Obelisk): three stones and symmetry. The game's declaration, its entry point.

Everything the table needs of stones is named here once; the parts are
imported when first asked for (see ``firmware.contract``).
"""

from __future__ import annotations

import argparse

from firmware.contract import Flag, GameType, board_size, ply_limit

NO_LIMIT = "none"


def _ply_limit(text: str) -> int | None:
    """``--ply-limit``: a number of moves, or none; without a limit the repetition rule
    alone ends a game, and it ends every one (a board holds only so many positions)."""
    if text.strip().lower() == NO_LIMIT:
        return None
    try:
        return ply_limit(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or {NO_LIMIT}: no limit)") from None

GAME = GameType(
    "stones", "SE20ND Obelisk: three stones and symmetry", __name__,
    options_class="engine.stones.game:StonesOptions", engine="engine.stones.game:StonesGame",
    record="engine.stones.record", rules="engine.stones.rules:rules_text",
    table=".table:StonesTable", view=".view:view_of", demo=".demo:run_demo",
    screen=".screen:draw", tuning="engine.search.stones:TUNING", solo=".solo",
    hands=".hands:Hands", page="stones", hands_page="hands_stones",
    flags=(
        Flag("--size", ("rows", "cols"), "rows x columns, 4x4 to 8x8 (default 6x4)",
             type=board_size("stones", 4), metavar="RxC"),
        Flag("--mode", ("mode",), "the symmetry each move must keep (default: open)",
             choices=("open", "bounded", "balanced"), enum="engine.stones.game:Mode"),
        Flag("--edition", ("edition",), "the words used: classic (cornerstone, keystone) or "
             "second (base, pedestal)", choices=("classic", "second"),
             enum="engine.stones.game:Edition"),
        Flag("--ply-limit", ("ply_limit",), "draw after N moves in all (default: 200), or "
             "none: no limit (a position a third time still draws)", type=_ply_limit,
             metavar="N|none", words="move limit"),
    ),
    demo_flags=(Flag("--stack-sensors", ("stack_sensors",), "simulate stack-height "
                     "sensors: stacking needs no button", switch=True),),
)
