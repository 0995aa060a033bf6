"""Carrying out the table's commands in the service's loop: the inputs its buttons make.

A command that is well formed is put on the service's one queue and carried
out by its loop, with the table's lock held, as the button presses it stands
for: pause and resume are the menu button's press, declining a bonus and
confirming a takeback the player's press, choosing a candidate the chooser's
presses and then a hold, starting a game a player's press in setup. So every
rule applies and the journal records what the buttons would record; there
is no second way to change a game. A command that makes no sense now is
refused in words and changes nothing; a malformed one never reaches the
queue.

Two commands have no button: ``end`` moves the unfinished journal aside
(kept, as ``--new-game`` keeps it) and sets the same game up again, and
``new`` sets another game or other options up (after the end of a game it
is the player's press that sets up the next one). Either way the service
swaps in a fresh table in setup; its start is journalled when the players
start it (``start``, or a player's button), as any game starts.

A fresh table (``end``, ``new``) is made before anything changes: a game this
table cannot play is refused with the journal and the table as they were;
only then is the journal moved aside and the new table swapped in. It keeps
the computer's seat and level (``solo``: ``"A"``, ``"B"`` or ``"none"`` for two
people; ``level`` 1 to 4, as ``--solo`` and ``--level`` on the command line).

What a command may say is ``firmware.service.commands``; the socket it comes by,
``firmware.service.command_socket``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import ObeliskError
from engine.record import options_to_dict
from firmware.contract import GameType
from firmware.games import GAMES
from firmware.service.commands import Command, CommandRefused, games, options_of
from firmware.service.surroundings import Surroundings
from firmware.service.table_state import TableState
from firmware.store.journal import Journal, JournalError
from hardware.buttons import ButtonEvent

# ---------------------------------------------------------------------- new tables


@dataclass(frozen=True)
class TableMaker:
    """Makes the service's table for a game (``obelisk run`` makes its first one so)."""

    profile: Any
    journal: Journal
    seed: Callable[[], int] = lambda: int.from_bytes(os.urandom(8), "big")
    solo: Any = None
    """``firmware.service.solo.Solo``: the computer's seat and level on every table made (None: two
    people), so ending a game alone sets up another one alone."""

    def make(self, game: GameType, options: object, extras: dict,
             around: Surroundings) -> tuple[Any, Callable]:
        """(the table, its view of a snapshot) in ``around``, the surroundings of the table
        it follows; CommandRefused when this table cannot play it."""
        try:
            engine = game.make(options, extras)
        except (ObeliskError, ValueError, OSError) as exc:
            raise CommandRefused(f"this table cannot play that game: {exc}") from None
        computer = self._computer(game.id)
        try:
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
        from firmware.service.remote import Remote

        match, seat, secret = command.remote
        return Remote(match, Player(seat), secret)
    if command.solo is None:
        return now
    if command.solo == "none":
        return None
    from engine.players import Player
    from firmware.service.solo import Solo

    return Solo(Player(command.solo), command.level or 1)


# ---------------------------------------------------------------------- carrying out


def _bonus(table: Any) -> list[str]:
    """The players who may decline a bonus now (towers' flat bonus)."""
    return [p.value for p in table.decliners()] if table.in_plain_play() else []


def _owners(table: Any) -> list[str]:
    """The players who may still confirm the takeback on offer."""
    if not table.takeback_waiting():
        return []
    peer = _match(table)
    if peer is not None:  # a match: the person here asks the other table, once
        return [] if peer.mine is not None else [peer.person.value]
    return sorted(p.value for p in table.offer.owners - table.confirmed)


def _hint_now(table: Any) -> str:
    """Why a hint cannot be lit now ("": it can)."""
    if table.solo is None or not table.solo.hints:
        return ("a hint is for playing alone: set up a new game with the computer in a seat "
                "(solo A or B)")
    if not table.in_plain_play():
        return "a hint is for a game in play" if table.state != TableState.play else \
            "confirm or undo the takeback first (lift the pieces off, or put them back)"
    from firmware.service.far_seat import movers

    if table.solo.person not in movers(table.position):
        return "a hint is for your own move: wait for the computer's"
    return ""


