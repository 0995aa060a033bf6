"""The link's talk with its own table: the other table's hourglass and asks handed in, this
table's hourglass, asks and answers sent out (a part of ``remote_link.RemoteLink``).

What the table tells, the link reads from its event stream (``timer`` and
``match`` events: a reader that joins gets the standing ones first, so a
restarted link sends them again); what the other table sends, the link
hands to the table as local commands (``clock``, ``peer_ask``,
``peer_answer``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.readers.club.config import PREFIX
from firmware.service import command_socket

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from firmware.readers.club.config import ClubConfig
    from firmware.readers.club.match_game import MatchGame
    from firmware.readers.club.match_guard import Guard

log = logging.getLogger("obelisk.remote")


def match_topic(match: str, table: str, part: str) -> str:
    return "/".join((PREFIX, "matches", match, table, part))


class TableTalk:
    """The table's side of the link (``RemoteLink`` holds the broker's)."""

    dir: Path
    client: mqtt.Client
    guard: Guard
    config: ClubConfig
    connected: bool
    _stopping: threading.Event
    claim_after_s: float | None
    away_since: float | None
    claim_said: bool
    last_game: MatchGame | None
    game: MatchGame | None
    peer: str | None

    if TYPE_CHECKING:  # RemoteLink's, which this half calls
        def _say(self, words: str, level: int = logging.WARNING) -> None: ...
        def _tell(self, state: str, words: str) -> None: ...
        def _put(self, topic: str, payload: str | bytes) -> None: ...
        def _match(self) -> str | None: ...
        def _seat(self) -> str | None: ...
        def _game(self) -> MatchGame | None: ...

    def _peer_ask(self, part: str, opened: dict | None) -> None:
        """The other table's ask, or its player's answer to ours: to this table."""
        if not isinstance(opened, dict):
            return
        command = {"asks": {"command": "peer_ask", "ask": opened.get("ask")},
                   "answers": {"command": "peer_answer", "ask": opened.get("ask"),
                               "agree": opened.get("agree")},
                   "claim": {"command": "peer_claim", "player": opened.get("by")}}[part]
        try:
            answer = command_socket.send(self.dir, command, timeout=3.0)
        except command_socket.ControlUnavailable as exc:
            self._say(f"the other table's ask did not reach this table: {exc}")
            return
        if not answer.get("ok"):
            log.warning("the other table's %s was refused: %s", part[:-1], answer.get("error"))

    def _peer_clock(self, data: dict) -> None:
        """The other table's hourglass changed: shown on this table's page."""
        fields = {k: data.get(k) for k in ("player", "state", "seconds", "left")}
        if fields["player"] == self._seat():
            return  # this table's own player's: it runs here
        with contextlib.suppress(command_socket.ControlUnavailable):
            answer = command_socket.send(self.dir, {"command": "clock", **fields}, timeout=2.0)
            if not answer.get("ok"):
                log.warning("the other table's hourglass was not shown: %s", answer.get("error"))

    def _follow_table(self) -> None:
        """This table's hourglass, as its stream tells it: to the other table."""
        from firmware.service.stream import StreamError, read_events

        while not self._stopping.is_set():
            try:
                for event in read_events(self.dir, timeout=None):
                    if self._stopping.is_set():
                        return
                    if event.get("event") == "timer" and event.get("player") == self._seat():
                        self._publish_clock(event)
                    elif event.get("event") == "match":
                        self._publish_ask(event)
                    elif event.get("event") == "remote" and event.get("state") == "claimed":
                        self._publish_claim()
            except (StreamError, OSError):
                self._stopping.wait(0.5)  # the table is not up yet, or restarted

    def _publish_clock(self, event: dict) -> None:
        match, game = self._match(), self._game()
        if match is None or game is None or not self.connected:
            return
        clock = {k: event[k] for k in ("player", "state", "seconds", "left")}
        self._put(match_topic(match, self.config.table, "timer"), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, "timer", clock)}))

    def _publish_ask(self, event: dict) -> None:
        """This table's ask, or its player's answer to the other's, to the other table; an
        ask of ours answered is taken off the broker."""
        match, game, ask = self._match(), self._game(), event.get("ask") or {}
        if match is None or game is None or not self.connected:
            return
        ours, state = ask.get("by") == self._seat(), event.get("state")
        if state == "asked" and ours:
            part, said = "asks", {"ask": ask}
        elif state in ("agreed", "declined") and not ours:
            part, said = "answers", {"ask": ask, "agree": state == "agreed"}
        elif state in ("agreed", "declined"):
            self._put(match_topic(match, self.config.table, "asks"), b"")
            return
        else:
            return
        self._put(match_topic(match, self.config.table, part), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, part, said)}))

    # ---------------------------------------------------------------- a claim

    def _offer_claim(self, now: float) -> None:
        """The other table out of touch as long as ``--claim-after`` allows: the person here
        may claim the game (said once; its return takes the offer back)."""
        if self.claim_after_s is None or self.away_since is None or self.claim_said or \
                now - self.away_since < self.claim_after_s or self._game() is None:
            return
        self.claim_said = True
        minutes = round(self.claim_after_s / 60)
        self._tell("claimable", f"the other table ({self.peer}) has been out of touch for "
                   f"{minutes} minute{'s' if minutes != 1 else ''}: you may claim the game "
                   "(Claim the game on the page), or wait for it")

    def _publish_claim(self) -> None:
        """The person here claimed the game: the other table is told when it is back (the
        claim stays on the broker, sealed with the game's key)."""
        game = self.game or self.last_game  # (the journal may have moved on already)
        if game is None or game.remote is None:
            return
        match = game.remote.get("match")
        if match is None or not self.connected:
            return
        self._put(match_topic(match, self.config.table, "claim"), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, "claim", {"by": self._seat()})}))
