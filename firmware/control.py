"""The table's commands from the page: the same inputs its buttons make, on a local socket.

The service listens on ``<state dir>/control.sock`` (mode 0660: the table's
owner and group, so ``obelisk web`` and nobody else). A client writes one
JSON object a line, ``{"command": "pause"}``, and reads one JSON line back:
``{"ok": true, ...}`` or ``{"ok": false, "error": "<why, in a player's words>"}``.

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

| command | fields | the input |
|---|---|---|
| ``status`` | | nothing: what the table is doing and which commands make sense |
| ``pause``, ``resume`` | | the menu button's press |
| ``decline`` | ``player`` (optional) | the bonus earner's press |
| ``takeback`` | ``player`` (optional) | each owner's press (or the one named) |
| ``choose`` | ``index`` | the chooser's presses to that candidate, then a hold |
| ``start`` | | player A's press in setup (the table must be set up) |
| ``end`` | | the journal moved aside; the same game set up again |
| ``new`` | ``game``, ``options``, ``solo``, ``level`` | after a game, a press; other game, \
options or solo setting: a new table |
| ``hint`` | | playing alone: the person's hold of their own button (a hint lights) |
| ``diag`` | ``led`` (optional) | none: ``obelisk diag`` through the service (that LED lit a \
moment); never passed on by the page |

A fresh table (``end``, ``new``) is made before anything changes: a game this
table cannot play is refused with the journal and the table as they were;
only then is the journal moved aside and the new table swapped in. It keeps
the computer's seat and level (``solo``: ``"A"``, ``"B"`` or ``"none"`` for two
people; ``level`` 1 to 4, as ``--solo`` and ``--level`` on the command line).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.errors import ObeliskError
from engine.record import options_to_dict
from firmware.games import GAMES, GameType
from firmware.journal import Journal, JournalError
from firmware.state_dir import LOCK
from hardware.buttons import ButtonEvent
from hardware.files import read_limited

log = logging.getLogger("obelisk.control")

SOCKET = "control.sock"
"""The command socket's name in the state directory."""
MAX_LINE = 4096
"""The longest command line taken (a new game's options fit many times over)."""
ANSWER_S = 5.0
"""How long a command waits for the table's loop to take it up; past that it is dropped."""
CARRY_S = 2.0
"""How much longer than its deadline an asker waits: a command the loop took up just in
time still finishes and is answered, so what the asker reports is what happened."""
COMMANDS = ("status", "pause", "resume", "decline", "takeback", "choose", "start", "end", "new",
            "hint")
"""The page's commands (``obelisk web`` passes on these and no others)."""
LOCAL_COMMANDS = ("diag",)
"""Commands only a person at the table's computer sends: ``obelisk diag`` through the
running service (an LED lit for a test, the sensors as the service sees them)."""
FIELDS = {"command", "player", "index", "game", "options", "solo", "level", "led", "deadline"}


class CommandRefused(ValueError):
    """A command that is malformed or makes no sense now; the message says why and what to do."""


class ControlUnavailable(OSError):
    """No table answers on the command socket (none runs there, or no permission)."""


@dataclass(frozen=True)
class Command:
    """One well-formed command (what it asks is checked against the table when it runs)."""

    name: str
    player: str | None = None
    index: int | None = None
    game: str | None = None
    options: tuple[tuple[str, object], ...] = ()
    solo: str | None = None  # "A", "B" (the computer's seat) or "none" (two people)
    level: int | None = None
    led: int | None = None  # diag: the LED to light, counted from the table's first
    deadline: float | None = None
    """The asker's: past this (``time.monotonic()``, one clock for every process on the
    machine) the loop drops the command, since the asker has stopped waiting for it."""


def parse(line: bytes | str) -> Command:
    """A command line read into a ``Command``; CommandRefused, in words, when malformed."""
    data = _command_object(line)
    player, index = _seat_and_index(data)
    game, options, solo, level = _game_setup(data)
    led, deadline = _led_and_deadline(data)
    return Command(data["command"], player, index, game, tuple(sorted(options.items())), solo,
                   level, led, deadline)


