"""The terminal view of a table, drawn from its events alone.

A demo prints it, and so does ``obelisk watch``: each event as a line in words,
then the table as the last event that carried an observation left it, then
what is wrong, if anything; the board and what is wrong each only when they
changed since they were last shown (a whole game once read as 2,300 lines,
the same board again after every hourglass tick and turn line). Nothing
here looks at a table object, so a reader at the other end of a socket
draws the same screen. A game gives
only ``draw(observation)``, its board in text (``firmware/<game>/screen.py``),
and its seats' names (``seat_names``: the maze's roles, the Architect and the
Maze Master, where another game says player A and player B).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.core import counted
from firmware.core.events import QUIET
from firmware.games import GAMES
from hardware.sensors import period_words

_CLEARS = {"accepted", "repaired", "takeback", "start", "resumed", "game_over"}
_REFUSED_HEAD = {"rule": "not allowed: {}", "takeback": "{}", "task": "to do: {}",
                 "fault": "the table cannot record: {}"}
"""A ``refused`` event's line by its kind (the takeback's message says "a piece came off")."""


def seat_names(game: object) -> dict[str, str]:
    """The seats as ``game`` (its id) declares their names ({"A": "the Architect", ...});
    nothing for a game that names none, or is not known here (each seat is "player A")."""
    spec = GAMES.get(game) if isinstance(game, str) else None
    try:
        return spec.seat_names() if spec is not None else {}
    except (ImportError, AttributeError):
        return {}


def headline(event: dict, names: dict[str, str] | None = None) -> str:
    """One event in a line a person reads; each seat by its name in ``names`` (the game's
    ``seat_names``), else as player A or B. "" for an event that has nothing to say of its
    own (an hourglass run out: the lost turn after it says so), which nobody logs."""
    kind = event["event"]
    named = names or {}
    who = (named.get(event["player"]) or f"player {event['player']}") if "player" in event \
        else ""
    for line_of in (_course_line, _asking_line, _table_line):
        line = line_of(kind, event, who, named)
        if line is not None:
            return line
    words = ", ".join(f"{k} {v}" for k, v in event.items() if k != "event")
    return f"{kind}: {words}"


def seconds_left(left: float) -> str:
    """An hourglass's time left as a countdown shows it, in whole seconds rounded up (0.4 s
    left is "1 s" until it is 0), as the page's cards show it (``secondsLeft``, svg.js)."""
    return f"{math.ceil(left)} s"


def _seat(names: dict[str, str], seat: str) -> str:
    return names.get(seat) or f"player {seat}"


def _who_begins(event: dict, names: dict[str, str]) -> str:
    """": player B begins", saying what decided it where chance did (the game's ``first_by``)."""
    if not event["first"]:
        return ""
    spec = GAMES.get(event["game"])
    by = f"{spec.first_by} says " if spec is not None and spec.first_by else ""
    return f": {by}{_seat(names, event['first'])} begins"


def _course_line(kind: str, event: dict, who: str, names: dict[str, str]) -> str | None:
    """The game's course: its start, its moves and takebacks, its end (None: another kind)."""
    match kind:
        case "start":
            return f"a new game of {event['game']}{_who_begins(event, names)}"
        case "resumed":
            return (f"the unfinished {event['game']} game goes on after "
                    f"{counted(event['actions'], 'action')}")
        case "turn":
            return f"{who}'s turn: {event['doing']}"
        case "accepted":  # what the player did: "player B chose the green block G01 ..."
            return f"{who} {event['text']}"
        case "takeback":
            why = {"confirmed": "taken back", "agreed": "taken back, as both tables agreed",
                   "claimed": "dropped: the other table claimed the "
                   "game before them"}.get(event["why"], "moved on")
            return f"{counted(event['undone'], 'action')} {why}"
        case "game_over":
            return f"the game is over: {event['outcome']['words']}"
        case "reveal":
            return (f"{event['square']} holds {event['value']}: "
                    f"A {counted(event['pips']['A'], 'pip')}, B {event['pips']['B']}, "
                    f"{counted(event['points'], 'point')} to {event['controller'] or 'nobody'}")
    return None


