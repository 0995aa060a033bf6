"""A choice put to a player: several actions fit what the sensors saw.

The candidates light one after another; the chooser's press lights the next, a hold plays
the one lit. ``Choosing`` keeps the choice on offer (who chooses, the candidates, the one
lit) and is one of the table's collaborators (``firmware.core.table.Table``): it asks the
table for words and for the machine's moves, and owns nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from engine.core import S
from engine.players import Player
from firmware.core.hooks import V
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from firmware.core.hooks import CoreTable

Actions = tuple[Any, ...]
"""One candidate of a choice: the actions it would play, in order."""


class Choosing(Generic[V, S]):
    """The choice on offer, if any: who chooses, the candidates, which one is lit."""

    def __init__(self, table: CoreTable[V, S]) -> None:
        self._table = table
        self.candidates: tuple[Actions, ...] = ()
        self.chooser: Player | None = None
        self.pick = 0
        self.question = ""  # what the choice asks, for the turn's words (who: the turn's)

    @property
    def waiting(self) -> bool:
        """A choice awaits its chooser."""
        return bool(self.candidates) and self.chooser is not None

    def withdraw(self) -> None:
        """No choice is on offer any more (play moved on, or a repair came first)."""
        self.candidates, self.chooser, self.question = (), None, ""

    def ask(self, chooser: Player, candidates: tuple[Actions, ...], question: str = "") -> None:
        """Light the candidates; the chooser steps with a press and plays one with a hold.
        ``question``: how the game asks it, without who is asked (the turn's words say it
        while the choice waits; the table's problem names the chooser first)."""
        table = self._table
        if candidates != self.candidates:
            self.pick = 0
        self.chooser, self.candidates = chooser, candidates
        self.question = question or ("more than one move fits what the table sees; press "
                                     "your button to light the next, hold it on the right one")
        table.problem = f"{table.SEATS[chooser.value]}: {self.question}"
        if table.state != TableState.choose:
            table.ask()
        table.emit(self.event())

    def event(self) -> dict[str, Any]:
        """The ``offer`` event of the choice on offer."""
        assert self.chooser is not None
        return self._table.event("offer", kind="choose", players=[self.chooser.value],
                                 pick=self.pick, candidates=self.words())

    def words(self) -> list[str]:
        """The candidates of the choice on offer, each in a player's words: the ``offer``
        event names them so, and the command socket's ``status`` too."""
        return [", ".join(self._table._words(a) for a in c) for c in self.candidates]

    def press(self, kind: str) -> None:
        """The chooser's press lights the next candidate (the page's list follows); a hold
        plays the one lit, once the rules allow it (a wall may shut a square off)."""
        table = self._table
        if kind == "press":
            self.pick = (self.pick + 1) % len(self.candidates)
            table.emit(self.event())
            return
        actions = list(self.candidates[self.pick])
        if table._checked(actions) is None:  # refused
            return
        self.withdraw()
        table.picked()
        table._accept(actions)
