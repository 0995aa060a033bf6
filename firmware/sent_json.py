"""JSON sent to the table from outside (a page, a command, another table, a club's broker),
read the same on every Python.

Nothing the table is sent goes more than a few levels deep. Python 3.11's reader gives up
near a thousand levels with a RecursionError, which is no ValueError; 3.13's reads far
deeper. So one request was refused on a Pi with Bookworm and went on to the handler on one
with Trixie, and a deep message from another table or a club's broker raised a traceback
where its reader looked for a ValueError. Here anything nested past ``MAX_DEPTH`` is
refused alike, as the ValueError callers catch.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
"""Lists and objects one inside another, at most: far deeper than any message the table
sends or takes."""


class NestedTooDeep(ValueError):
    """JSON nested deeper than anything the table is sent."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def read_sent(text: str | bytes | bytearray) -> Any:
    """``text`` as JSON; ValueError when it is none, ``NestedTooDeep`` past ``MAX_DEPTH``."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise NestedTooDeep() from None
    if _deeper_than(data, MAX_DEPTH):
        raise NestedTooDeep()
    return data


def _deeper_than(data: Any, most: int) -> bool:
    """Whether ``data`` holds lists and objects more than ``most`` levels deep (looked at
    without recursion, so no depth can stop the look)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            inside = list(item.values())
        elif isinstance(item, list):
            inside = item
        else:
            continue
        if depth > most:
            return True
        stack.extend((each, depth + 1) for each in inside)
    return False
