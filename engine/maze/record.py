"""A maze game as a record: actions to plain data and back."""

from __future__ import annotations

from typing import Any

from engine.maze.actions import Action, Move, Orientation, Pass, PlaceSegment, PlaceWall
from engine.record import RecordError, square


def action_to_dict(action: Action) -> dict[str, Any]:
    """Plain data for one action (JSON-ready)."""
    if isinstance(action, PlaceSegment):
        return {"a": "segment", "square": list(action.square)}
    if isinstance(action, PlaceWall):
        return {"a": "wall", "square": list(action.square), "o": action.orientation.value}
    if isinstance(action, Move):
        return {"a": "move", "to": list(action.to)}
    if isinstance(action, Pass):
        return {"a": "pass"}
    raise RecordError(f"not a maze action: {action!r}")


def action_from_dict(data: object) -> Action:
    """The action a dict describes; RecordError says what is wrong with it."""
    if not isinstance(data, dict):
        raise RecordError(f"{data!r} is not a maze action (segment, wall, move or pass)")
    kind = data.get("a")
    if kind == "segment":
        return PlaceSegment(square(data.get("square")))
    if kind == "wall":
        try:
            orientation = Orientation(data.get("o"))
        except ValueError:
            names = ", ".join(o.value for o in Orientation)
            raise RecordError(f"wall orientation {data.get('o')!r} is not one of {names}") \
                from None
        return PlaceWall(square(data.get("square")), orientation)
    if kind == "move":
        return Move(square(data.get("to"), "to"))
    if kind == "pass":
        return Pass()
    raise RecordError(f"{data!r} is not a maze action (segment, wall, move or pass)")
