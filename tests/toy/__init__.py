"""A fifth game that lives only in the tests: noughts and crosses on the stones board.

It proves that a game is one place to open: its rules (``game.py``), its
record, its rules sheet, its table on the core, its LEDs, its screen and
its demo are all here, and ``registered()`` adds it to the registry with no
change anywhere else. The stones board's switches see which squares are
occupied; whose mark a new stone is, the engine knows (the player to move).
"""

from __future__ import annotations

from firmware.games import GAMES, Game, register

GAME_ID = "noughts"


def registered() -> Game:
    """The toy game, in the registry (once)."""
    if GAME_ID not in GAMES:
        where = "tests.toy"
        register(Game(GAME_ID, "noughts and crosses on the stones board (a test game)",
                      f"{where}.game:NoughtsOptions", (), engine=f"{where}.game:NoughtsGame",
                      record=f"{where}.record", rules=f"{where}.rules:rules_text",
                      table=f"{where}.table:NoughtsTable", view="firmware.stones.view:view_of",
                      demo=f"{where}.demo:run_demo", screen=f"{where}.screen:draw"))
    return GAMES[GAME_ID]
