"""The High Rise board in text, from the public observation.

Before the end every stack is a covered ``?``: the observation holds only
whose turn it is and how many pieces each player has left. Once every
piece is placed it holds the stacks, and each square shows its hidden
value and who controls it.
"""

from __future__ import annotations

from engine.core import counted


def draw(seen: dict) -> str:
    """Rows from the far edge down; then each player's pieces left."""
    stacks = {s["square"]: s for s in seen.get("stacks", ())}
    lines = []
    if stacks:
        lines.append("each square: its hidden value, then who controls it (- a tie)")
    for r in reversed(range(seen["rows"])):
        row = []
        for c in range(seen["cols"]):
            stack = stacks.get(f"{'abcdefgh'[c]}{r + 1}")
            row.append(" ? " if stack is None else
                       f" {stack['value']}{stack['controller'] or '-'}")
        lines.append((f"{r + 1} " + " ".join(row)).rstrip())
    lines.append("   " + "   ".join("abcdefgh"[: seen["cols"]]))
    when = "every piece placed" if seen["to_play"] is None else f"move {seen['plies'] + 1}"
    lines.append(f"High Rise {seen['rows']}x{seen['cols']}, {when}")
    for p, left in seen["pieces_left"].items():
        mark = "  <- to play" if p == seen["to_play"] else ""
        lines.append(f"  player {p}: {counted(left, 'piece')} left{mark}")
    return "\n".join(lines)
