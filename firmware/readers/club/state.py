"""A table's retained state, folded from its events: what a club's screen shows of it.

The state topic holds one JSON object a late subscriber reads at once: the
game and its options, the players, whose turn and what to do, the scores so
far (where the game counts them as it goes), each hourglass, the last
thing that happened, the public observation, and the match it plays with
another table (its name and this table's seat), if any. It is built from the
events alone (which hide what High Rise hides), never from the table.
"""

from __future__ import annotations

import time

KEEP = ("game", "options", "players", "observation")


def empty(table: str) -> dict:
    """A table not heard from yet."""
    return {"table": table, "running": False, "game": None, "options": {}, "players": {},
            "phase": "unknown", "turn": None, "doing": "", "problem": "", "actions": 0,
            "scores": None, "hourglass": {}, "outcome": None, "last": None,
            "observation": None, "match": None, "updated": time.time()}


def fold(state: dict, event: dict) -> dict:
    """The state after ``event`` (a new dict; the old one is left as it was)."""
    kind = event.get("event")
    new = {**state, "updated": time.time()}
    if kind != "absent":
        new["running"] = True
    new["last"] = {"event": kind, "words": str(event.get("words", kind))}
    for key in KEEP:
        if key in event:
            new[key] = event[key]
    _phase_and_turn(new, kind, event)
    _moves_and_clocks(new, state, kind, event)
    new["scores"] = scores_of(new)
    return new


def _phase_and_turn(new: dict, kind: object, event: dict) -> None:
    """Events that move the game along: where it stands, whose turn, how it ended."""
    match kind:
        case "table":
            new.update(phase=event["state"], turn=event["turn"], doing=event["doing"],
                       problem=event["problem"], actions=event["actions"], outcome=None,
                       hourglass={}, match=event.get("match"))  # a match: its name and seat
        case "start":
            new.update(phase="play", turn=event.get("first"), doing="", problem="", actions=0,
                       outcome=None, hourglass={})
        case "resumed":
            new.update(actions=event["actions"], outcome=None)
        case "turn":
            new.update(turn=event["player"], doing=event["doing"])
        case "pause":
            new["phase"] = "paused" if event["state"] == "paused" else "play"
        case "game_over":
            new.update(phase="over", turn=None, doing="", outcome=event["outcome"])
        case "absent":
            new["running"] = False  # the last event says why


def _moves_and_clocks(new: dict, state: dict, kind: object, event: dict) -> None:
    """Events within a turn: moves counted, refused, repaired or taken back, and the
    hourglasses (counted on from ``state``, the one before)."""
    match kind:
        case "accepted":
            new.update(actions=state.get("actions", 0) + 1, problem="")
        case "refused":
            new["problem"] = event["message"]
        case "repaired":
            new["problem"] = ""
        case "takeback":
            new.update(actions=event["actions"], problem="")
        case "timer":
            new["hourglass"] = {**state.get("hourglass", {}), event["player"]: {
                "state": event["state"], "seconds": event["seconds"], "left": event["left"],
                "at": new["updated"]}}


def scores_of(state: dict) -> dict | None:
    """The scores as they stand: the outcome's at the end, else the observation's (towers
    counts as it goes), else None."""
    outcome = state.get("outcome")
    if isinstance(outcome, dict) and isinstance(outcome.get("scores"), dict):
        return outcome["scores"]
    seen = state.get("observation")
    if isinstance(seen, dict) and isinstance(seen.get("scores"), dict):
        return seen["scores"]
    return None
