"""A towers game's actions as plain data and back (``engine.record`` does the rest)."""

from __future__ import annotations

from typing import Any

from engine.players import Player
from engine.record import RecordError
from engine.towers.actions import Action, Choose, Decline, Place, PutBack, Take, Timeout


def action_to_dict(action: Action) -> dict[str, Any]:
    """Plain data for one action (JSON-ready)."""
    if isinstance(action, Choose | PutBack | Take):
        return {"a": type(action).__name__.lower(), "block": action.block}
    if isinstance(action, Timeout):
        return {"a": "timeout"}
    if isinstance(action, Decline):
        return {"a": "decline", "player": action.player.value}
    if isinstance(action, Place):
        return {"a": "place", "tower": action.tower.value, "block": action.block,
                "cells": sorted([list(c) for c in action.cells])}
    raise RecordError(f"not a towers action: {action!r}")


_SIMPLE: dict[str, type[Choose | PutBack | Take]] = {"choose": Choose, "putback": PutBack,
                                                     "take": Take}


def action_from_dict(data: object) -> Action:
    """The action a dict describes; RecordError says what is wrong with it."""
    if not isinstance(data, dict) or "a" not in data:
        raise RecordError(f"a record entry must be an object with an 'a' field, not {data!r}")
    kind = data["a"]
    try:
        if kind in _SIMPLE:
            return _SIMPLE[kind](str(data["block"]))
        if kind == "timeout":
            return Timeout()
        if kind == "decline":
            return Decline(Player(data["player"]))
        if kind == "place":
            cells = frozenset(_cell(c) for c in data["cells"])
            return Place(Player(data["tower"]), str(data["block"]), cells)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"record entry {data!r} is incomplete or malformed ({exc})") from None
    raise RecordError(f"unknown action {kind!r} in the record")


def _cell(raw: object) -> tuple[int, int, int]:
    if not isinstance(raw, list) or len(raw) != 3 or not all(type(v) is int for v in raw):
        raise ValueError(f"cell {raw!r} is not three whole numbers")
    return (raw[0], raw[1], raw[2])
