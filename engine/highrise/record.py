"""A High Rise game as a record: placements to plain data and back.

The firmware seals these (they tell what is inside a stack), so the plain
data only ever exists inside the table service.
"""

from __future__ import annotations

from typing import Any

from engine.highrise.game import Place, Size
from engine.record import RecordError, square


def action_to_dict(place: Place) -> dict[str, Any]:
    """Plain data for one placement (JSON-ready)."""
    return {"square": list(place.square), "size": place.size.value}


def action_from_dict(data: object) -> Place:
    """The placement a dict describes; RecordError says what is wrong with it."""
    if not isinstance(data, dict):
        raise RecordError(f"{data!r} is not a High Rise placement (square and size)")
    try:
        size = Size(data.get("size"))
    except ValueError:
        raise RecordError(f"size {data.get('size')!r} is not 1, 2 or 3 pips") from None
    return Place(square(data.get("square")), size)