def _set_out(table: Any) -> bool:
    """Whether a start now begins a game: the table in setup, and its last settled reading
    the pieces set out for one (a player's press then begins it, at the table as here)."""
    return table.may_begin() and table.decided is not None and table.ready(table.decided)


def status(table: Any) -> dict:
    """What the table is doing, and which commands make sense now."""
    solo = solo_of(table)
    choose = None
    if table.choice_waiting():
        choose = {"player": table.chooser.value, "pick": table.pick,
                  "candidates": table.candidate_words()}
    return {"ok": True, "game": table.game.id, "options": options_to_dict(table.game.options),
            "state": table.state, "problem": table.problem, "can": {
                "pause": table.may_pause(), "resume": table.may_resume(),
                "decline": _bonus(table), "takeback": _owners(table), "choose": choose,
                "start": _set_out(table), "end": table.game_on(),
                "new": table.between_games(), "hint": not _hint_now(table),
                "answer": _match(table) is not None and _match(table).theirs is not None,
                "claim": _match(table) is not None and _match(table).claimable
                and table.game_on()},
            "solo": solo.to_dict() if solo is not None and solo.journal_key == "solo" else None,
            "remote": solo.to_dict() if solo is not None and solo.journal_key == "remote"
            else None, "games": games()}


def _match(table: Any) -> Any:
    """The other table's seat, when this table plays a match (else None)."""
    from firmware.service.remote import Peer

    return table.solo if isinstance(table.solo, Peer) else None


def _asking(do: Callable, *args: Any) -> str:
    """A match's ask or answer, its refusal as the command's."""
    from firmware.service.match_asks import AskRefused

    try:
        return do(*args)
    except AskRefused as exc:
        raise CommandRefused(str(exc)) from None


def _asked(table: Any) -> str:
    """What the menu's press did in a match: the ask made, or why none was."""
    peer = _match(table)
    if peer is not None and peer.mine is not None:
        return f"asked the other table to {peer.mine.words()}: it happens when its player agrees"
    return table.problem or "nothing changed"


