"""What a table cannot use yet, said as a value: the device and the words for a person.

A table not wired up yet (no GPIO chip, no LED device, no scanner board) still
runs: the part that is missing is replaced by one nobody can touch, and a
``Missing`` says in the log and on the page what is missing and how to fix it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Missing:
    device: str
    """What is missing, as a builder names it: "buttons", "LEDs", "scanner board"."""
    words: str
    """Why, and what to do about it."""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


__all__ = ["Missing"]