def _command_object(line: bytes | str) -> dict:
    """The line's JSON object, once it names a known command and has no stray fields."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise CommandRefused("a command is one JSON object a line, like "
                             '{"command": "pause"}') from None
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        raise CommandRefused('a command is a JSON object with a "command" name, like '
                             '{"command": "pause"}')
    name = data["command"]
    if name not in COMMANDS + LOCAL_COMMANDS:
        raise CommandRefused(f"{name[:40]!r} is not a command of the table (it takes "
                             f"{', '.join(COMMANDS + LOCAL_COMMANDS)})")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise CommandRefused(f"{str(unknown[0])[:40]!r} is not part of a command (it may have "
                             f"{', '.join(sorted(FIELDS))})")
    return data


def _seat_and_index(data: dict) -> tuple[str | None, int | None]:
    """The player and candidate index a command names, checked (either may be absent)."""
    player = data.get("player")
    if player is not None and player not in ("A", "B"):
        raise CommandRefused('the player is "A" or "B"')
    index = data.get("index")
    if index is not None and (type(index) is not int or not 0 <= index < 100):
        raise CommandRefused("the index is a whole number from 0, counting the candidates "
                             "from the first")
    return player, index


def _game_setup(data: dict) -> tuple[str | None, dict, str | None, int | None]:
    """What a ``new`` command sets up: game, options, the computer's seat and level."""
    game = data.get("game")
    if game is not None and (not isinstance(game, str) or game not in GAMES):
        raise CommandRefused(f"the game is one of {', '.join(GAMES)}")
    options = data.get("options", {})
    if not isinstance(options, dict) or len(options) > 20 or not all(
            isinstance(k, str) and len(k) <= 40 and type(v) in (str, int, bool)
            and len(str(v)) <= 40 for k, v in options.items()):
        raise CommandRefused('the options are an object of names and short values, like '
                             '{"hourglass": "90"}')
    solo = data.get("solo")
    if solo is not None and solo not in ("A", "B", "none"):
        raise CommandRefused('solo is the computer\'s seat, "A" or "B", or "none" for two '
                             "people")
    return game, options, solo, _level(data.get("level"), solo)


def _level(level: object, solo: str | None) -> int | None:
    """The computer's level, a digit as text taken too; only with the computer in a seat."""
    if isinstance(level, str) and level in ("1", "2", "3", "4"):
        level = int(level)
    if level is not None and (type(level) is not int or level not in (1, 2, 3, 4)):
        raise CommandRefused("the computer's level is 1 (easiest) to 4 (hardest)")
    if level is not None and solo not in ("A", "B"):
        raise CommandRefused("the level is the computer's: choose its seat (solo A or B) to "
                             "play alone against it")
    return level


def _led_and_deadline(data: dict) -> tuple[int | None, float | None]:
    """The LED a ``diag`` lights and the asker's deadline, checked (either may be absent)."""
    led = data.get("led")
    if led is not None and (type(led) is not int or not 0 <= led < 1_000_000):
        raise CommandRefused("the LED is a whole number from 0, counting the table's LEDs "
                             "from the first")
    deadline = data.get("deadline")
    if deadline is not None and (type(deadline) not in (int, float)
                                 or not math.isfinite(deadline)):
        raise CommandRefused("the deadline is a number of seconds on the machine's monotonic "
                             "clock")
    return led, deadline


TOO_LATE = "the table did not answer in time, so nothing was done: try again"


def refusal(words: str) -> dict:
    """The answer to a command that was refused."""
    return {"ok": False, "error": words}


# ---------------------------------------------------------------------- new tables


@dataclass(frozen=True)
class TableMaker:
    """Makes the service's table for a game (``obelisk run`` makes its first one so)."""

    profile: Any
    journal: Journal
    seed: Callable[[], int] = lambda: int.from_bytes(os.urandom(8), "big")
    solo: Any = None
    """``firmware.solo.Solo``: the computer's seat and level on every table made (None: two
    people), so ending a game alone sets up another one alone."""

    def make(self, game: GameType, options: object, extras: dict,
             emit: Callable[[dict], None]) -> tuple[Any, Callable]:
        """(the table, its view of a snapshot); CommandRefused when this table cannot play it."""
        try:
            engine = game.make(options, extras)
        except (ObeliskError, ValueError, OSError) as exc:
            raise CommandRefused(f"this table cannot play that game: {exc}") from None
        computer = self._computer(game.id)
        try:
            table = game.table_class().for_service(engine, self.journal, self.profile,
                                                  seed=self.seed(), emit=emit, solo=computer)
        except (ObeliskError, ValueError, OSError) as exc:
            raise CommandRefused(f"this table cannot play that game: {exc}") from None
        return table, game.view_of()

    def _computer(self, game_id: str) -> Any:
        """The computer's seat at the new table (None: two people play); CommandRefused
        when the computer does not play the game."""
        if self.solo is None:
            return None
        from firmware.solo import Computer  # only a solo table loads the search

        try:
            return Computer(self.solo, game_id)
        except (ImportError, ObeliskError) as exc:
            raise CommandRefused(f"the computer does not play {game_id} ({exc}): choose "
                                 "two people") from None


