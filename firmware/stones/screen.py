"""The stones board in text, from the public observation."""

from __future__ import annotations

from engine.core import counted


def draw(seen: dict) -> str:
    """Rows from the far edge down; A's stones in capitals (C corner, K key, P cap)."""
    letters = {"corner": "c", "key": "k", "cap": "p"}
    lines = []
    for r in reversed(range(seen["rows"])):
        row = []
        for c in range(seen["cols"]):
            stack = seen["stacks"].get(f"{'abcdefgh'[c]}{r + 1}", [])
            text = "".join(letters[kind].upper() if owner == "A" else letters[kind]
                           for owner, kind in (s.split() for s in stack))
            row.append(f"{text or '.':<3}")
        lines.append(f"{r + 1} " + " ".join(row))
    lines.append("  " + " ".join(f"{ch:<3}" for ch in "abcdefgh"[: seen["cols"]]))
    lines.append("  A in capitals, B in small letters:")
    lines.append("  C cornerstone, K keystone, P capstone")
    if seen["to_play"]:
        lines.append(f"player {seen['to_play']} to move, {counted(seen['plies'], 'move')} played")
    return "\n".join(lines)
