"""Takebacks: lifting the last placements off again offers them back.

Only the players whose pieces came off confirm, each with their button (the person presses
the computer's seat's button for it); once all have, the actions after the offer's point
are undone, journalled first. ``Takebacks`` keeps the offer and who has confirmed it, one of
the table's collaborators (``firmware.core.table.Table``); a match's far seat is asked
first, and may take the table's place in confirming.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from engine.core import S, counted
from engine.players import Player
from engine.reading import Takeback
from firmware.core.hooks import V
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from firmware.core.choosing import Choosing
    from firmware.core.hooks import CoreTable
    from firmware.core.repair import Repair


class Takebacks(Generic[V, S]):
    """The takeback on offer, if any, and who of its owners has confirmed it."""

    def __init__(self, table: CoreTable[V, S], repair: Repair[V, S],
                 choosing: Choosing[V, S]) -> None:
        self._table = table
        self._repair = repair
        self._choosing = choosing
        self.offer: Takeback | None = None
        self.confirmed: set[Player] = set()

    def withdraw(self) -> None:
        """No takeback is on offer any more (what came off is back, or play moved on)."""
        self.offer, self.confirmed = None, set()

    def put(self, offer: Takeback) -> None:
        """Offer ``offer`` (told once while it stands); play waits in repair meanwhile."""
        table = self._table
        if offer != self.offer:
            self.confirmed = set()
            table.emit(self.event(offer))
        self.offer = offer
        table.problem = self.words(offer.owners)
        self._repair.kind = "takeback"
        self._choosing.withdraw()
        if table.state == TableState.choose:
            table.picked()
        if table.state == TableState.play:
            table.go_wrong()

    def words(self, owners: frozenset[Player]) -> str:
        """Who may take it back: the computer presses no button, so the person presses its
        seat's button for it."""
        table = self._table
        far = self._pressed_for_computer(owners)
        if far is None:
            names = " and ".join(table.SEATS[p.value] for p in sorted(owners,
                                                                      key=lambda p: p.value))
            return (f"a piece came off: {names} may press their button to take it back, or "
                    "put it back")
        mine = "your button and " if len(owners) > 1 else ""
        return (f"a piece came off: to take it back, press {mine}{table.SEATS[far.value]}'s "
                "button for the computer; or put it back")

    def _pressed_for_computer(self, owners: frozenset[Player]) -> Player | None:
        """The computer's seat among ``owners`` (its button the person presses), or None."""
        solo = self._table.solo
        return solo.seat if solo is not None and solo.pressed_here and \
            solo.seat in owners else None

    def event(self, offer: Takeback) -> dict[str, Any]:
        """The ``offer`` event of a takeback."""
        table = self._table
        owners = sorted(offer.owners, key=lambda p: p.value)
        far = self._pressed_for_computer(offer.owners)
        extra: dict[str, Any] = {} if far is None else {"computer": far.value}
        if table.solo is not None and not table.solo.pressed_here:
            extra["afar"] = True  # a match: the press asks the other table, which decides
        return table.event("offer", kind="takeback", players=[p.value for p in owners],
                           candidates=["take back "
                                       + counted(len(table.actions) - offer.to, "action")],
                           **extra)

    def confirm(self, player: Player) -> None:
        """An owner of a lifted piece confirms; the other player's button does nothing."""
        table = self._table
        assert self.offer is not None
        if table.solo is not None and table.solo.confirms(table, player):
            return  # a match: the other table is asked
        if player not in self.offer.owners:
            return
        self.confirmed.add(player)
        if self.confirmed >= self.offer.owners:
            self.take_back(self.offer.to)

    def take_back(self, to: int, why: str = "confirmed") -> None:
        """Undo the actions after ``to`` (journalled first); ``why`` is "confirmed" for a
        player's takeback, "slide" when a piece moved on and its move is replaced, "agreed"
        for a match's, "claimed" for the moves made out of touch after the other table of a
        match claimed the game."""
        table = self._table
        undone = len(table.actions) - to
        agreed = {"agreed": True} if why == "agreed" else {}  # a match's: both count them
        table.journal.append({"t": "takeback", "to": to, **agreed})
        table.rewind(to)
        self.withdraw()
        table.tell("takeback", undone=undone, actions=to, why=why,
                   observation=table.position.observation())
        table.tell_turn(None)
        if why in ("confirmed", "agreed"):  # the offer's repair ends with it (a match's
            if table.state == TableState.repair:  # asker waited in it for the other table)
                table.fixed()
            table.reconsider()
        table._taken_back()

    def agreed(self) -> None:
        """A takeback the two tables of a match agreed: now, if the pieces here stand so
        already (lifted off for the ask), else once they do (the turn's words say which)."""
        table = self._table
        if self.offer is not None and table.solo is not None and \
                table.solo.on_takeback(table, self.offer.to):
            return
        table.tell_turn(None)
