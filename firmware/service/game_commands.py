"""The commands of the game in play: the presses of the table's own buttons, from the page.

Pause and resume are the menu button's press, declining a bonus and confirming a takeback
the player's press, choosing a candidate the chooser's presses and then a hold, starting a
game a player's press in setup, a hint the person's hold of their own button when playing
alone. So every rule applies, and a command that makes no sense now is refused in words
and changes nothing.
"""

from __future__ import annotations

from typing import Any

from firmware.core.table_state import TableState
from firmware.match.commands import asked, match_of
from firmware.service.command_desk import CommandDesk
from firmware.service.commands import Command, CommandRefused


def bonus_earners(table: Any) -> list[str]:
    """The players who may decline a bonus now (towers' flat bonus)."""
    return [p.value for p in table.decliners()] if table.in_plain_play() else []


def takeback_owners(table: Any) -> list[str]:
    """The players who may still confirm the takeback on offer."""
    if not table.takeback_waiting():
        return []
    seat = match_of(table)
    if seat is not None:  # a match: the person here asks the other table, once
        return [] if seat.asking.mine is not None else [seat.person.value]
    return sorted(p.value for p in table.offer.owners - table.confirmed)


def why_no_hint(table: Any) -> str:
    """Why a hint cannot be lit now ("": it can)."""
    if table.solo is None or not table.solo.hints:
        return ("a hint is for playing alone: set up a new game with the computer in a seat "
                "(solo A or B)")
    if not table.in_plain_play():
        return "a hint is for a game in play" if table.state != TableState.play else \
            "confirm or undo the takeback first (lift the pieces off, or put them back)"
    from firmware.seats.far_seat import movers

    if table.solo.person not in movers(table.position):
        return "a hint is for your own move: wait for the computer's"
    return ""


def set_out(table: Any) -> bool:
    """Whether a start now begins a game: the table in setup, and its last settled reading
    the pieces set out for one (a player's press then begins it, at the table as here)."""
    return table.may_begin() and table.decided is not None and table.ready(table.decided)


def pause(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The menu button's press: the game in play paused (in a match, asked of the other table)."""
    if not table.may_pause():
        raise CommandRefused("there is no game in play to pause"
                             + (": it is paused already" if table.may_resume() else ""))
    desk.press("menu", now)
    return table.PAUSED if table.state == TableState.paused else asked(table)


def resume(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The menu button's press again: play goes on."""
    if not table.may_resume():
        raise CommandRefused("the table is not paused")
    desk.press("menu", now)
    return "play goes on" if table.state != TableState.paused else asked(table)


def decline(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The bonus earner's press: the bonus declined."""
    earners = bonus_earners(table)
    if not earners:
        raise CommandRefused("there is no bonus to decline now")
    player = command.player or (earners[0] if len(earners) == 1 else None)
    if player is None:
        raise CommandRefused(f"both players have a bonus: say which declines "
                             f"({' or '.join(earners)})")
    if player not in earners:
        raise CommandRefused(f"player {player} has no bonus to decline")
    desk.press(player, now)
    return f"player {player} declined the bonus"


def takeback(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """Each owner's press (or the one named): the takeback on offer confirmed."""
    owners = takeback_owners(table)
    if not owners:
        raise CommandRefused("there is no takeback to confirm: lift the last piece off "
                             "the table first")
    seats = desk.table.SEATS  # as the game names them (the maze's roles)
    if command.player is not None and command.player not in owners:
        raise CommandRefused(f"only {' and '.join(seats.get(p, p) for p in owners)}, whose "
                             "piece came off, may confirm this takeback")
    for player in [command.player] if command.player else owners:
        desk.press(player, now)
    if desk.table.offer is None:
        return "confirmed"
    if desk.table.solo is not None and "match" in desk.table.solo.public():
        # a match: the person's press asked the other table, whose player answers there
        return ("confirmed here, and asked of the other table: it happens when its player "
                "agrees")
    return f"confirmed for {seats.get(command.player, command.player)}; the other owner " \
        "confirms too"


def choose(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The chooser's presses to that candidate, then a hold."""
    if not table.choice_waiting():
        raise CommandRefused("the table offers nothing to choose among now")
    count = len(table.candidates)
    if command.index is None or command.index >= count:
        raise CommandRefused(f"choose a candidate from 0 to {count - 1}")
    chooser = table.chooser.value
    for _ in range((command.index - table.pick) % count):
        desk.press(chooser, now)
    desk.press(chooser, now, "hold")
    return f"candidate {command.index + 1} chosen"


def start(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """Player A's press in setup: the game begins, if the board is set out for one."""
    if not table.may_begin():
        raise CommandRefused("the game is over: start a new one" if table.may_new_game()
                             else "a game is on already")
    if table.decided is None:
        raise CommandRefused("the table is still reading the board: try again in a "
                             "second")
    desk.press("A", now)
    if desk.table.may_begin():  # still in setup: the press began nothing
        raise CommandRefused(f"the table is not ready for a game: {table.problem}")
    return "the game begins"


def hint(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """Playing alone: the person's hold of their own button, and a hint lights."""
    why_not = why_no_hint(table)
    if why_not:
        raise CommandRefused(why_not)
    computer = table.solo
    desk.press(computer.person.value, now, "hold")  # the person's hold, as at the table
    if not computer.hinted:
        return "the computer sees no move to suggest"
    return "the hint is lit on the table and drawn on the board"  # its words: the hint event's
