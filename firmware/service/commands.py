"""The commands of the table's socket in words: what a command line may say, read and checked.

| command | fields | the input |
|---|---|---|
| ``status`` | | nothing: what the table is doing and which commands make sense |
| ``pause``, ``resume`` | | the menu button's press |
| ``decline`` | ``player`` (optional) | the bonus earner's press |
| ``takeback`` | ``player`` (optional) | each owner's press (or the one named) |
| ``choose`` | ``index`` | the chooser's presses to that candidate, then a hold |
| ``start`` | | player A's press in setup (the table must be set up) |
| ``end`` | | the journal moved aside; the same game set up again |
| ``new`` | ``game``, ``options``, ``solo``, ``level``; or ``remote``, ``seat``, ``secret`` \
| after a game, a press; other game, options, solo setting or match: a new table |
| ``hint`` | | playing alone: the person's hold of their own button (a hint lights) |
| ``answer`` | ``agree`` (true or false) | a match: the person's press (agree) or the menu \
button (decline) answering the other table's ask |
| ``diag`` | ``led`` (optional) | none: ``obelisk diag`` through the service (that LED lit a \
moment); never passed on by the page |
| ``peer`` | ``match``, ``n``, ``action`` | none: the other table's action number ``n`` of a \
remote match, from ``obelisk remote``; never passed on by the page |
| ``link`` | ``state``, ``message`` | none: how the link to the other table stands, from \
``obelisk remote``, for the page |
| ``negotiation`` | ``ask`` | none: one message of the other table's asks (an ask, a \
withdrawal, a decision, an acknowledgement: ``firmware.match.negotiation_dicts``), from \
``obelisk remote`` |
| ``claim`` | | a match: none; the person here claims the game, once the link says the \
other table was out of touch long enough (``obelisk remote --claim-after``) |
| ``peer_claim`` | ``player``, ``n``, ``agreed`` | none: the other table's player claimed \
the game while this table was out of touch, at its ``n`` actions after ``agreed`` \
takebacks, from ``obelisk remote`` |
| ``clock`` | ``player``, ``state``, ``seconds``, ``left`` | none: the other table's player's \
hourglass as that table reported it, from ``obelisk remote``, for the page |

A command read here is only well formed: what it asks is checked against the
table when the service's loop carries it out (``firmware.service.command_runner``,
its handlers grouped by concern); a malformed one never reaches the service's
queue. The socket that takes the lines is ``firmware.service.command_socket``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeGuard

from firmware.games import GAMES
from firmware.sent_json import read_sent

COMMANDS = ("status", "pause", "resume", "decline", "takeback", "choose", "start", "end", "new",
            "hint", "answer", "claim")
"""The page's commands (``obelisk web`` passes on these and no others)."""
LOCAL_COMMANDS = ("diag", "peer", "link", "clock", "negotiation", "peer_claim")
"""Commands the page never passes on: ``obelisk diag`` through the running service (an LED
lit for a test, the sensors as the service sees them), and ``obelisk remote``'s for a match
with another table (its actions, asks and answers, the link, its player's hourglass)."""
FIELDS = {"command", "player", "index", "game", "options", "solo", "level", "led", "deadline",
          "match", "n", "action", "state", "message", "seconds", "left", "remote", "seat",
          "secret", "agreed", "ask", "agree"}


LINK_STATES = ("waiting", "linked", "back", "apart", "stopped", "claimable")
"""How a remote match's link stands: waiting for the other table, playing it, just back after
being out of touch (said until the game moves on), out of touch,
stopped (the two tables disagree), or out of touch so long that the person here may claim
the game (``obelisk remote --claim-after``)."""


class CommandRefused(ValueError):
    """A command that is malformed or makes no sense now; the message says why and what to do."""


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
    peer: tuple[str, int, dict, int] | None = None
    """``peer``: the match, the action's number in the game (from 1), the action as its
    record keeps it, and the takebacks the two tables agreed before it."""
    link: tuple[str, str] | None = None
    """``link``: how the link stands (one of ``LINK_STATES``) and why, in words."""
    clock: tuple[str, float, float] | None = None
    """``clock``: the other table's hourglass: its state, length and seconds left."""
    remote: tuple[str, str, str] | None = None
    """``new``: a match with another table: its name, the seat played here, the secret word."""
    ask: dict | None = None
    """``negotiation``: the other table's message as the link carried it (the table checks
    it)."""
    agree: bool | None = None
    """``answer``: whether the ask is agreed to."""
    claimed_at: tuple[int, int] | None = None
    """``peer_claim``: the claiming table's actions, and the takebacks agreed before them."""


def parse(line: bytes | str) -> Command:
    """A command line read into a ``Command``; CommandRefused, in words, when malformed."""
    data = _command_object(line)
    player, index = _seat_and_index(data)
    game, options, solo, level = _game_setup(data)
    led, deadline = _led_and_deadline(data)
    return Command(data["command"], player, index, game, tuple(sorted(options.items())), solo,
                   level, led, deadline, _peer(data), _link(data), _clock(data),
                   _remote(data), *_ask(data), _claimed_at(data))


