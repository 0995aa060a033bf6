"""A fifth game that lives only in the tests: noughts and crosses on the stones board.

It proves that a game is one package and one line: its rules (``game.py``),
its record, its rules sheet, its table on the core, its LEDs, its screen,
its demo, the computer's lit moves and a person's hands are all here, and
this declaration names them. The one line is the package's name in
``OBELISK_GAMES`` (a game of the table's own is a line in
``firmware.games.DECLARED``). The stones board's switches see which squares
are occupied; whose mark a new stone is, the engine knows.
"""

from __future__ import annotations

from firmware.contract import GameType

GAME_ID = "noughts"

GAME = GameType(
    GAME_ID, "noughts and crosses on the stones board (a test game)", __name__,
    options_class=".game:NoughtsOptions", engine=".game:NoughtsGame", record=".record",
    rules=".rules:rules_text", table=".table:NoughtsTable", view="firmware.stones.view:view_of",
    demo=".demo:run_demo", screen=".screen:draw", solo=".solo",
    hands=".hands:Hands",
)


def registered() -> GameType:
    """The toy game, in this process's registry (once). A test that starts processes of
    its own names the package in ``OBELISK_GAMES`` for them."""
    from firmware.games import GAMES, register

    if GAME_ID not in GAMES:
        register(GAME)
    return GAMES[GAME_ID]
