"""The commands that set a table up afresh: ``end`` an unfinished game, or a ``new`` one.

``end`` moves the unfinished journal aside (kept, as ``--new-game`` keeps it) and sets the
same game up again; in a match it asks the other table first. ``new`` sets another game,
other options or another far seat up (after the end of a game it is the player's press that
sets up the next one). Either way the fresh table is made before anything changes, and the
service swaps it in, in setup; its start is journalled when the players start it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.errors import ObeliskError
from firmware.games import GAMES
from firmware.match.commands import asking, match_of
from firmware.service.command_desk import CommandDesk
from firmware.service.commands import Command, CommandRefused
from firmware.service.game_choices import options_of
from firmware.service.table_maker import solo_of, solo_wanted


def end(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The unfinished game set aside and set up afresh (in a match, once the other agrees)."""
    if not table.game_on():
        raise CommandRefused("no game is on to end")
    if match_of(table) is not None:  # both tables end it, once the other one agrees
        return asking(table.solo.asking.propose, table, "end")
    return desk.set_aside(table, now)


def new(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """Another game, other options or another far seat set up; the same one: the next game."""
    if not table.between_games():
        raise CommandRefused("a game is on: end it first, or play it to its end")
    spec = GAMES[command.game or table.game.id]
    options = options_of(spec, command.options) if command.game or command.options \
        else table.game.options
    try:
        solo = solo_wanted(command, solo_of(table))
    except ObeliskError as exc:
        raise CommandRefused(str(exc)) from None
    if spec.id == table.game.id and options == table.game.options and \
            solo == solo_of(table):
        if table.may_new_game():
            desk.press("A", now)  # as a player's press after the end: the next game
        else:  # set up again: every page draws the table afresh
            table.emit(table.public_state())
        return desk.table.problem
    extras = table.extras() if spec.id == table.game.id else {}
    maker = replace(desk.maker, solo=solo)
    made = desk.make(spec.id, options, extras, maker)  # refused: nothing changed
    desk.maker = maker  # later tables (``end``) keep this solo setting
    desk.service.swap_table(*made, now)
    return desk.table.problem
