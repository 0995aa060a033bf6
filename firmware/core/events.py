r"""One event vocabulary for every game: all the table ever tells anyone.

A table says what happens as events, plain JSON-ready dicts with an
``"event"`` key. The demos' screens, the terminal view, the page and club
publishing read only these; whatever a reader needs to draw the table is in
them (each event that changes the game carries the public observation
after it). Nothing hidden is in any event before the end: the observation
is public by construction, and High Rise reveals only in ``reveal``.

``SCHEMA`` below is the vocabulary: each kind, its fields and their types
(a field in ``OPTIONAL`` may be left out). ``make`` builds an event and
refuses one that does not fit, so a table cannot emit what readers would
not understand; the tests check every event the demos of every game emit.

| event | what happened |
|---|---|
| ``start`` | a game began: its options, who plays, who goes first, the board |
| ``resumed`` | the service started again on an unfinished game, replayed |
| ``turn`` | a player is to act, and what they are to do |
| ``setup`` | before a game: what to set out next, or that a button starts it (and the \
board as set out so far, where the game's start has pieces on it) |
| ``accepted`` | an action was recorded: who, in words, notation and data, the board after |
| ``refused`` | what stops play: why, what to do, where (``Mark``\ s), and its ``kind``: a \
rule broken, a piece off that may be taken back, a thing to put right, the table's own fault |
| ``repaired`` | the table is as the game says again |
| ``takeback`` | actions were undone (a takeback confirmed, a stone slid on) |
| ``timer`` | an hourglass started, was paused or resumed, or ran out |
| ``offer`` | a choice for a player: a bonus, a takeback (``computer``: the seat whose \
button the person presses for the computer), candidates to pick from |
| ``pause`` | the table was paused or resumed with the menu button |
| ``game_over`` | the outcome, and the board as it ended |
| ``reveal`` | one High Rise stack shown at the end: value, pips, who controls it |
| ``notice`` | something a player should know that changes nothing |
| ``options`` | the options picked with the menu button before a game |
| ``calibrated`` | the load cells were measured |
| ``table`` | the whole public state as it is now: each reader of the stream gets it first |
| ``asked`` | the far seat's move (the computer's, the other table's: ``by``), for the \
person to make (words, notation, where) |
| ``hint`` | solo play: the move the computer would make in the person's place |
| ``devices`` | the devices the table cannot use (GPIO, LEDs, scanner) and the fix |
| ``scanner`` | the scanner board's own measured periods: a scan, the load cells (microseconds) |
| ``lights`` | what the LEDs show (rings, board, rods, pads), strip by strip, for the page |
| ``remote`` | a match with another table: how the link stands, or why the match stopped |
| ``match`` | a match's ask (pause, play on, end, takeback): asked of the other table, \
offered by it, agreed or declined |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_NONE = type(None)
_NUMBER = (int, float)

SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "start": {"game": str, "options": dict, "players": dict, "first": (str, _NONE),
              "observation": dict},
    "resumed": {"game": str, "options": dict, "actions": int, "observation": dict},
    "turn": {"player": str, "doing": str},
    "setup": {"problem": str},
    "accepted": {"player": str, "action": str, "text": str, "observation": dict},
    "refused": {"message": str, "where": list, "kind": str},
    "repaired": {},
    "takeback": {"undone": int, "actions": int, "why": str, "observation": dict},
    "timer": {"player": str, "state": str, "seconds": _NUMBER, "left": _NUMBER},
    "offer": {"kind": str, "players": list, "candidates": list},
    "pause": {"state": str},
    "remote": {"state": str, "message": str},
    "match": {"state": str, "ask": dict, "message": str},
    "negotiation": {"messages": list},
    "game_over": {"game": str, "outcome": dict, "observation": dict},
    "reveal": {"square": str, "value": int, "pips": dict, "controller": (str, _NONE),
               "points": int},
    "notice": {"message": str},
    "options": {"game": str, "options": dict},
    "calibrated": {"sizes": list, "tolerance": int},
    "asked": {"player": str, "action": str, "text": str, "where": list, "by": str},
    "hint": {"player": str, "action": str, "text": str, "where": list},
    "devices": {"missing": list},
    "scanner": {"scan_us": int, "load_us": (int, _NONE)},
    "lights": {"strips": list},
    "table": {"game": str, "options": dict, "players": dict, "state": str,
              "turn": (str, _NONE), "doing": str, "problem": str, "actions": int,
              "observation": dict},
}
QUIET = frozenset({"lights", "negotiation"})
"""Events nobody logs, prints or publishes: the LEDs' every change (for a page to draw), and
what a match's asks send again (for its link to carry; its ``match`` events say it in
words)."""
OPTIONAL: dict[str, set[str]] = {
    "accepted": {"move"},
    "notice": {"player"},
    "refused": {"player"},
    "setup": {"observation"},
    "offer": {"pick", "computer", "afar"},
    "table": {"match", "moves"},
}
_EXTRA_TYPES = {"player": str, "pick": int, "computer": str, "afar": bool, "move": dict,
                "match": dict, "moves": list, "observation": dict}
WORDS = {
    "timer": {"started", "paused", "resumed", "expired", "stopped"},
    "offer": {"bonus", "takeback", "choose"},
    "pause": {"paused", "resumed"},
    "takeback": {"confirmed", "slide", "agreed", "claimed"},
    "refused": {"rule", "takeback", "task", "fault"},
    "asked": {"the computer", "the other table"},
    "remote": {"waiting", "linked", "back", "apart", "stopped", "claimable", "claimed"},
    "match": {"asked", "offered", "agreed", "declined", "lapsed"},
}
"""The values a few text fields may take."""


@dataclass(frozen=True)
class Mark:
    """One place the table points at (where a refusal, an asked move or a hint is), as a
    value: a page draws it from these fields and never reads them back out of ``words``
    (as python-chess draws an ``svg.Arrow``, not a move's text).

    Board games mark a ``square`` (its name, ``"c3"``, as observations name squares);
    towers mark ``cells`` (x, y, level from 0) on a ``tower``, or a ``zone`` pad by the
    colour wanted there (with the block's shape as ``cells`` when it is to be fetched).
    """

    words: str  # the place as a person reads it
    square: str | None = None
    tower: str | None = None  # "A" or "B": the cells are on that player's tower
    zone: str | None = None  # a zone pad, by the colour of the block wanted there
    cells: tuple[tuple[int, int, int], ...] = ()
    kind: str = ""  # what the place is to the mark: extra, missing, from, to, wall

    @classmethod
    def on_square(cls, name: str, kind: str = "", words: str = "") -> Mark:
        """A square of the board, by its name."""
        return cls(words or name, square=name, kind=kind)

    def to_dict(self) -> dict[str, Any]:
        """The mark as an event carries it: its words and the fields it sets."""
        out: dict[str, Any] = {"words": self.words}
        for name in ("square", "tower", "zone", "kind"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.cells:
            out["cells"] = [list(cell) for cell in self.cells]
        return out


MARK_FIELDS = {"words": str, "square": str, "tower": str, "zone": str, "kind": str,
               "cells": list}
"""What a mark in an event's ``where`` may hold (``Mark.to_dict``)."""


def _check_marks(kind: str, where: object) -> None:
    for mark in where if isinstance(where, list) else ():
        if not isinstance(mark, dict) or not isinstance(mark.get("words"), str) or any(
                not isinstance(v, MARK_FIELDS.get(k, ())) for k, v in mark.items()):
            raise EventError(f"{kind} event: {mark!r} in where is not a mark (words, and "
                             "square, tower, zone, kind, cells)")


class EventError(ValueError):
    """An event that is not in the vocabulary (a bug in the table that made it)."""


def make(name: str, /, **fields: object) -> dict[str, Any]:
    """An event called ``name`` with ``fields``, checked against the vocabulary."""
    event = {"event": name, **fields}
    check(event)
    return event


def check(event: object) -> None:
    """Refuse anything that is not an event of the vocabulary, naming what is wrong."""
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise EventError(f"not an event (an object with an 'event' name): {event!r}")
    kind = event["event"]
    fields = SCHEMA.get(kind)
    if fields is None:
        raise EventError(f"{kind!r} is not an event of the vocabulary ({', '.join(SCHEMA)})")
    given = set(event) - {"event"}
    optional = OPTIONAL.get(kind, set())
    missing = set(fields) - given
    unknown = given - set(fields) - optional
    if missing or unknown:
        raise EventError(f"{kind} event: missing {sorted(missing)}, unknown {sorted(unknown)}")
    for name, value in event.items():
        want = fields.get(name) or _EXTRA_TYPES.get(name)
        if want is not None and not isinstance(value, want):
            raise EventError(f"{kind} event: {name} = {value!r} is not {want}")
    if "where" in fields:
        _check_marks(kind, event["where"])
    allowed = WORDS.get(kind)
    if allowed is not None:
        word = event.get("state", event.get("kind", event.get("why", event.get("by"))))
        if word not in allowed:
            raise EventError(f"{kind} event: {word!r} is not one of {sorted(allowed)}")
