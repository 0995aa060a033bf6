"""The simulated board as a process, with a person's hands on its table (``obelisk play``).

``hardware.sim.board`` is the board; which hands a game has is the game's own
declaration (``GameType.hands``), so the hardware layer never
looks a game up. Run: ``python -m firmware.sim.hands_board --state-dir DIR --game G``.

The board keeps its pieces as the wooden set does: after every act the hands'
``physical()`` is written whole to ``TABLE_FILE`` in the state directory
(``firmware.sim.table_file``, as the demos keep theirs), and hands made on that
directory again ``restore`` it before the board's first scan, so a restarted
``obelisk play`` finds the table as it was. A file that is damaged or another
game's leaves the board empty, kept aside, and ``said`` says why.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ObeliskError
from firmware.contract import GameType
from firmware.games import GAMES
from firmware.sim.table_file import TableFile
from hardware.sim.board import main as board_main
from hardware.sim.table import SimTable

TABLE_FILE = "sim-hands.json"
"""What stands on the simulated table and what the hands hold, in the state directory."""
_UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError, ObeliskError)
"""What restoring pieces that are no pieces of this table raises (checked before any is put
back); only the hands' own HandsError is in words a person can read."""


class NoHands(LookupError):
    """A game with no simulated hands declared: it cannot be played with no table."""


@dataclass
class DeclaredHands:
    """A game's hands as the board serves them: what they look like names the game and the
    page's module that draws them, both from the game's declaration; what they did is kept
    in ``kept`` after every act."""

    game: GameType
    hands: Any
    kept: TableFile | None = None

    @property
    def said(self) -> str:
        """Why the pieces kept before could not be put back ("" when they were, or none)."""
        return self.kept.said if self.kept is not None else ""

    def act(self, request: dict) -> None:
        try:
            self.hands.act(request)
        finally:  # a refused act may have done part of its work: keep what is there
            if self.kept is not None:
                self.kept.save(self.hands.physical())

    def look(self) -> dict:
        return {**self.hands.look(), "game": self.game.id, "page": self.game.hands_page}


def hands_for(game: str) -> Callable[[SimTable, Path], DeclaredHands]:
    """The hands ``game`` declares, with the pieces kept in the state directory put back;
    NoHands, in words, for an unknown game or one without."""
    declared = GAMES.get(game)
    hands = None if declared is None else declared.hands_class()
    if declared is None or hands is None:
        raise NoHands(f"{game!r} has no hands on the simulated table (games with hands: "
                      f"{', '.join(g.id for g in GAMES.values() if g.hands)})")

    def make(sim: SimTable, state_dir: Path) -> DeclaredHands:
        made = hands(sim)
        if not (hasattr(made, "physical") and hasattr(made, "restore")):
            return DeclaredHands(declared, made)  # hands that cannot say what they did
        kept = TableFile(Path(state_dir) / TABLE_FILE, declared.id, "sim board")
        saved = kept.load()
        if saved is not None:
            try:
                made.restore(saved["table"])
            except _UNREADABLE as exc:
                why = str(exc)[:120] if isinstance(exc, ObeliskError) else \
                    "it is not what the simulated table writes"
                kept.set_aside(f"cannot be read ({why})")
                made = hands(sim)  # nothing of it was put back: these hands are empty
        return DeclaredHands(declared, made, kept)

    return make


def main(argv: list[str] | None = None) -> int:
    return board_main(argv, hands_for=hands_for, prog="python -m firmware.sim.hands_board")


if __name__ == "__main__":
    sys.exit(main())
