"""The toy board in text: A's marks as X, B's as O."""

from __future__ import annotations


def draw(seen: dict) -> str:
    marks = {"A": "X", "B": "O"}
    rows = [" ".join(marks.get(seen["marks"].get(f"{c}{r}", ""), ".") for c in "abc")
            for r in (3, 2, 1)]
    return "\n".join(rows)
