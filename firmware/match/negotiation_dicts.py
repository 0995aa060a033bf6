"""The asks' messages and records as plain dicts: what the link carries between two tables and
what a table's journal keeps (``{"t": "negotiation", ...}`` entries).

Apart from the protocol (``negotiation``), which stays values only: this is where what came
over the network, or from a file, is checked before it becomes a value. Anything that is not
one is refused with ``AskUnfit`` in words, never half read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from firmware.match.negotiation_values import (
    Acknowledged,
    Adopted,
    Asked,
    AskId,
    AskKind,
    AskOutcome,
    AskUnfit,
    Decided,
    Decision,
    Fact,
    GamePlace,
    Message,
    PlacedAsk,
    Withdrawn,
)

ENTRY = "negotiation"
"""The journal entry kind of the asks' records; every other reader of the journal skips it."""


def _whole(data: dict[str, Any], *keys: str) -> tuple[int, ...]:
    values = tuple(data.get(key) for key in keys)
    if not all(type(v) is int and v >= -1 for v in values):
        raise AskUnfit(f"{str(data)[:80]} is not an ask of the other table")
    return values  # type: ignore[return-value]  # (checked: whole numbers)


def _seat(data: dict[str, Any]) -> str:
    seat = data.get("seat")
    if seat not in ("A", "B"):
        raise AskUnfit(f"{str(data)[:80]} names no seat A or B")
    return str(seat)


def id_to_dict(id: AskId) -> dict[str, Any]:
    return {"game": id.game, "seat": id.seat, "number": id.number}


def id_from_dict(data: dict[str, Any]) -> AskId:
    game, number = _whole(data, "game", "number")
    return AskId(game, _seat(data), number)


def ask_to_dict(ask: PlacedAsk) -> dict[str, Any]:
    """An ask as events, messages and records carry it."""
    return {**id_to_dict(ask.id), "kind": ask.kind.value, "takebacks": ask.at.takebacks,
            "actions": ask.at.actions, "to": ask.to}


def ask_from_dict(data: object) -> PlacedAsk:
    """An ask as it was carried; AskUnfit when it is not one."""
    fields = data if isinstance(data, dict) else {}
    try:
        kind = AskKind(str(fields.get("kind")))
    except ValueError:
        raise AskUnfit(f"{str(data)[:80]} is not an ask of the other table") from None
    takebacks, actions, to = _whole(fields, "takebacks", "actions", "to")
    return PlacedAsk(id_from_dict(fields), kind, GamePlace(takebacks, actions), to)


def _decision_from(fields: dict[str, Any]) -> Decision:
    try:
        outcome = AskOutcome(str(fields.get("outcome")))
    except ValueError:
        raise AskUnfit(f"{str(fields)[:80]} is no decision on an ask") from None
    why = fields.get("why", "")
    return Decision(ask_from_dict(fields.get("ask")), outcome, why if isinstance(why, str)
                    else "")


def _decision_dict(decision: Decision) -> dict[str, Any]:
    return {"ask": ask_to_dict(decision.ask), "outcome": decision.outcome.value,
            "why": decision.why}


def message_to_dict(message: Message | Adopted) -> dict[str, Any]:
    """A message (or a record) with its kind under ``"m"``."""
    if isinstance(message, Asked):
        return {"m": "asked", "ask": ask_to_dict(message.ask)}
    if isinstance(message, Withdrawn):
        return {"m": "withdrawn", "id": id_to_dict(message.id)}
    if isinstance(message, Decided):
        return {"m": "decided", **_decision_dict(message.decision)}
    if isinstance(message, Adopted):
        return {"m": "adopted", **_decision_dict(message.decision)}
    return {"m": "acknowledged", "game": message.game, "seat": message.seat,
            "number": message.number}


def _read(fields: dict[str, Any]) -> Message | Adopted:
    kind = fields.get("m")
    if kind == "asked":
        return Asked(ask_from_dict(fields.get("ask")))
    if kind == "withdrawn":
        id = fields.get("id")
        return Withdrawn(id_from_dict(id if isinstance(id, dict) else {}))
    if kind == "decided":
        return Decided(_decision_from(fields))
    if kind == "adopted":
        return Adopted(_decision_from(fields))
    if kind == "acknowledged":
        game, number = _whole(fields, "game", "number")
        return Acknowledged(game, _seat(fields), number)
    raise AskUnfit(f"{str(fields)[:80]} is no message of the other table's asks")


def message_from_dict(data: object) -> Message:
    """A message of the other table as the link carried it; AskUnfit when it is not one (a
    record such as ``adopted`` is never sent)."""
    read = _read(data if isinstance(data, dict) else {})
    if isinstance(read, Adopted):
        raise AskUnfit("the other table's adoption of a decision is its own record, not a "
                       "message")
    return read


def fact_to_entry(fact: Fact) -> dict[str, Any]:
    """A record of the asks, as the journal keeps it."""
    return {"t": ENTRY, **message_to_dict(fact)}


def facts_in(entries: Iterable[dict[str, Any]]) -> list[Fact]:
    """The asks' records among a game's journal entries, in order (an unreadable one is
    refused with AskUnfit: the journal was written by this table)."""
    facts: list[Fact] = []
    for entry in entries:
        if entry.get("t") == ENTRY:
            read = _read(entry)
            if isinstance(read, Acknowledged):
                raise AskUnfit("an acknowledgement is never recorded")
            facts.append(read)
    return facts
