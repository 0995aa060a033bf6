"""What a match's link takes from the broker, and what it keeps there of its own: only what
this game's key opens, sent by the table it names, in its place and newer than what came
before; the rest set aside and said.

The club's broker is shared, and any client on it may write on a match's
topics (a club should give each table its own user and an access list,
docs/clubs.md, but a match must hold without one). So everything a link
sends is sealed with the game's key (drawn from the seed, which a secret
word keeps from everyone on the broker), and says inside the seal the topic
it is for, the table that sent it and when (``seq``: how many entries that
table's journal held, then its clock). A message someone else wrote, one
copied to another topic or table, or one sent again later changes nothing
here: it is set aside, and said in the log (the first of a kind at once,
then how many more once a minute). Anything larger than a match's message
never reaches the link: it asks the broker (MQTT 5's maximum packet size)
not to send it (``firmware.match.messages``). A retained message of its own
that someone else overwrote (its hello, its asks, its status) is put back.
"""

from __future__ import annotations

import logging
import time
from collections import deque

from firmware.match.game import MatchGame
from firmware.store.seal import SealError

log = logging.getLogger("obelisk.remote")

SUMMARY_S = 60.0
"""How often the link says how many more messages it set aside of kinds already said."""
KINDS_MAX = 100
"""The most kinds of message set aside the link counts apart (a table's name is the sender's
to make up)."""
HEAL_S = 2.0
"""The least time between two puttings back of the same topic of this table's own."""


class Guard:
    """One link's seals, the newest it took of each kind, what it set aside, and its own
    retained messages (to put back)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._newest: dict[str, list] = {}
        self._mine: dict[str, deque[bytes]] = {}
        self._healed: dict[str, float] = {}
        self._aside: dict[str, int] = {}  # a kind said already -> how many more since
        self._summed_at = time.monotonic()

    # ---------------------------------------------------------------- sealing

    def seal(self, game: MatchGame, part: str, value: dict) -> str:
        """``value`` sealed with the game's key, naming its topic, this table and when."""
        return game.sealer().seal({**value, "part": part, "table": self.table,
                                   "seq": [game.length, time.time_ns()]})

    def opened(self, game: MatchGame | None, table: str, part: str, sealed: object,
               quiet: bool = False) -> dict | None:
        """What ``table`` sealed for ``part`` (None, set aside and said: not sealed, another
        key, another topic or table; ``quiet``: not said, this game being over, the other
        table's next may have begun)."""
        if game is None or (quiet and not self._opens(game, sealed)):
            return None  # no game here yet: nothing to open it with
        if not isinstance(sealed, str):
            self.aside(table, part, "it is not sealed (someone else on the broker, or "
                       "a link of an older version: update obelisk at both tables)")
            return None
        try:
            value = game.sealer().unseal(sealed)
        except (SealError, ValueError):
            self.aside(table, part, "this game's key does not open it (someone else "
                       "on the broker, another game, or another secret word)")
            return None
        if not isinstance(value, dict) or value.get("part") != part or \
                value.get("table") != table or not _is_seq(value.get("seq")):
            self.aside(table, part, "it was sealed for another topic or table (a "
                       "message copied from elsewhere), or by an older version")
            return None
        return value

    @staticmethod
    def _opens(game: MatchGame, sealed: object) -> bool:
        try:
            return isinstance(sealed, str) and game.sealer().unseal(sealed) is not None
        except (SealError, ValueError):
            return False

    def newer(self, table: str, part: str, value: dict, again_ok: bool = False) -> bool:
        """Whether ``value`` (opened) is newer than the last of its kind taken (``again_ok``:
        or the same, sent again); an older one is set aside and said."""
        seq, last = value["seq"], self._newest.get(part)
        if last is not None and (seq < last or (seq == last and not again_ok)):
            if seq < last:
                self.aside(table, part, "it is older than one taken already (sent again by "
                           "someone)")
            return False
        self._newest[part] = seq
        return True

    def forget(self) -> None:
        """A new game: every kind is taken afresh."""
        self._newest.clear()

    # ---------------------------------------------------------------- this table's own

    def sent(self, topic: str, payload: bytes) -> None:
        """A retained message this link published (a few kept per topic)."""
        self._mine.setdefault(topic, deque(maxlen=8)).append(payload)

    def put_back(self, topic: str, payload: bytes, now: float) -> bytes | None:
        """This table's latest on ``topic``, when what the broker holds there is someone
        else's (None: it is one of ours, or it was put back a moment ago)."""
        recent = self._mine.get(topic)
        if not recent or payload in recent or now - self._healed.get(topic, -HEAL_S) < HEAL_S:
            return None
        self._healed[topic] = now
        part = topic.rsplit("/", 1)[1]
        self._count(f"own/{part}", f"this table's status was set {_shown(payload)} while its "
                    "link is here (the last will of a link before this one, or someone else): "
                    "put back" if part == "status" else f"someone else wrote on this table's "
                    f"own {part} topic (another link under the name {self.table!r}?): put back "
                    "as this table had it")
        return recent[-1]

    # ---------------------------------------------------------------- saying it

    def aside(self, table: str, part: str, why: str) -> None:
        """A message set aside: the first of its kind said at once, the others counted."""
        if f"{table}/{part}: {why}" not in self._aside and len(self._aside) >= KINDS_MAX:
            table = "(many tables)"  # names made up by the hundred: counted as one
        self._count(f"{table}/{part}: {why}", f"a message on this match's topic {part} from "
                    f"{table!r} was set aside: {why}")

    def _count(self, kind: str, words: str) -> None:
        if kind in self._aside:
            self._aside[kind] += 1
        else:
            self._aside[kind] = 0
            log.warning("%s", words)

    def summary(self, now: float) -> None:
        """Once a minute: how many more of each kind said were set aside since."""
        if now - self._summed_at < SUMMARY_S:
            return
        self._summed_at = now
        for kind, more in self._aside.items():
            if more:
                log.warning("%d more messages set aside in the last minute, as %s", more, kind)
                self._aside[kind] = 0


def _shown(payload: bytes) -> str:
    return repr(payload[:20].decode("utf-8", "replace"))


def _is_seq(seq: object) -> bool:
    return isinstance(seq, list) and len(seq) == 2 and all(type(x) is int for x in seq)
