"""The turn: whose it is and what to do, and what a settled reading means for it.

A settled reading comes here as the game's ``Reading`` (``read``): one decision for every
game turns it into a repair, a takeback to confirm, a choice to pick (a lifted piece's
destinations lit) or actions to play, and then says the turn's words again if the reading
changed them. Playing alone, the computer's move is worked out first so that the turn says
it (one needing no hands is played at once). A player's press that came while a reading
settled is held until it has (``held``). One of the table's collaborators
(``firmware.core.table.Table``); it keeps the turn's words last said, the piece held in the
air and the held press.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic

from engine.core import S
from engine.errors import ObeliskError, PutBackFirst
from engine.players import Player
from engine.reading import Reading
from firmware.core.hooks import V
from firmware.core.table_state import TableState

if TYPE_CHECKING:
    from enum import StrEnum

    from firmware.core.choosing import Choosing
    from firmware.core.hooks import CoreTable
    from firmware.core.repair import Repair
    from firmware.core.takebacks import Takebacks


class Turn(Generic[V, S]):
    """Whose turn it is, what it asks, and the decision on each settled reading."""

    def __init__(self, table: CoreTable[V, S], repair: Repair[V, S], choosing: Choosing[V, S],
                 takebacks: Takebacks[V, S]) -> None:
        self._table = table
        self._repair = repair
        self._choosing = choosing
        self._takebacks = takebacks
        self.said = ""  # the words of the last turn told
        # a piece held in the air (its square): where it may go is lit
        self.lifted: tuple[int, int] | None = None
        # a player's press that came while a reading settled: (player, kind, state then)
        self.held: tuple[Player, str, StrEnum] | None = None

    # ------------------------------------------------------------------ the turn

    def tell(self, before: S | None) -> None:
        """Say whose turn it is and what to do, if new since ``before`` (None: say it). The
        computer's move first (playing alone): its turn says it; one needing no hands is
        played at once."""
        table = self._table
        solo = table.solo
        if solo is not None:
            played = solo.turn(table)
            if played:
                table._accept(played)
                return
        player = table.position.current_player()
        doing = self.doing()
        if player is not None and (before is None or before.current_player() is not player
                                   or doing != self.said):
            self.said = doing
            table.tell("turn", player=player.value, doing=doing)
        if solo is not None:
            solo.ask(table)

    def doing(self) -> str:
        """The phase's words, the far seat's move it asks of the person, or while a choice
        waits what it asks (a walk: the maze's turn said to stand a wall while the table asked
        which way the stood one faces)."""
        table = self._table
        if self._choosing.waiting and self.lifted is None:  # (a piece in the hand: the
            return self._choosing.question  # game's own words say where it may go, and why)
        words = table._phase_words()
        return words if table.solo is None else table.solo.doing(table, words)

    # ------------------------------------------------------------------ presses about the pieces

    def press(self, player: Player, kind: str) -> None:
        """A press about the pieces (set out, a block above the rods, a pass...): the
        settled view is the table as it is."""
        table = self._table
        if table.state == TableState.setup:
            table._setup_button(player, kind)
        elif table.solo is None or not table.solo.button(table, player, kind):
            table._play_button(player, kind)

    def hold(self, player: Player, kind: str) -> None:
        """A press that came while a reading settles is about the table as it settles."""
        self.held = (player, kind, self._table.state)

    def held_over(self) -> None:
        """A press held while the table settled, now that it has (and if it still means the
        same: the reading may have moved the table on to a choice or a repair), or now that
        the reading came back to what had settled (a hand passed over): it is about that."""
        table = self._table
        if table.settler.deadline() is not None:  # still settling
            return
        held, self.held = self.held, None
        if held is not None and held[2] == table.state and (
                table.state == TableState.setup or table.in_plain_play()):
            self.press(held[0], held[1])

    # ------------------------------------------------------------------ a settled reading

    def read(self, view: V) -> None:
        """What a settled reading means, acted on the same way in every game; then the
        turn's words again if the reading changed them (the maze's obelisk lifted: where it
        may go), so that no settled reading goes unanswered."""
        table = self._table
        self._meaning_acted_on(view)
        if table.position.is_terminal():
            return
        if table.state in (TableState.play, TableState.choose):
            self.tell(table.position)
        elif table.state == TableState.repair:
            self.tell_again()

    def tell_again(self) -> None:
        """While a refusal stands, the turn's words again if what it said no longer holds (the
        maze's obelisk said off its square, now read put down where it may not go): a line
        names where things stand now, as the whole state tells a page that joins."""
        table = self._table
        player = table.position.current_player()
        doing = self.doing()
        if player is not None and doing != self.said:
            self.said = doing
            table.tell("turn", player=player.value, doing=doing)

    def _meaning_acted_on(self, view: V) -> None:
        """A refusal to repair, a takeback to confirm, a choice to pick, or actions to play."""
        table = self._table
        self.lifted = None
        try:
            reading = table._meaning(view)
        except ObeliskError as exc:
            self._takebacks.withdraw()
            task = isinstance(exc, PutBackFirst)  # pieces to put back, no rule broken
            self._repair.refuse(str(exc), table._to_fix(view, exc),
                                kind="task" if task else "rule")
            return
        if reading.takeback is not None:
            if table.solo is None or not table.solo.on_takeback(table, reading.takeback.to):
                self._takebacks.put(reading.takeback)  # (a match's are agreed first)
            return
        self._takebacks.withdraw()  # what came off is back: no takeback
        self.lifted = reading.lifted
        reading = self._asked_only(reading)
        if reading.choices:
            self._choice(reading)
            return
        if reading.amends is not None:
            self._takebacks.take_back(reading.amends, why="slide")
        table.settled_back(moving_on=bool(reading.actions))
        if reading.actions:
            table._accept(reading.actions)

    def _choice(self, reading: Reading) -> None:
        """Several actions fit: the chooser picks, unless the far seat asked one of them."""
        table = self._table
        if table.state == TableState.repair:
            table.settled_back()
        assert reading.chooser is not None
        known = () if table.solo is None else table.solo.chosen(table.position, reading)
        if not known:
            self._choosing.ask(reading.chooser, reading.choices, table._question(reading))
            return
        self._choosing.withdraw()  # the far seat's: the one it asked
        if table.state == TableState.choose:
            table.picked()
        table._accept(known)

    def _asked_only(self, reading: Reading) -> Reading:
        """Only the far seat's asked move counts for it: a lifted piece whose choices are the
        far seat's, none of them the asked move, is only in the hand on its way there, and
        nobody is asked to pick one."""
        solo = self._table.solo
        if (reading.lifted is None or solo is None or not solo.asked
                or reading.chooser is not solo.seat or solo.chosen(self._table.position,
                                                                   reading)):
            return reading
        return Reading(lifted=reading.lifted)
