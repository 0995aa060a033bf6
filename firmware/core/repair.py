"""The repair: what breaks the rules is refused, beeped and waited out, one problem at a time.

Nothing illegal is ever recorded. While the table waits in repair, ``problem`` (the table's
words of what stands in the way) says what to put right, and ``Repair`` keeps what kind of
problem it is (a rule broken, a ``task`` to do, a ``takeback`` to confirm, the table's own
``fault``: pages word and colour it by that) and where the LEDs light it. One of the
table's collaborators (``firmware.core.table.Table``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from engine.core import S
from firmware.core.hooks import V
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from firmware.core.choosing import Choosing
    from firmware.core.hooks import CoreTable


class Repair(Generic[V, S]):
    """What kind of problem stops play, and where it is lit."""

    def __init__(self, table: CoreTable[V, S], choosing: Choosing[V, S]) -> None:
        self._table = table
        self._choosing = choosing
        self.kind = "rule"  # what the table's ``problem`` is, when play stops on it
        self.where: tuple[Any, ...] = ()  # where the game lights what is wrong

    def refuse(self, message: str, where: tuple[Any, ...] = (), kind: str = "rule") -> None:
        """Show what stops play and record nothing: go to repair, or say a new problem there.
        ``kind`` says what it is (events.WORDS["refused"])."""
        table = self._table
        changed = (message, kind) != (table.problem, self.kind)
        table.problem, self.kind = message, kind
        self.where = where
        asked = self._choosing.waiting
        self._choosing.withdraw()
        if table.state != TableState.repair and table.may_go_wrong():
            table.go_wrong()
        elif changed:
            table.beep()
            table.emit(self.event())
        if asked:  # the turn said what the choice asked: it asks it no more
            table.tell_turn(table.position)

    def event(self) -> dict[str, Any]:
        """The ``refused`` event of the problem now."""
        table = self._table
        return table.event("refused", message=table.problem, kind=self.kind,
                           where=[table._mark(w).to_dict() for w in self.where])

    def entered(self) -> None:
        """The table went into repair: a beep, and the problem told."""
        self._table.beep()
        self._table.emit(self.event())
