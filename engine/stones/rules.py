"""The stones rules as this table plays them, in the words of the chosen edition."""

from __future__ import annotations

from dataclasses import replace

from engine.rules_sheet import layout_sheet
from engine.stones.game import (
    DEFAULT_PLY_LIMIT,
    NAMES,
    Edition,
    Kind,
    Mode,
    StonesGame,
    StonesOptions,
)


def balanced_opens(options: StonesOptions) -> bool:
    """Whether player A has a first move in balanced play on this board (worked out)."""
    balanced = replace(options, mode=Mode.BALANCED, ply_limit=None)
    return bool(StonesGame(balanced).new_initial_state().legal_actions())


def rules_text(game: StonesGame, width: int = 78) -> str:
    """The whole rules sheet for ``obelisk rules stones``."""
    options = game.options
    n = NAMES[options.edition]
    corner, key, cap = n[Kind.CORNER], n[Kind.KEY], n[Kind.CAP]
    jump, pillar = n["jump"], n["pillar"]
    edition = "classic" if options.edition is Edition.CLASSIC else "second"
    sections: list[tuple[str, list[str]]] = [
        ("STONES - build your obelisk first (SE20ND Obelisk)", [
            f"Two players, three stones each: a {corner}, a {key} and a {cap}. Stack the "
            f"{key} on your {corner} to make a foundation, then the {cap} on the "
            "foundation: the first finished obelisk wins. A player with no legal move "
            f"loses. Words of the {edition} edition; the rules are the same in both.",
        ]),
        ("The board", [
            f"{options.rows} rows between the players and {options.cols} columns across "
            f"(the default, 6 x 4, puts the narrow edge before each player; any size from "
            "4 x 4 to 8 x 8 works). Each player starts in their near right corner: the "
            f"{cap} in the corner, the {key} straight ahead of it and the {corner} to its "
            "left. Player A has the black stones and moves first.",
            "Balanced play needs a first move that keeps both symmetries. Boards 4 "
            "columns wide or 4 rows long have one; on every board of at least 5 x 5 "
            "there is none, so there balanced play is lost before it starts (player A "
            f"has no legal move). On this board, {options.rows} x {options.cols}, "
            f"balanced play {'opens' if balanced_opens(options) else 'is lost at once'}.",
        ]),
        ("Moving", [
            "- A stone moves one square diagonally forward or straight back, to an empty "
            "square.",
            f"- {jump.capitalize()}: a stone may pass over an adjacent stone (in one of "
            "those directions) to the empty square beyond. It never lands on a stone.",
            f"- Foundation: the {key} steps onto its own {corner}. From then on the two "
            "move as one stone and never come apart.",
            f"- Obelisk: the {cap} steps onto its own foundation, and that player wins.",
            f"- {pillar[0].upper() + pillar[1:]}: the {cap}, and only the {cap}, may step "
            "onto an opposing "
            f"{corner}, {key} or foundation. The opponent may still move that stone, the "
            f"{cap} riding on it (steps and {jump}s only; a stone carrying a {cap} never "
            f"stacks). On its owner's next turn the {cap} must come off: a step, a "
            f"{jump}, the obelisk, or another {pillar}. If it cannot, its owner loses.",
            f"- A {cap} may not stack on its own {key} or {corner} before the "
            "foundation.",
        ]),
        ("Symmetry", [
            "After every move the player who moved must keep symmetry. Stones are "
            "symmetric when they share a row or a column; stacked stones stand on their "
            "square.",
            "- Colour symmetry: two of your own stones line up (a foundation always "
            "counts).",
            f"- Shape symmetry: one of your stones lines up with the opponent's stone of "
            f"the same kind ({corner} with {corner}, {key} with {key}, {cap} with {cap}).",
            f"- Modes: open play needs either; bounded play needs colour symmetry; "
            f"balanced play needs both. Now: {options.mode.value} play.",
        ]),
        ("How a game ends", _endings(options, cap)),
        ("On the table", [
            "A switch under each square sees whether it is occupied. The table works out "
            "your move from the squares that emptied and filled; when two moves look the "
            f"same, it lights them and you pick with your button. A {cap} moving from one "
            f"{pillar} straight onto another stone changes no switch: press your button "
            "to say you moved. "
            "Lift a stone and its legal destinations light up.",
        ]),
        ("Options", [
            "--edition classic|second: the words used (now " + edition + ").",
            "--mode open|bounded|balanced: the symmetry to keep.",
            f"--ply-limit N|none: the move limit, or none; {DEFAULT_PLY_LIMIT} unless chosen "
            f"(now {options.ply_limit or 'none'}).",
        ]),
    ]
    return layout_sheet(sections, width)


def _endings(options: StonesOptions, cap: str) -> list[str]:
    """Every way a game ends, so that each one does: stones can go round in circles."""
    limit = options.ply_limit
    endings = [
        "- The first player to build their obelisk wins.",
        "- A player with no legal move on their turn loses.",
    ]
    if options.repetition:
        endings.append(
            "- Repetition: when the same position comes round a third time with the same "
            f"player to move (every stone on the same square, every {cap} on the same "
            "stone), the game is a draw. Going back and forth cannot go on for ever.")
    if limit is not None:
        endings.append(f"- Move limit: a game still going after {limit} moves in all (both "
                       "players' moves counted) is a draw.")
    elif options.repetition:
        endings.append("- No move limit in this game: the repetition rule ends any game "
                       "that goes round in circles, and so every game ends (a board holds "
                       "only so many positions).")
    else:
        endings.append("- No move limit and no repetition rule (a game recorded before "
                       "those rules): it ends only with an obelisk or a player without a "
                       "move.")
    return endings
