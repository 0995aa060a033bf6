"""What a command's handler works with: the service's table, its buttons, the next table.

Each handler (``game_commands``, ``firmware.match.commands``, ``setup_commands``) is handed one
``CommandDesk`` with the table as the command found it; a command that stands for a press
makes that press here, so every rule applies and the journal records what the buttons
would record. A fresh table is made before anything changes (``make``), and a game ended
unfinished is kept before the same game is set up afresh (``set_aside``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware.games import GAMES
from firmware.service.commands import Command, CommandRefused
from firmware.service.table_maker import TableMaker
from firmware.store.journal import JournalError
from hardware.buttons import ButtonEvent


class CommandDesk:
    """The service as commands see it: its table now, its buttons, and its table maker
    (a ``new`` command changes the maker, so later tables keep its far seat)."""

    def __init__(self, service: Any, maker: TableMaker) -> None:
        self.service = service
        self.maker = maker

    @property
    def table(self) -> Any:
        """The service's table now (a command may have swapped in a fresh one)."""
        return self.service.table

    def press(self, button: str, now: float, kind: str = "press") -> None:
        """The button input a command stands for, to the service's table."""
        self.service.table.on_button(ButtonEvent(button, kind), now)

    def make(self, game_id: str, options: object, extras: dict,
             maker: TableMaker | None = None) -> tuple[Any, Callable]:
        """A fresh table in setup (not yet the service's); CommandRefused when it cannot be."""
        return (maker or self.maker).make(GAMES[game_id], options, extras,
                                          self.service.table.around)

    def set_aside(self, table: Any, now: float, how: str = "end") -> str:
        """The game ended unfinished (``how``: ``firmware.store.history.SET_ASIDE``), kept,
        and the same game set up afresh."""
        from firmware.store.history import SET_ASIDE

        # the new table first: one this table cannot make leaves the game and journal be
        made = self.make(table.game.id, table.game.options, table.extras())
        try:
            kept = table.journal.set_aside(how)
        except JournalError as exc:
            raise CommandRefused(str(exc)) from None
        follows = getattr(made[0].solo, "follows", None)
        nxt = follows(table.solo) if follows is not None else ""  # a match's next game
        self.service.swap_table(*made, now)
        ended = "the game was ended" if how == "end" else f"the game was {SET_ASIDE[how]}"
        words = f"{ended}; its moves are kept in {kept.name} (obelisk games lists it)"
        words += f"; {nxt}" if nxt else ""
        self.service.table.tell("notice", message=words)
        return words


Handler = Callable[[CommandDesk, Any, Command, float], str]
"""A command's handler: (the desk, the table as the command found it, the command, now) to
what it did in words; CommandRefused when it makes no sense now."""
