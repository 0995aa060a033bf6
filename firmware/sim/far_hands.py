"""The demo's players when a far seat plays (the computer, the other table of a match): the
bots play the seat here, and the far seat's moves are made as the table lights them."""

from __future__ import annotations

import time
from typing import Any

from firmware.core.table_state import TableState

AGAIN_S = 1.0
"""How long (real seconds) the demo's hand waits for the table to take a move it made
before it presses again (where a press is part of the move)."""


class SoloPlayers:
    """The demo's players in a solo game: the game's bots play the person's seat, and the
    computer's moves are made as the table shows them on its LEDs.

    The computer's move is read from the simulated LED strip alone (each
    game's ``shown``: pad colours, rods, squares, rings), never from the
    search, the table's own record of it, or an event: a person at the table
    sees only the lights. Its game's ``hand`` makes it on the simulated table.
    """

    def __init__(self, players: Any, table: Any) -> None:
        self.players = players
        self.table = table
        self.seen: tuple = ()  # the last move read off the LEDs, kept while the table asks
        self.made: list[str] = []  # which placement it was; every move made, for tests
        self.made_in: Any = None  # the position the last move was made in
        self.made_at = 0.0  # and when (real time), to press again if the table took no note

    def physical(self) -> dict:
        return self.players.physical()

    def restore(self, data: dict) -> None:
        self.players.restore(data)

    def waiting(self) -> bool:
        return self.players.waiting()

    def shown(self) -> tuple:
        """The computer's move as the LEDs show it now (empty: none lit)."""
        return self.table.solo.rules.shown(self.players, self.table)

    def act(self) -> None:
        table = self.table
        computer = table.solo
        rules = computer.rules
        if table.state == TableState.choose and table.chooser is computer.seat and self.seen:
            mine = [i for i, c in enumerate(table.candidates)
                    if any(rules.same(table.position, w, c[-1]) for w in self.seen)]
            if mine:  # the chooser's button: step to the asked one, then hold it
                self.players.devices.buttons.press(computer.seat.value,
                                                   hold=table.pick == mine[0])
                return
        if table.state == TableState.repair:
            self.made_in = None  # what was made is refused: once put right, made again
        if table.state == TableState.play:
            pos = table.position
            if self.seen and pos is self.made_in:
                # made already, and the table has not taken it yet (its button still on its
                # way, the reading still settling): a person waits, and then presses again
                # where a press says it (a block above the rods), never makes it twice (the
                # LEDs read against the tower as it now stands would show it one level up)
                again = getattr(rules, "again", None)
                if again is not None and time.monotonic() - self.made_at > AGAIN_S:
                    self.made_at = time.monotonic()
                    again(self.players, table, self.seen)
                return
            shown = self.shown()
            if shown:
                self.made_in, self.made_at = pos, time.monotonic()
                self.seen = shown
                self.made.append(rules.notation(pos, shown))
                rules.hand(self.players, table, shown)
                return
            if computer.first_to_act(pos):
                return  # the far seat is to act, its move not lit yet: the bots never make it
        if table.state == TableState.setup and computer.first_to_act(table.position) and \
                table.decided is not None and table.ready(table.decided):
            # set up, and the far seat begins (the maze's Architect puts the obelisk down):
            # the person's press starts the game, and the far seat's first move is lit
            self.players.devices.buttons.press(computer.person.value)
            return
        self.players.act()