def _asking_line(kind: str, event: dict, who: str, names: dict[str, str]) -> str | None:
    """What the table asks of the players or tells them while they play (None: another
    kind)."""
    match kind:
        case "refused":
            return _REFUSED_HEAD[event["kind"]].format(event["message"])
        case "repaired":
            return "the table is right again"
        case "setup":
            return f"to begin: {event['problem']}"
        case "timer" if event["state"] == "expired":
            return ""  # the lost turn that follows says it (towers: "ran out of time")
        case "timer":
            return f"{who}'s hourglass {event['state']} ({seconds_left(event['left'])} left)"
        case "offer":
            return _offer_line(event, names)
        case "pause":
            return f"the table is {event['state']}"
        case "asked":
            return ""  # the turn that comes with it says it: "make the computer's move: ..."
        case "hint":
            return f"a hint for {who}: {event['text']}"
    return None


def _offer_line(event: dict, names: dict[str, str]) -> str:
    """A choice among candidate moves, or a bonus or takeback the players may take."""
    players = " and ".join(_seat(names, p) for p in event["players"])
    pick = event.get("pick", 0)
    if event["kind"] == "choose" and pick:  # a press stepped on: the question stands, said
        return (f"{players}: ({pick + 1}) {event['candidates'][pick]} is lit; hold your "
                "button if it was this one")
    if event["kind"] == "choose" and len(event["candidates"]) == 1:
        return f"{players}: hold your button if it was {event['candidates'][0]}"
    if event["kind"] == "choose":
        options = "; or ".join(f"({n}) {words}"
                               for n, words in enumerate(event["candidates"], 1))
        return f"{players}, more than one move fits; which was it? {options}"
    if event.get("computer"):  # the computer presses no button: the person, for it
        return (f"{players} may {' or '.join(event['candidates'])} (takeback: press "
                f"{_seat(names, event['computer'])}'s button for the computer)")
    if event.get("afar"):  # a match: the other table decides
        return (f"{players} may {' or '.join(event['candidates'])}: a press of their button "
                "asks the other table")
    return (f"{players} may {' or '.join(event['candidates'])}: each presses their button to "
            "agree")  # (a takeback, the only other offer)


def _table_line(kind: str, event: dict, who: str, names: dict[str, str]) -> str | None:
    """The table itself: what it holds, its notices, its devices (None: another kind)."""
    match kind:
        case "table":
            turn = f", {_seat(names, event['turn'])}: {event['doing']}" if event["turn"] else ""
            return (f"the {event['game']} table ({event['state']}, "
                    f"{counted(event['actions'], 'action')} played){turn}")
        case "notice":
            return f"{who + ': ' if who else ''}{event['message']}"
        case "remote" | "match":  # how the link stands; an ask between the tables
            return f"the match: {event['message']}"
        case "negotiation":  # what a match's link carries: its match events say it
            return ""
        case "devices":
            if not event["missing"]:
                return "every device of the table answers"
            return "the table cannot use " + "; ".join(
                f"its {m['device']}: {m['words']}" for m in event["missing"])
        case "scanner":
            return f"the scanner board measured {period_words(event['scan_us'], event['load_us'])}"
    return None


class Screen:
    """What a person watching the table sees, updated event by event."""

    def __init__(self, draw: Callable[[dict], str], names: dict[str, str] | None = None) -> None:
        self.draw = draw
        self.names = names or {}  # the seats' names, from the game each event names
        self.observation: dict | None = None
        self.problem = ""
        self.shown = ("", "")  # the board and the problem last shown: each again only changed

    def show(self, event: dict) -> str | None:
        """The screen after ``event`` (None: nothing to show again, the LEDs' changes and
        an event with no words)."""
        kind = event["event"]
        if kind in QUIET:
            return None
        self._keep(event)
        said = headline(event, self.names)
        if not said:
            return None
        text = f"--- {said}"
        board = "" if self.observation is None else self.draw(self.observation)
        if board and board != self.shown[0]:
            text += "\n" + board
        if self.problem and self.problem != self.shown[1]:
            text += f"\n!! {self.problem}"
        self.shown = (board or self.shown[0], self.problem)
        if kind == "game_over":
            text += "\n\n" + ending(event["outcome"])
        return text

    def _keep(self, event: dict) -> None:
        """What ``event`` changes of the screen: the seats' names, the board, what is wrong."""
        kind = event["event"]
        if isinstance(event.get("game"), str):
            self.names = seat_names(event["game"])
        if "observation" in event:
            self.observation = event["observation"]
        if kind == "refused":
            self.problem = event["message"]
        elif kind == "table":
            self.problem = event["problem"]
        elif kind in _CLEARS:
            self.problem = ""


def ending(outcome: dict) -> str:
    """The result and each player's breakdown, as the end of a game reads."""
    lines = [f"GAME OVER: {outcome['words']}"]
    for player, rows in outcome["breakdown"].items():
        lines += [f"  {player}: {row}" for row in rows]
    return "\n".join(lines)