def solo_of(table: Any) -> Any:
    """The table's ``Solo`` setting (None: two people play)."""
    computer = getattr(table, "solo", None)
    return None if computer is None else computer.solo


def solo_wanted(command: Command, now: Any) -> Any:
    """The solo setting a ``new`` command asks for (absent: ``now``, the table's own)."""
    if command.solo is None:
        return now
    if command.solo == "none":
        return None
    from engine.players import Player
    from firmware.solo import Solo

    return Solo(Player(command.solo), command.level or 1)


def options_of(game: GameType, given: tuple[tuple[str, object], ...]) -> object:
    """A game's options from the page's form: each named as its flag (``hourglass``,
    ``size``, ``sudden_death``), read as the command line reads it."""
    flags = {f.dest: f for f in game.flags}
    chosen: dict[str, object] = {}
    for key, value in given:
        flag = flags.get(key)
        if flag is None:
            raise CommandRefused(f"{game.id} has no option {key!r} (its options: "
                                 f"{', '.join(flags) or 'none'})")
        if flag.switch:
            if type(value) is not bool:
                raise CommandRefused(f"{key} is on or off (true or false)")
            parsed: object = value
        else:
            text = str(value)
            try:
                parsed = flag.type(text) if flag.type is not None else text
            except (argparse.ArgumentTypeError, ValueError) as exc:
                words = str(exc) if isinstance(exc, argparse.ArgumentTypeError) else \
                    f"{text!r} is not a value of {key}"
                raise CommandRefused(words) from None
            if flag.choices is not None and parsed not in flag.choices:
                raise CommandRefused(f"{key} is one of {', '.join(map(str, flag.choices))}, "
                                     f"not {text}")
        chosen.update(flag.values(parsed))
    try:
        return game.options_with(chosen)
    except argparse.ArgumentTypeError as exc:
        raise CommandRefused(str(exc)) from None


def games() -> dict:
    """Every game and its options as the page's form offers them."""
    return {game.id: {"help": game.help, "options": [
        {"name": f.dest, "flag": f.name, "help": f.help, "switch": f.switch,
         "choices": [str(c) for c in f.choices] if f.choices else None,
         "metavar": f.metavar} for f in game.flags]} for game in GAMES.values()}


# ---------------------------------------------------------------------- carrying out


def _bonus(table: Any) -> list[str]:
    """The players who may decline a bonus now (towers' flat bonus)."""
    pos = table.position
    if not table.in_plain_play() or getattr(getattr(pos, "phase", None), "name", "") != "BONUS":
        return []
    return [p.value for p in getattr(pos, "bonus", ())]


def _owners(table: Any) -> list[str]:
    """The players who may still confirm the takeback on offer."""
    if not table.takeback_waiting():
        return []
    return sorted(p.value for p in table.offer.owners - table.confirmed)


