"""Carrying out the table's commands in the service's loop, each by its handler.

A well-formed command (``firmware.service.commands``) comes off the service's one queue
(``firmware.service.command_queue``) and is carried out here with the table's lock held.
Its handler is found by name in ``HANDLERS``, grouped by concern: the game in play
(``game_commands``), a match with another table (``firmware.match.commands``), setting a
table up afresh (``setup_commands``); ``status`` and ``diag`` only answer. There is no
second way to change a game: a handler makes the presses its command stands for, or swaps
in a table made before anything changed.
"""

from __future__ import annotations

from typing import Any

from firmware.match import commands as match_commands
from firmware.service import game_commands, setup_commands
from firmware.service.command_desk import CommandDesk, Handler
from firmware.service.commands import Command
from firmware.service.status_answer import status
from firmware.service.table_maker import TableMaker

HANDLERS: dict[str, Handler] = {
    "pause": game_commands.pause, "resume": game_commands.resume,
    "decline": game_commands.decline, "takeback": game_commands.takeback,
    "choose": game_commands.choose, "start": game_commands.start, "hint": game_commands.hint,
    "end": setup_commands.end, "new": setup_commands.new,
    "answer": match_commands.answer, "claim": match_commands.claim,
    "peer": match_commands.peer, "link": match_commands.link, "clock": match_commands.clock,
    "negotiation": match_commands.negotiation,
    "peer_claim": match_commands.peer_claim,
}
"""Each command that acts, by name (``status`` and ``diag`` only answer)."""


class CommandRunner:
    """Carries out commands on a service's table, in its loop (the table's lock held)."""

    def __init__(self, service: Any, maker: TableMaker) -> None:
        self.service = service
        self.desk = CommandDesk(service, maker)

    @property
    def maker(self) -> TableMaker:
        """What later tables are made with (a ``new`` command changes its far seat)."""
        return self.desk.maker

    @maker.setter
    def maker(self, maker: TableMaker) -> None:
        self.desk.maker = maker

    def carry_out(self, command: Command, now: float) -> dict:
        """The answer to one command; CommandRefused when it makes no sense now."""
        table = self.service.table
        if command.name == "status":  # with the mark of the PIN's showing, for the page
            return {**status(table), "pin_mark": getattr(self.service, "pin_mark", "")}
        if command.name == "diag":
            return {"ok": True, **self.service.diag(command.led)}
        said = HANDLERS[command.name](self.desk, table, command, now)
        return {"ok": True, "state": self.service.table.state,
                "message": said or self.service.table.problem}

    def follow_up(self, now: float) -> None:
        """After any input: the end of a match's game, once the two tables agreed on it."""
        match_commands.follow_up(self.desk, now)
