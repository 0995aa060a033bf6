"""The live pages' places: at most so many at once, shared fairly, the players' kept.

Each open page holds a live-event stream (``/events``) as long as it is open, so the
server serves only so many at once (``Limits.page_cap``). Who gets one when all are
taken:

- a page signed in with the table PIN (the people at the table): always, while any guest
  holds a place; the guests' biggest holder's longest-held page gives way;
- a guest's page: when its address range (or, within the biggest range, its address)
  holds fewer pages than the biggest holder, which gives way (``fair.giver``); else it is
  refused ("too many pages", and its page tries again).

Pages signed in never give way to anyone. A page that gives way is told so before its
stream ends, and its browser tries again like any page that lost its server.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from firmware.readers.web.fair import Holding, giver, longest_of_biggest

__all__ = ["GAVE_WAY", "Places"]

GAVE_WAY = ("too many pages are open on this table right now, and this page gave its place "
            "to another (the address with the most pages open gives way first): it tries "
            "again in a moment")


class Places:
    """The places of live pages, ``most`` at once (None: no limit)."""

    def __init__(self, most: int | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.most, self.clock = most, clock
        self.guests: list[Holding] = []
        self.players: list[Holding] = []

    @property
    def count(self) -> int:
        return len(self.guests) + len(self.players)

    def take(self, address: str, signed_in: bool, item: Any) -> tuple[Holding | None,
                                                                      Holding | None]:
        """A place for a page from ``address`` (``item``: what the caller closes when it
        gives way): (the place, or None when refused; the place that gave way for it, whose
        page the caller closes, or None)."""
        held = Holding(address, self.clock(), item)
        mine = self.players if signed_in else self.guests
        if self.most is None or self.count < self.most:
            mine.append(held)
            return held, None
        gives = longest_of_biggest(self.guests) if signed_in else giver(self.guests, address)
        if gives is None:
            return None, None
        self.guests.remove(gives)
        mine.append(held)
        return held, gives

    def leave(self, held: Holding | None) -> None:
        """The page of ``held`` closed: its place is free (once)."""
        for kept in (self.guests, self.players):
            if held in kept:
                kept.remove(held)
