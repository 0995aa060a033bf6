"""A stones game as a record: moves to plain data and back."""

from __future__ import annotations

from typing import Any

from engine.record import RecordError, square
from engine.stones.game import Move


def action_to_dict(move: Move) -> dict[str, Any]:
    """Plain data for one move (JSON-ready)."""
    return {"a": "move", "from": list(move.frm), "to": list(move.to)}


def action_from_dict(data: object) -> Move:
    """The move a dict describes; RecordError says what is wrong with it."""
    if not isinstance(data, dict) or data.get("a", "move") != "move":
        raise RecordError(f"{data!r} is not a stones move (an object with from and to)")
    return Move(square(data.get("from"), "from"), square(data.get("to"), "to"))
