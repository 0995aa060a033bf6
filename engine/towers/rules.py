"""The towers rules as this table plays them, in words for the players.

The numbers come from the same tables the engine plays with, so the text
cannot drift from the rules.
"""

from __future__ import annotations

from engine.core import counted, plural
from engine.rules_sheet import layout_sheet
from engine.towers.blocks import Colour
from engine.towers.game import TowersGame
from engine.towers.tower import LEVELS


def rules_text(game: TowersGame, width: int = 78) -> str:
    """The whole rules sheet for ``obelisk rules towers``."""
    options, block_set = game.options, game.block_set
    hourglass = f"{options.hourglass_s:g} seconds"
    sections: list[tuple[str, list[str]]] = [
        ("TOWERS - head-to-head tower packing for two players", [
            "Each player builds on their own tower of nine rods (a 3 x 3 square, "
            f"{LEVELS} cubes tall). Blocks are worth more the bigger they are; the "
            "trick is to pack them tightly so you are not the one who goes over the top.",
        ]),
        ("The blocks", [
            f"Set in use: {block_set.name}.",
            *[f"- {c.label} ({counted(c.volume, 'cube')}): "
              f"{counted(len(block_set.of_colour(c)), 'block')}, {c.points:+d} "
              f"{plural(c.points, 'point')} each"
              for c in Colour],
            "Black blocks stay beside the table; every other block starts in the "
            "common pile. The volume of a block tells its colour.",
        ]),
        ("Placing a block", [
            "Every cube of a block is drilled, and the holes must stand upright: a "
            "block may be turned a quarter, half or three-quarter turn, and put in the "
            "right way up or upside down, but never on its side.",
            "A block goes over the rods and slides down until one of its cubes sits on "
            "the top cube of a rod it covers (or on the base). It cannot hang off the "
            "3 x 3 square, and the space under it stays empty for the rest of the game.",
        ]),
        ("A turn", [
            "1. The active player moves two blocks from the common pile to the building "
            f"zone. Their hourglass runs for {hourglass}; until the second block is in, "
            "they may change their mind and put a block back.",
            "2. If the hourglass runs out first, the turn is lost: blocks in the zone go "
            "back to the pile and the players swap roles.",
            "3. The passive player chooses first: they take one of the two blocks (no "
            "time limit) and hand the other to the active player. Until then nothing "
            "goes on the active player's tower: a zone block put there while the other "
            "is still on its pad is refused. The table sees the choice when the passive "
            "player's block lands on their tower, or when both pads are empty.",
            "4. Each player places their block on their own tower, in either order. The "
            "turn ends when both are placed; then the roles swap.",
            "5. A block lifted off again right after it was placed may be taken back: "
            "its owner presses their button (the other player's button does not count).",
        ]),
        ("After each turn", [
            f"- Over the top: if a player's block rose above level {LEVELS}, the game "
            "ends. That block is taken off and not scored, and its owner loses one "
            f"point for each of its cubes above level {LEVELS}. Both players can go "
            "over in the same turn.",
            "- Flat: otherwise, a player whose tower is level on top (all nine rods the "
            "same height, at least one cube) may put one black block anywhere on the "
            "opponent's tower, or decline, while black blocks last. Flats are checked "
            "once per completed turn; a lost turn earns none.",
            f"- A black block over the top: one that goes above level {LEVELS} ends the "
            "game at once; it is removed and the tower's owner loses 1 point.",
            "- Too few blocks in the pile: the game also ends when the common pile holds "
            "fewer than two blocks at the start of a turn.",
        ]),
        ("Scoring", [
            "Each player adds up the values of the blocks on their tower and subtracts "
            "their over-the-top penalty. The higher total wins; equal totals draw. "
            "Example: 1 black, 1 yellow, 2 red, 7 green and 5 blue blocks score "
            "-2 + 0 + 2 + 14 + 15 = 29, or 26 for a player who went three cubes over.",
        ]),
        ("Options", [
            f"--hourglass SECONDS: length of the active player's hourglass "
            f"(now {hourglass}; 60 by default).",
            "--sudden-death: no points at all; the first tower over the top loses, and "
            "both in the same turn is a draw (a black block sends its receiver over). "
            "If the pile runs out first, the game is a draw. "
            f"Now {'on' if options.sudden_death else 'off'}.",
            "--set FILE: play with your own wooden set, described in the same TOML "
            "format as the default set; a file that does not describe a full set is "
            "refused with the block and the problem named.",
        ]),
    ]
    return layout_sheet(sections, width)
