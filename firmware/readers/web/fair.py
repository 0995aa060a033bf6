"""Fair places: when every place is taken, who gives way to a newcomer, and who does not.

A guest on the network may open many connections, and live pages, from a few addresses
(an IPv6 phone alone has many). Limits per address do not stop that, and a place that is
busy (a live page) is never idle, so the page's server would tell a player's phone "too
many pages" for as long as the guest liked. So places are shared fairly:

- holders are counted by address range first (an IPv4 /24, an IPv6 /64: what one home
  network, or one phone, holds), then by address within a range;
- when every place is taken, a newcomer whose range holds fewer places than the biggest
  holder's (or, within the biggest range, whose address holds fewer than the biggest
  address there) takes the place of that holder's longest-held one;
- a newcomer that holds as many as anyone is refused: no holder is ever pushed below what
  the newcomer would hold, so guests that hold places cannot take them from each other in
  turn for ever, and a few addresses can never hold every place.

Pure: the server (``bounds.py``, for connections) and the live pages (``places.py``) keep
their own holdings and ask here whom to close.
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Holding", "address_range", "giver", "longest_of_biggest"]

IPV4_RANGE = 24
IPV6_RANGE = 64


def address_range(address: str) -> str:
    """The range ``address`` is counted in: its IPv4 /24 or IPv6 /64 (an IPv4 address
    mapped into IPv6 as itself); anything that is no address is its own range."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = IPV4_RANGE if ip.version == 4 else IPV6_RANGE
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


@dataclass(eq=False)
class Holding:
    """One place held: by which address (and its range), since when, and what it is."""

    address: str
    since: float
    item: Any = None
    group: str = ""

    def __post_init__(self) -> None:
        if not self.group:
            self.group = address_range(self.address)


def _longest_held(held: Iterable[Holding]) -> Holding:
    return min(held, key=lambda h: h.since)


def longest_of_biggest(held: list[Holding]) -> Holding | None:
    """The place that gives way first: the biggest range's biggest address's longest-held
    (None: no place is held)."""
    if not held:
        return None
    ranges = Counter(h.group for h in held)
    top = max(ranges.values())
    group = _longest_held(h for h in held if ranges[h.group] == top).group
    inside = [h for h in held if h.group == group]
    addresses = Counter(h.address for h in inside)
    most = max(addresses.values())
    return _longest_held(h for h in inside if addresses[h.address] == most)


def giver(held: list[Holding], address: str) -> Holding | None:
    """The place that gives way to a newcomer from ``address`` when every place is taken;
    None when the newcomer already holds as many as anyone (it is refused)."""
    if not held:
        return None
    group = address_range(address)
    ranges = Counter(h.group for h in held)
    top = max(ranges.values())
    if ranges[group] + 1 < top:  # a smaller range: the biggest one gives way
        return longest_of_biggest([h for h in held if ranges[h.group] == top])
    inside = [h for h in held if h.group == group]  # among the biggest: within its range
    addresses = Counter(h.address for h in inside)
    most = max(addresses.values(), default=0)
    if addresses[address] + 1 < most:
        return _longest_held(h for h in inside if addresses[h.address] == most)
    return None