def _hint_now(table: Any) -> str:
    """Why a hint cannot be lit now ("": it can)."""
    computer = getattr(table, "solo", None)
    if computer is None:
        return ("a hint is for playing alone: set up a new game with the computer in a seat "
                "(solo A or B)")
    if not table.in_plain_play():
        return "a hint is for a game in play" if table.state != "play" else \
            "confirm or undo the takeback first (lift the pieces off, or put them back)"
    from firmware.solo import movers

    if computer.person not in movers(table.position):
        return "a hint is for your own move: wait for the computer's"
    return ""


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
                "start": table.may_begin(), "end": table.game_on(),
                "new": table.between_games(), "hint": not _hint_now(table)},
            "solo": solo.to_dict() if solo is not None else None, "games": games()}


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
        return "paused: the hourglass is stopped"

    def _resume(self, table: Any, command: Command, now: float) -> str:
        if not table.may_resume():
            raise CommandRefused("the table is not paused")
        self._press("menu", now)
        return "play goes on"

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
        if command.player is not None and command.player not in owners:
            raise CommandRefused(f"only {' and '.join('player ' + p for p in owners)}, whose "
                                 "piece came off, may confirm this takeback")
        for player in [command.player] if command.player else owners:
            self._press(player, now)
        return "confirmed" if self.service.table.offer is None else "confirmed for " \
            f"player {command.player}; the other owner confirms too"

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
        # the new table first: one this table cannot make leaves the game and journal be
        made = self._make(table.game.id, table.game.options, table.extras())
        try:
            kept = table.journal.archive()
        except JournalError as exc:
            raise CommandRefused(str(exc)) from None
        self.service.swap_table(*made, now)
        words = f"the game was ended; its moves are kept in {kept.name}"
        self.service.table.tell("notice", message=words)
        return words

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

    def _hint(self, table: Any, command: Command, now: float) -> str:
        why_not = _hint_now(table)
        if why_not:
            raise CommandRefused(why_not)
        computer = table.solo
        self._press(computer.person.value, now, "hold")  # the person's hold, as at the table
        if not computer.hinted:
            return "the computer sees no move to suggest"
        return f"hint: {computer.rules.words(table.position, computer.hinted)}"

    def _make(self, game_id: str, options: object, extras: dict,
              maker: TableMaker | None = None) -> tuple[Any, Callable]:
        """A fresh table in setup (not yet the service's); CommandRefused when it cannot be."""
        return (maker or self.maker).make(GAMES[game_id], options, extras,
                                          self.service.table.emit)


class Request:
    """A command on its way through the service's queue, and its answer.

    Giving up on it (``withdraw``, when the table did not answer in time) and
    the loop taking it up (``carry_out``) exclude each other under one lock: a
    command refused as too late is never carried out later, and one the loop
    has begun is waited for, never refused while it runs.
    """

    def __init__(self, command: Command, received: float | None = None) -> None:
        self.command = command
        received = time.monotonic() if received is None else received
        self.deadline = min(received + ANSWER_S, command.deadline if command.deadline
                            is not None else math.inf)
        self.answer: dict | None = None
        self.done = threading.Event()
        self._lock = threading.Lock()
        self._state = "queued"  # then "taken" by the loop, "withdrawn" by the asker, or
        # "expired": the loop came to it past its deadline (the service was stopped a while)

    def withdraw(self) -> bool:
        """Give up on a command the loop has not begun; False when it already has."""
        with self._lock:
            if self._state == "queued":
                self._state = "withdrawn"
            return self._state == "withdrawn"

    def _take(self) -> bool:
        with self._lock:
            if self._state == "queued":
                late = time.monotonic() - self.deadline
                self._state = "taken" if late <= 0 else "expired"
                if late > 0:
                    log.warning("dropped the %s command: the table came to it %.1f s after "
                                "its asker stopped waiting", self.command.name, late)
            return self._state == "taken"

    def carry_out(self, controls: Controls, now: float) -> None:
        """In the service's loop: do it, and answer (a journal refusal is also the loop's);
        nothing at all when the asker gave up on it or its deadline has passed."""
        if not self._take():
            if self._state == "expired":
                self.answer = refusal(TOO_LATE)
                self.done.set()
            return
        try:
            self.answer = controls.carry_out(self.command, now)
        except CommandRefused as exc:
            self.answer = refusal(str(exc))
        except JournalError as exc:
            self.answer = refusal(str(exc))
            raise
        finally:
            if self.answer is None:
                self.answer = refusal("the table could not do that")
            self.done.set()


# ---------------------------------------------------------------------- the socket


