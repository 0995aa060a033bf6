"""A noughts move as plain data and back."""

from __future__ import annotations

from engine.record import square


def action_to_dict(action: tuple[int, int]) -> dict:
    return {"a": "mark", "at": list(action)}


def action_from_dict(data: object) -> tuple[int, int]:
    if not isinstance(data, dict):
        data = {}
    return square(data.get("at"), "at")
