"""The service's handlers of a match's commands: the other table's actions, the asks'
messages, how the link stands, the other player's hourglass, and a claim of the game.

Most come from ``obelisk remote`` (the other table's action to light and make here, the
messages of its asks, how the link stands, its player's hourglass); ``answer`` and ``claim``
are the person here. After any input the loop tells the asks the game may have moved, and
sets the game aside once the two tables agreed to end it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import ObeliskError
from firmware.match.far_clock import Report
from firmware.service.command_desk import CommandDesk
from firmware.service.commands import Command, CommandRefused


def match_of(table: Any) -> Any:
    """The other table's seat, when this table plays a match (else None)."""
    from firmware.match.seat import MatchSeat

    return table.solo if isinstance(table.solo, MatchSeat) else None


def asking(do: Callable, *args: Any) -> str:
    """A match's ask or answer, its refusal as the command's."""
    from firmware.match.asks import AskRefused

    try:
        return do(*args)
    except AskRefused as exc:
        raise CommandRefused(str(exc)) from None


def asked(table: Any) -> str:
    """What the menu's press did in a match: the ask made, or why none was."""
    seat = match_of(table)
    if seat is not None and seat.asking.mine is not None:
        return (f"asked the other table to {seat.asking.mine.words()}: it happens when its "
                "player agrees")
    return table.problem or "nothing changed"


def claim(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The person here claims the game: the other table was out of touch long enough."""
    seat = match_of(table)
    if seat is None or not seat.claimable or not table.game_on():
        raise CommandRefused("a game may be claimed only in a match whose other table has "
                             "been out of touch as long as `obelisk remote --claim-after` "
                             "allows")
    person = seat.person.value
    words = desk.set_aside(table, now, f"claim-{person}")
    desk.table.tell("remote", state="claimed", message=f"player {person} claimed "
                            "the game: the other table is told when it is back")
    return words


def peer_claim(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The other table's player claimed the game while this one was out of touch."""
    seat = match_of(table)
    if seat is None or command.player != seat.seat.value or not table.game_on():
        raise CommandRefused("no game of this match for the other table to claim")
    at = command.claimed_at
    if at is not None and at[1] == seat.asking.agreed and at[0] < len(table.actions):
        table.takebacks.take_back(at[0], why="claimed")  # made here out of touch: never there
    return desk.set_aside(table, now, f"claim-{command.player}")


def peer(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The other table's action in a match: lit here for the person to make."""
    from firmware.match.seat import MatchError

    assert command.peer is not None  # ``parse`` sets it for this command
    match, n, data, agreed = command.peer
    seat = match_of(table)
    if seat is None or seat.match.name != match:
        raise CommandRefused(f"this table plays no match {match!r}")
    if not table.started:
        raise CommandRefused("waiting: the game has not started at this table yet")
    try:
        action = table.record.action_from_dict(data)
    except (ObeliskError, ValueError, KeyError, TypeError) as exc:
        raise CommandRefused(f"the other table's action {n} cannot be read ({exc})") from None
    try:
        said = seat.offered(table, n - 1, action, agreed)
    except MatchError as exc:
        table.tell("remote", state="stopped", message=str(exc))
        if table.may_pause():
            table.pause()  # nothing more is recorded until the two tables agree again
        raise CommandRefused(str(exc)) from None
    if said.startswith("lit for"):  # new: said and asked (a repeat changes nothing)
        table.ask_far_seat()
    return said


def answer(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The person here answers the other table's ask (as their press, or the menu)."""
    seat = match_of(table)
    if seat is None or seat.asking.theirs is None:
        raise CommandRefused("the other table asks nothing now")
    seat.asking.answer(table, bool(command.agree))
    return table.problem or ("agreed" if command.agree else "declined")


def negotiation(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """One message of the other table's asks (its ask, a decision on this table's, ...)."""
    seat = match_of(table)
    if seat is None:
        raise CommandRefused("this table plays no match")
    return asking(seat.asking.received, table, command.ask)


def link(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """How the link to the other table stands: told to every page; while the other table is
    out of touch, its player's hourglass is shown stopped at its last report."""
    assert command.link is not None  # ``parse`` sets it for this command
    state, words = command.link
    seat = match_of(table)
    if seat is not None:
        seat.claimable = state == "claimable"
    table.tell("remote", state=state, message=words)
    if seat is not None:
        release = seat.far_clock.release
        held = {"apart": seat.far_clock.hold, "linked": release, "back": release}.get(state)
        shown = held(now) if held is not None else None
        if shown is not None:  # out of touch: its glass stops here; back: its last report
            table.tell("timer", player=seat.seat.value, state=shown.state,
                       seconds=shown.seconds, left=shown.left)
    return words


def clock(desk: CommandDesk, table: Any, command: Command, now: float) -> str:
    """The other table's player's hourglass, as that table runs it: shown here too
    (this table runs no hourglass for a player who is not at it)."""
    seat = match_of(table)
    if seat is None or command.player != seat.seat.value:
        raise CommandRefused("only the other table's player's hourglass is shown from afar")
    assert command.clock is not None  # ``parse`` sets it for this command
    state, seconds, left = command.clock
    news = seat.far_clock.reported(Report(state, seconds, left), now)
    if news and table.game_on():  # (before the game here starts: shown once it does)
        seat.far_clock.told = True
        table.tell("timer", player=command.player, state=state, seconds=seconds, left=left)
    return f"player {command.player}'s hourglass {state}"


def follow_up(desk: CommandDesk, now: float) -> None:
    """After any input: the end of a match's game, once the two tables agreed on it."""
    table = desk.table
    seat = match_of(table) if table.solo is not None else None  # (after every reading: cheap)
    if seat is None:
        return
    seat.asking.moved(table)
    if seat.asking.end_due and seat.asking.settled():  # (an ask of its own still open: not yet)
        seat.asking.end_due = False
        if table.game_on():
            try:
                desk.set_aside(table, now, "agreed")
            except CommandRefused as exc:  # a full disk: said, the game stays on
                table.tell("notice", message=f"the game was not ended: {exc}")