class ControlServer:
    """Listens on ``<state dir>/control.sock`` and hands each command to the service's queue."""

    def __init__(self, directory: str | Path, service: Any, maker: TableMaker) -> None:
        self.path = Path(directory) / SOCKET
        self.service = service
        self.controls = Controls(service, maker)
        service.controls = self.controls
        self._server: socket.socket | None = None

    def open(self) -> ControlServer:
        """Start listening (a socket file already there is a stale one: the caller holds the
        state directory's lock)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            server.bind(str(self.path))
            os.chmod(self.path, 0o660)  # the table's owner and group (the page) only
            server.listen(8)
        except OSError as exc:
            server.close()
            raise ControlUnavailable(f"cannot open the command socket {self.path}: "
                                     f"{exc.strerror}; the table plays on without "
                                     "controls from the page") from None
        self._server = server
        threading.Thread(target=self._accept, name="control-accept", daemon=True).start()
        return self

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            with contextlib.suppress(OSError):
                server.close()
            with contextlib.suppress(OSError):
                self.path.unlink()

    def handle(self, line: bytes) -> dict:
        """One command line's answer (waits for the loop to carry it out)."""
        try:
            command = parse(line)
        except CommandRefused as exc:
            return refusal(str(exc))
        request = Request(command)
        self.service.events.put(("control", request))
        if not request.done.wait(max(0.0, request.deadline - time.monotonic())) and \
                request.withdraw():
            log.warning("dropped the %s command: the table did not come to it before its "
                        "deadline", command.name)
            return refusal(TOO_LATE)
        request.done.wait()  # begun in the loop: its answer comes in a moment
        assert request.answer is not None
        return request.answer

    def _accept(self) -> None:
        while (server := self._server) is not None:
            try:
                conn, _ = server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(conn,), name="control-client",
                             daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(60)
        try:
            with conn, conn.makefile("rb") as lines:
                while self._server is not None:
                    line = lines.readline(MAX_LINE + 1)
                    if not line:
                        return
                    if len(line) > MAX_LINE:
                        conn.sendall(_line(refusal(f"a command is at most {MAX_LINE} bytes")))
                        return
                    conn.sendall(_line(self.handle(line)))
        except OSError:
            pass  # the client went away


def _line(answer: dict) -> bytes:
    return (json.dumps(answer) + "\n").encode()


def serve_controls(service: Any, directory: str | Path, maker: TableMaker) -> ControlServer | None:
    """The service's command socket, or None (with a warning) when it cannot open."""
    try:
        return ControlServer(directory, service, maker).open()
    except ControlUnavailable as exc:
        log.warning("%s", exc)
        return None


def _service_starting(directory: Path) -> bool:
    """Whether a table service holds the state directory, though its command socket is not
    open yet: it opens it just after it tells systemd it is ready (``firmware.run``)."""
    try:
        note = read_limited(directory / LOCK, 4096).decode("utf-8", "replace")
    except OSError:
        return False
    words = note.split(maxsplit=2)  # "process 1234 (obelisk run --state-dir ...)"
    if len(words) < 3 or words[0] != "process" or not words[1].isdigit() or \
            not words[2].startswith("(obelisk run"):
        return False
    try:
        os.kill(int(words[1]), 0)
    except PermissionError:
        return True  # alive, as another user
    except (OSError, OverflowError):
        return False  # the note of a service that stopped
    return True


def send(directory: str | Path, command: dict, timeout: float = ANSWER_S + CARRY_S) -> dict:
    """Send one command to the table running on ``directory``; its answer.

    The command carries its deadline, a part of this wait before its end: a table that
    comes to it later (stopped a while, or swamped) drops it, so a command reported as
    not answered is never carried out afterwards. ControlUnavailable (in words) when no
    table answers there.
    """
    path = Path(directory) / SOCKET
    share = ANSWER_S / (ANSWER_S + CARRY_S)  # of the wait, for the table to take it up
    command = {**command, "deadline": time.monotonic() + timeout * share}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        try:
            conn.connect(str(path))
            conn.sendall(_line(command))
            with conn.makefile("rb") as lines:
                reply = lines.readline(1 << 20)
        except FileNotFoundError:
            if _service_starting(Path(directory)):
                raise ControlUnavailable("the table is starting and opens its commands in a "
                                         "moment: try again") from None
            raise ControlUnavailable("no table is running to take commands (a demo takes "
                                     "none): start it (obelisk run, or obelisk play)") from None
        except PermissionError:
            raise ControlUnavailable(f"no permission to use {path}: run as the table's user "
                                     "or a member of its group") from None
        except TimeoutError:
            raise ControlUnavailable(f"the table did not answer within {timeout:g} s, so "
                                     "nothing was done (it drops a command it comes to too "
                                     "late): is it running?") from None
        except (ConnectionRefusedError, OSError) as exc:
            raise ControlUnavailable(f"the table did not answer ({exc.strerror or exc}): is "
                                     "it running?") from None
    try:
        answer = json.loads(reply)
    except ValueError:
        raise ControlUnavailable("the table stopped before it answered: try again") from None
    if not isinstance(answer, dict):
        raise ControlUnavailable("the table's answer made no sense: try again")
    return answer
