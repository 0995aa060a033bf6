"""Towers: 3D head-to-head tower packing. This is the game's declaration, its one entry point.

Everything the table needs of towers is named here once; the parts are
imported when first asked for (see ``firmware.contract``).
"""

from __future__ import annotations

import argparse

from firmware.contract import Flag, GameType, seconds_in


def _own_set(path: str) -> dict:
    """``--set FILE``: an owner's wooden set, checked, as the plain data a journal keeps."""
    from engine.errors import BlockSetError
    from engine.towers.blocks import block_set_to_dict
    from firmware.towers.sets import load_block_set

    try:
        return block_set_to_dict(load_block_set(path))
    except BlockSetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _hourglass(text: str) -> float:
    """``--hourglass``: seconds in the towers engine's range (imported once it is typed)."""
    from engine.towers.game import HOURGLASS_RANGE_S

    return seconds_in(*HOURGLASS_RANGE_S, "the hourglass")(text)


GAME = GameType(
    "towers", "3D head-to-head tower packing", __name__,
    options_class="engine.towers.game:TowersOptions", engine="engine.towers.game:TowersGame",
    maker=".sets:make_game", record="engine.towers.record", rules="engine.towers.rules:rules_text",
    table=".table:TowersTable", view=".view:view_of", demo=".demo:run_demo",
    screen=".screen:draw", tuning="engine.search.towers:TUNING", solo=".solo",
    hands=".hands:Hands", page="towers", hands_page="hands_towers", first_by="the coin toss",
    flags=(
        Flag("--hourglass", ("hourglass_s",),
             "the active player's time to choose, in seconds (default: 60)",
             type=_hourglass, metavar="SECONDS"),
        Flag("--sudden-death", ("sudden_death",), "no points: the first tower over the top "
             "loses", switch=True),
    ),
    extra_flags=(Flag("--set", ("set",), "your own wooden block set (TOML; see `obelisk "
                      "rules towers`)", type=_own_set, metavar="FILE"),),
)