def _ask(data: dict) -> tuple[dict | None, bool | None]:
    """An ``answer``'s agreement, or the other table's ask and answer, checked for shape."""
    name, ask, agree = data["command"], data.get("ask"), data.get("agree")
    wants = {"answer": ("agree",), "negotiation": ("ask",)}
    needed = wants.get(name, ())
    if (set(data) & {"ask", "agree"}) != set(needed) or (ask is not None and not isinstance(
            ask, dict)) or (agree is not None and type(agree) is not bool):
        if not needed:
            raise CommandRefused("ask and agree belong to the answer and negotiation commands")
        raise CommandRefused(f"{name} is {{\"command\": \"{name}\", " + ", ".join(
            f'"{k}": ' + ("true or false" if k == "agree" else "{...}") for k in needed) + "}")
    return ask, agree


def _link(data: dict) -> tuple[str, str] | None:
    """A ``link`` command's state and words, checked."""
    if data["command"] != "link":
        if "message" in data or ("state" in data and data["command"] != "clock"):
            raise CommandRefused("state and message belong to the link command")
        return None
    state, message = data.get("state"), data.get("message")
    if state not in LINK_STATES or not isinstance(message, str) or len(message) > 400:
        raise CommandRefused(f'link is {{"command": "link", "state": one of '
                             f'{", ".join(LINK_STATES)}, "message": words}}')
    return state, message


CLOCK_STATES = ("started", "paused", "resumed", "expired", "stopped")


def _clock(data: dict) -> tuple[str, float, float] | None:
    """A ``clock`` command's hourglass, checked (its player is checked with the others)."""
    if data["command"] != "clock":
        if {"seconds", "left"} & set(data):
            raise CommandRefused("seconds and left belong to the clock command")
        return None
    state, seconds, left = data.get("state"), data.get("seconds"), data.get("left")
    if not (isinstance(state, str) and state in CLOCK_STATES and _seconds(seconds)
            and _seconds(left)) or data.get("player") is None:
        raise CommandRefused(f'clock is {{"command": "clock", "player": "A" or "B", "state": '
                             f'one of {", ".join(CLOCK_STATES)}, "seconds": 0 to 3600, '
                             '"left": 0 to 3600}')
    return state, float(seconds), float(left)


def _seconds(x: object) -> TypeGuard[int | float]:
    """A number of seconds an hourglass can hold (JSON's true and false are no numbers)."""
    return isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= 3600


def _remote(data: dict) -> tuple[str, str, str] | None:
    """A ``new`` command's match with another table, checked for its shape."""
    if not {"remote", "seat", "secret"} & set(data):
        return None
    match, seat, secret = data.get("remote"), data.get("seat"), data.get("secret", "")
    if data["command"] != "new" or not isinstance(match, str) or seat not in ("A", "B") \
            or not isinstance(secret, str) or len(secret) > 100 or data.get("solo") not in (
                None, "none"):
        raise CommandRefused('a match is {"command": "new", "remote": NAME, "seat": "A" or '
                             '"B", "secret": WORD (optional)}, without the computer')
    return match, seat, secret


def _claimed_at(data: dict) -> tuple[int, int] | None:
    """A ``peer_claim``'s place: how many actions, after how many takebacks (None: a link of
    an earlier version said none)."""
    if data["command"] != "peer_claim" or "n" not in data:
        return None
    n, agreed = data.get("n"), data.get("agreed", 0)
    if type(n) is not int or n < 0 or type(agreed) is not int or agreed < 0:
        raise CommandRefused('peer_claim is {"command": "peer_claim", "player": "A" or "B", '
                             '"n": ACTIONS, "agreed": TAKEBACKS AGREED}')
    return n, agreed


def _peer(data: dict) -> tuple[str, int, dict, int] | None:
    """A ``peer`` command's match, action number and action, checked for their shape (the
    table checks the action itself with the rules)."""
    if data["command"] != "peer":
        if {"match", "n", "action", "agreed"} & set(data) and not (
                data["command"] == "peer_claim" and {"match", "action"}.isdisjoint(data)):
            raise CommandRefused("match, n and action belong to the peer command")
        return None
    match, n, action = data.get("match"), data.get("n"), data.get("action")
    agreed = data.get("agreed", 0)
    if not isinstance(match, str) or type(n) is not int or n < 1 or not isinstance(
            action, dict) or type(agreed) is not int or agreed < 0:
        raise CommandRefused('peer is {"command": "peer", "match": NAME, "n": NUMBER from 1, '
                             '"action": {...}, "agreed": TAKEBACKS AGREED (0 if absent)}')
    return match, n, action, agreed


def _command_object(line: bytes | str) -> dict:
    """The line's JSON object, once it names a known command and has no stray fields."""
    try:
        data = read_sent(line)
    except ValueError:
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
