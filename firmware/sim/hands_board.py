"""The simulated board as a process, with a person's hands on its table (``obelisk play``).

``hardware.sim.board`` is the board; which hands a game has is the game's own
declaration (``GameType.hands``), so the hardware layer never
looks a game up. Run: ``python -m firmware.sim.hands_board --state-dir DIR --game G``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware.contract import GameType
from firmware.games import GAMES
from hardware.sim.board import main as board_main
from hardware.sim.table import SimTable


class NoHands(LookupError):
    """A game with no simulated hands declared: it cannot be played with no table."""


@dataclass(frozen=True)
class DeclaredHands:
    """A game's hands as the board serves them: what they look like names the game and the
    page's module that draws them, both from the game's declaration."""

    game: GameType
    hands: Any

    def act(self, request: dict) -> None:
        self.hands.act(request)

    def look(self) -> dict:
        return {**self.hands.look(), "game": self.game.id, "page": self.game.hands_page}


def hands_for(game: str) -> Callable[[SimTable], DeclaredHands]:
    """The hands ``game`` declares; NoHands, in words, for an unknown game or one without."""
    declared = GAMES.get(game)
    hands = None if declared is None else declared.hands_class()
    if declared is None or hands is None:
        raise NoHands(f"{game!r} has no hands on the simulated table (games with hands: "
                      f"{', '.join(g.id for g in GAMES.values() if g.hands)})")
    return lambda sim: DeclaredHands(declared, hands(sim))


def main(argv: list[str] | None = None) -> int:
    return board_main(argv, hands_for=hands_for, prog="python -m firmware.sim.hands_board")


if __name__ == "__main__":
    sys.exit(main())
