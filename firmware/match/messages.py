"""What crosses the broker between the two links of a match: its topics, the most a message
may weigh, a message read as a JSON object, and how two tables' games differ, in words.

Topics, for the club's access list (docs/clubs.md: each table may write only
under its own name)::

    obelisk/matches/<match>/<table>/hello     retained
    obelisk/matches/<match>/<table>/actions
    obelisk/matches/<match>/<table>/timer     retained: its player's hourglass, as it runs
    obelisk/matches/<match>/<table>/asks      retained: its ask not answered yet (or empty)
    obelisk/matches/<match>/<table>/claim     retained: its player claimed the game
    obelisk/matches/_/<table>/status          retained: online, or offline (its last will)

How each is sealed, and what a link takes of it, is ``firmware.match.guard``'s.
"""

from __future__ import annotations

from firmware.readers.club.config import PREFIX
from firmware.sent_json import read_sent

MESSAGE_MAX = 64 * 1024
"""The largest message a match carries (an action is some hundred bytes)."""
PACKET_MAX = MESSAGE_MAX + 1024
"""What the link asks the broker to send it at most: a message, its topic and headers."""
RESEND_S = 2.0
"""The least time between two sendings of the same actions to a table that lags behind, and
between two handings of the same action of the other table's to this one."""
AGAIN_S = 5.0
"""How often a link publishes its hello and its asks again while it is connected: MQTT sends
a retained message to a client once, as it subscribes, so one lost on a live connection
would never come again, and the two tables would wait for each other for ever."""
FROM_THE_OTHER = ("actions", "timer", "asks", "claim")
"""What the other table sends besides its hello, each sealed."""


def match_topic(match: str, table: str, part: str) -> str:
    return "/".join((PREFIX, "matches", match, table, part))


def status_topic(table: str) -> str:
    """Whether a table's link is there (``_`` is no match's name: names start with a letter
    or a digit)."""
    return match_topic("_", table, "status")


def json_object(payload: bytes) -> dict | None:
    """A message's JSON object (None: empty, not JSON, or not an object)."""
    try:
        data = read_sent(payload) if payload else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def differs(theirs: object, ours: dict) -> str:
    """How another table's game differs from this one's, in words."""
    if not isinstance(theirs, dict):
        return "it did not say which"
    for key in ("game", "options", "extras"):
        if theirs.get(key) != ours.get(key):
            return f"its {key} is {theirs.get(key)!r}, this table's {ours.get(key)!r}"
    if theirs.get("seed") != ours.get("seed"):
        return ("the two tables drew different games from the match (were both given the "
                "same secret word, or both none?)")
    return "it differs"