class Controls:
    """Carries out commands on a service's table, in its loop (the table's lock held)."""

    def __init__(self, service: Any, maker: TableMaker) -> None:
        self.service = service
        self.maker = maker

    def carry_out(self, command: Command, now: float) -> dict:
        """The answer to one command; CommandRefused when it makes no sense now."""
        table = self.service.table
        if command.name == "status":  # with the mark of the PIN's showing, for the page
            return {**status(table), "pin_mark": getattr(self.service, "pin_mark", "")}
        if command.name == "diag":
            return {"ok": True, **self.service.diag(command.led)}
        do = getattr(self, f"_{command.name}")
        said = do(table, command, now)
        return {"ok": True, "state": self.service.table.state,
                "message": said or self.service.table.problem}

    def _press(self, button: str, now: float, kind: str = "press") -> None:
        self.service.table.on_button(ButtonEvent(button, kind), now)

    def _pause(self, table: Any, command: Command, now: float) -> str:
        if not table.may_pause():
            raise CommandRefused("there is no game in play to pause"
                                 + (": it is paused already" if table.may_resume() else ""))
        self._press("menu", now)
        return table.PAUSED if table.state == TableState.paused else _asked(table)

    def _resume(self, table: Any, command: Command, now: float) -> str:
        if not table.may_resume():
            raise CommandRefused("the table is not paused")
        self._press("menu", now)
        return "play goes on" if table.state != TableState.paused else _asked(table)

    def _decline(self, table: Any, command: Command, now: float) -> str:
        earners = _bonus(table)
        if not earners:
            raise CommandRefused("there is no bonus to decline now")
        player = command.player or (earners[0] if len(earners) == 1 else None)
        if player is None:
            raise CommandRefused(f"both players have a bonus: say which declines "
                                 f"({' or '.join(earners)})")
        if player not in earners:
            raise CommandRefused(f"player {player} has no bonus to decline")
        self._press(player, now)
        return f"player {player} declined the bonus"

    def _takeback(self, table: Any, command: Command, now: float) -> str:
        owners = _owners(table)
        if not owners:
            raise CommandRefused("there is no takeback to confirm: lift the last piece off "
                                 "the table first")
        seats = self.service.table.SEATS  # as the game names them (the maze's roles)
        if command.player is not None and command.player not in owners:
            raise CommandRefused(f"only {' and '.join(seats.get(p, p) for p in owners)}, whose "
                                 "piece came off, may confirm this takeback")
        for player in [command.player] if command.player else owners:
            self._press(player, now)
        return "confirmed" if self.service.table.offer is None else "confirmed for " \
            f"{seats.get(command.player, command.player)}; the other owner confirms too"

    def _choose(self, table: Any, command: Command, now: float) -> str:
        if not table.choice_waiting():
            raise CommandRefused("the table offers nothing to choose among now")
        count = len(table.candidates)
        if command.index is None or command.index >= count:
            raise CommandRefused(f"choose a candidate from 0 to {count - 1}")
        chooser = table.chooser.value
        for _ in range((command.index - table.pick) % count):
            self._press(chooser, now)
        self._press(chooser, now, "hold")
        return f"candidate {command.index + 1} chosen"

    def _start(self, table: Any, command: Command, now: float) -> str:
        if not table.may_begin():
            raise CommandRefused("the game is over: start a new one" if table.may_new_game()
                                 else "a game is on already")
        if table.decided is None:
            raise CommandRefused("the table is still reading the board: try again in a "
                                 "second")
        self._press("A", now)
        if self.service.table.may_begin():  # still in setup: the press began nothing
            raise CommandRefused(f"the table is not ready for a game: {table.problem}")
        return "the game begins"

    def _end(self, table: Any, command: Command, now: float) -> str:
        if not table.game_on():
            raise CommandRefused("no game is on to end")
        if _match(table) is not None:  # both tables end it, once the other one agrees
            return _asking(table.solo.propose, table, "end")
        return self._set_aside(table, now)

    def follow_up(self, now: float) -> None:
        """After any input: the end of a match's game, once the two tables agreed on it."""
        table = self.service.table
        if getattr(table.solo, "end_due", False):  # (after every reading: kept cheap)
            table.solo.end_due = False
            if table.game_on():
                try:
                    self._set_aside(table, now, "agreed")
                except CommandRefused as exc:  # a full disk: said, the game stays on
                    table.tell("notice", message=f"the game was not ended: {exc}")

    def _set_aside(self, table: Any, now: float, how: str = "end") -> str:
        """The game ended unfinished (``how``: ``firmware.store.history.SET_ASIDE``), kept,
        and the same game set up afresh."""
        from firmware.store.history import SET_ASIDE

        # the new table first: one this table cannot make leaves the game and journal be
        made = self._make(table.game.id, table.game.options, table.extras())
        try:
            kept = table.journal.set_aside(how)
        except JournalError as exc:
            raise CommandRefused(str(exc)) from None
        self.service.swap_table(*made, now)
        ended = "the game was ended" if how == "end" else f"the game was {SET_ASIDE[how]}"
        words = f"{ended}; its moves are kept in {kept.name} (obelisk games lists it)"
        self.service.table.tell("notice", message=words)
        return words

    def _claim(self, table: Any, command: Command, now: float) -> str:
        """The person here claims the game: the other table was out of touch long enough."""
        peer = _match(table)
        if peer is None or not peer.claimable or not table.game_on():
            raise CommandRefused("a game may be claimed only in a match whose other table has "
                                 "been out of touch as long as `obelisk remote --claim-after` "
                                 "allows")
        seat = peer.person.value
        words = self._set_aside(table, now, f"claim-{seat}")
        self.service.table.tell("remote", state="claimed", message=f"player {seat} claimed "
                                "the game: the other table is told when it is back")
        return words

    def _peer_claim(self, table: Any, command: Command, now: float) -> str:
        """The other table's player claimed the game while this one was out of touch."""
        peer = _match(table)
        if peer is None or command.player != peer.seat.value or not table.game_on():
            raise CommandRefused("no game of this match for the other table to claim")
        return self._set_aside(table, now, f"claim-{command.player}")

    def _new(self, table: Any, command: Command, now: float) -> str:
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
                self._press("A", now)  # as a player's press after the end: the next game
            else:  # set up again: every page draws the table afresh
                table.emit(table.public_state())
            return self.service.table.problem
        extras = table.extras() if spec.id == table.game.id else {}
        maker = replace(self.maker, solo=solo)
        made = self._make(spec.id, options, extras, maker)  # refused: nothing changed
        self.maker = maker  # later tables (``end``) keep this solo setting
        self.service.swap_table(*made, now)
        return self.service.table.problem

    def _peer(self, table: Any, command: Command, now: float) -> str:
        """The other table's action of a remote match: lit here for the person to make."""
        from firmware.service.remote import Peer, RemoteError

        assert command.peer is not None  # ``parse`` sets it for this command
        match, n, data, agreed = command.peer
        peer = table.solo
        if not isinstance(peer, Peer) or peer.remote.match != match:
            raise CommandRefused(f"this table plays no match {match!r}")
        if not table.started:
            raise CommandRefused("waiting: the game has not started at this table yet")
        try:
            action = table.record.action_from_dict(data)
        except (ObeliskError, ValueError, KeyError, TypeError) as exc:
            raise CommandRefused(f"the other table's action {n} cannot be read ({exc})") from None
        try:
            said = peer.offered(table, n - 1, action, agreed)
        except RemoteError as exc:
            table.tell("remote", state="stopped", message=str(exc))
            if table.may_pause():
                table.pause()  # nothing more is recorded until the two tables agree again
            raise CommandRefused(str(exc)) from None
        if said.startswith("lit for"):  # new: said and asked (a repeat changes nothing)
            table.ask_far_seat()
        return said

    def _answer(self, table: Any, command: Command, now: float) -> str:
        """The person here answers the other table's ask (as their press, or the menu)."""
        peer = _match(table)
        if peer is None or peer.theirs is None:
            raise CommandRefused("the other table asks nothing now")
        peer.answer(table, bool(command.agree))
        return table.problem or ("agreed" if command.agree else "declined")

    def _peer_ask(self, table: Any, command: Command, now: float) -> str:
        """The other table asks (a pause, play on, the end, a takeback): put to the person."""
        from firmware.service.match_asks import Ask

        peer = _match(table)
        if peer is None:
            raise CommandRefused("this table plays no match")
        return _asking(lambda: peer.offered_ask(table, Ask.from_dict(command.ask)))

    def _peer_answer(self, table: Any, command: Command, now: float) -> str:
        """The other table's player answered this table's ask."""
        from firmware.service.match_asks import Ask

        peer = _match(table)
        if peer is None:
            raise CommandRefused("this table plays no match")
        return _asking(lambda: peer.answered(table, Ask.from_dict(command.ask),
                                             bool(command.agree)))

    def _link(self, table: Any, command: Command, now: float) -> str:
        """How the link to the other table stands: told to every page."""
        assert command.link is not None  # ``parse`` sets it for this command
        state, words = command.link
        if _match(table) is not None:
            _match(table).claimable = state == "claimable"
        table.tell("remote", state=state, message=words)
        return words

    def _clock(self, table: Any, command: Command, now: float) -> str:
        """The other table's player's hourglass, as that table runs it: shown here too
        (this table runs no hourglass for a player who is not at it)."""
        from firmware.service.remote import Peer

        if not isinstance(table.solo, Peer) or command.player != table.solo.seat.value:
            raise CommandRefused("only the other table's player's hourglass is shown from afar")
        assert command.clock is not None  # ``parse`` sets it for this command
        state, seconds, left = command.clock
        table.tell("timer", player=command.player, state=state, seconds=seconds, left=left)
        return f"player {command.player}'s hourglass {state}"

    def _hint(self, table: Any, command: Command, now: float) -> str:
        why_not = _hint_now(table)
        if why_not:
            raise CommandRefused(why_not)
        computer = table.solo
        self._press(computer.person.value, now, "hold")  # the person's hold, as at the table
        if not computer.hinted:
            return "the computer sees no move to suggest"
        return "the hint is lit on the table and drawn on the board"  # its words: the hint event's

    def _make(self, game_id: str, options: object, extras: dict,
              maker: TableMaker | None = None) -> tuple[Any, Callable]:
        """A fresh table in setup (not yet the service's); CommandRefused when it cannot be."""
        return (maker or self.maker).make(GAMES[game_id], options, extras,
                                          self.service.table.around)
