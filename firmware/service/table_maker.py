"""Making the service's next table: the game, its options and who sits in the far seat.

``obelisk run`` makes its first table with a ``TableMaker``; the ``end`` and ``new``
commands make each later one with it, before anything changes, so a game this table cannot
play is refused with the journal and the table as they were. The maker keeps the far seat
(``solo``: the computer's seat and level, or a match with another table), so ending a game
alone sets up another one alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import ObeliskError
from firmware.contract import GameType
from firmware.core.surroundings import Surroundings
from firmware.seats.seating import seated
from firmware.service.commands import Command, CommandRefused
from firmware.store.journal import Journal


@dataclass(frozen=True)
class TableMaker:
    """Makes the service's table for a game (``obelisk run`` makes its first one so)."""

    profile: Any
    journal: Journal
    seed: Callable[[], int] = lambda: int.from_bytes(os.urandom(8), "big")
    solo: Any = None
    """``firmware.seats.solo.Solo``: the computer's seat and level on every table made (None: two
    people), so ending a game alone sets up another one alone."""

    def make(self, game: GameType, options: object, extras: dict,
             around: Surroundings) -> tuple[Any, Callable]:
        """(the table, its view of a snapshot) in ``around``, the surroundings of the table
        it follows; CommandRefused when this table cannot play it."""
        try:
            engine = game.make(options, extras)
        except (ObeliskError, ValueError, OSError) as exc:
            raise CommandRefused(f"this table cannot play that game: {exc}") from None
        try:
            computer = seated(self.journal, game.id, self._computer(game.id))
            table = game.table_class().for_service(engine, self.journal, self.profile,
                                                  seed=self.seed(), around=around,
                                                  solo=computer)
        except (ObeliskError, ValueError, OSError) as exc:
            raise CommandRefused(f"this table cannot play that game: {exc}") from None
        return table, game.view_of()

    def _computer(self, game_id: str) -> Any:
        """The computer's seat at the new table (None: two people play); CommandRefused
        when the computer does not play the game."""
        if self.solo is None:
            return None
        try:
            return self.solo.far_seat(game_id)
        except (ImportError, ObeliskError) as exc:
            if self.solo.journal_key == "remote":  # the match's own words say what to do
                raise CommandRefused(str(exc)) from None
            raise CommandRefused(f"the computer does not play {game_id} ({exc}): choose "
                                 "two people") from None


def solo_of(table: Any) -> Any:
    """The table's ``Solo`` setting (None: two people play)."""
    return None if table.solo is None else table.solo.solo


def solo_wanted(command: Command, now: Any) -> Any:
    """The far seat a ``new`` command asks for: the computer, a match with another table,
    or no one (absent: ``now``, the table's own)."""
    if command.remote is not None:
        from engine.players import Player
        from firmware.match.seat import Match

        match, seat, secret = command.remote
        return Match(match, Player(seat), secret)
    if command.solo is None:
        return now
    if command.solo == "none":
        return None
    from engine.players import Player
    from firmware.seats.solo import Solo

    return Solo(Player(command.solo), command.level or 1)
