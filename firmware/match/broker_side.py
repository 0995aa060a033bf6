"""The link's side toward the club's broker: its MQTT client, and what it sends there.

It tells the broker what this table is and holds: ``hello``, retained, with
the game, its options, a commitment to the seed, the seat played here and
``n``, how many actions the journal holds. That count is the
acknowledgement: the other table sends again every action past it. It sends
each action the journal holds past the other table's count, as ``{"match",
"n", "agreed", "sealed"}`` (QoS 1; the action, its number and the takebacks
agreed before it inside the seal), and this table's hourglass, what its asks
send again (``firmware.match.asks``) and claim, retained, so what was said
while the other link was away still reaches it. What comes from the other
table it gives to ``OtherTable``, which it holds; every retained message of
its own that someone else overwrote it puts back.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from typing import Any

from firmware.match.far_clock import RUNNING
from firmware.match.guard import Guard
from firmware.match.messages import (
    AGAIN_S,
    PACKET_MAX,
    RESEND_S,
    match_topic,
    status_topic,
)
from firmware.match.other_table import OtherTable
from firmware.match.playing import Playing
from firmware.match.table_side import TableSide
from firmware.readers.club.config import ClubConfig
from firmware.readers.club.connect import (
    Handshake,
    club_client,
    connect,
    refusal_words,
    silent_words,
    unreachable_words,
)
from firmware.readers.club.trouble import reason_words

log = logging.getLogger("obelisk.remote")

KEEPALIVE_S = 10
"""The link's MQTT keepalive: the broker gives a silent link's last will (offline) after
1.5 times this, and this link notices a silent broker after at most twice this."""
GOODBYE_S = 2.0
"""How long a stopping link waits for the broker to take its offline status."""


class BrokerSide:
    """One link's client on the club's broker: its connection, what it sends, and the other
    table as it knows it (``other``)."""

    def __init__(self, config: ClubConfig, playing: Playing, table: TableSide,
                 lock: threading.Lock, wake: threading.Event, stopping: threading.Event,
                 claim_after_s: float | None = None) -> None:
        """``lock``: the link's, held while the match or what is known of the other table
        changes; ``wake``: set when a message may want the link's next step at once;
        ``stopping``: set once the link is stopping (a disconnect then is no trouble)."""
        self.config = config
        self.playing = playing
        self.table = table
        self.lock = lock
        self.wake = wake
        self.stopping = stopping
        self.guard = Guard(config.table)
        self.other = OtherTable(playing, table, self.guard, self._subscribe_claim,
                                claim_after_s)
        self.connected = False
        self.broker_trouble = False  # the page was told the broker cannot be reached
        self.clock: tuple[dict, float] | None = None  # this table's hourglass, heard when
        self.asks: dict | None = None  # what this table's asks send again (their last event)
        self.said_at = 0.0  # when the hello and the asks were last published again
        self.client = club_client(config, f"obelisk-remote-{config.table}", (1.0, 5.0),
                                  status_topic(config.table), most=PACKET_MAX)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.handshake = Handshake(self.client, lambda: self._trouble(silent_words(
            config.broker, f"broker in {config.source}") + "; the table plays on and this link "
            "tries again"))

    # ------------------------------------------------------------------ the connection

    def connect(self) -> None:
        connect(self.client, self.config.broker, keepalive=KEEPALIVE_S, most=PACKET_MAX)

    def close(self) -> None:
        """Stop cleanly: say offline first, as the last will would (a clean disconnect sends
        none), so that the other table shows this one out of touch at once."""
        self.handshake.close()
        if self.connected:
            topic = status_topic(self.config.table)
            self.guard.sent(topic, b"offline")
            sent = self.client.publish(topic, b"offline", qos=1, retain=True)
            try:
                sent.wait_for_publish(GOODBYE_S)
            except (RuntimeError, ValueError):  # (gone meanwhile: the last will says it)
                log.info("the broker did not take this table's offline status")
        self.client.disconnect()
        self.client.loop_stop()

    def _trouble(self, words: str) -> None:
        """The club's broker cannot be reached: said in the log and on the table's page (once
        for the same words: paho tries again every few seconds)."""
        if words != self.table.said:
            self.broker_trouble = True
            self.table.tell("apart", words)

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        self.handshake.over()
        if reason.is_failure:
            five = " (a match's link speaks MQTT 5: mosquitto 1.6 or later, or another MQTT 5 " \
                "broker)" if getattr(reason, "value", 0) in (1, 132) else ""
            self._trouble(refusal_words(reason, self.config) + five + "; the table plays on "
                          "and this link tries again")
            return
        if self.broker_trouble:
            self.broker_trouble = False
            self.table.tell("linked", f"this table reached the club's broker "
                            f"{self.config.broker}: play on")
        self.connected = True
        self.table.say(f"connected to {self.config.broker} as table {self.config.table!r}",
                       logging.INFO)
        self._put(status_topic(self.config.table), "online")
        client.subscribe(status_topic("+"), qos=1)
        match = self.playing.name()
        if match is not None:
            client.subscribe(match_topic(match, "+", "#"), qos=1)
            self.hello()
            if self.clock is not None:  # what its player's hourglass shows now, again
                self._publish_clock(*self.clock)
            if self.asks is not None:  # again: a broker that restarted may have lost them
                self._publish_asks(self.asks)
        self.wake.set()

    def _on_connect_fail(self, client, userdata) -> None:
        self.handshake.over()
        config = self.config
        self._trouble(unreachable_words(sys.exc_info()[1], config.broker, config.ca_file,
                                        f"broker in {config.source}",
                                        f"ca_file in {config.source}")
                      + "; the table plays on and this link tries again")

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        was, self.connected = self.connected, False
        if was and not self.stopping.is_set() and self.playing.name() is not None:
            self.broker_trouble = True
            self.table.tell("apart", f"this table lost the club's broker "
                            f"({reason_words(reason)}) at {time.strftime('%H:%M')}: the match "
                            "waits, and the link tries again")

    def _subscribe_claim(self, match: str, table: str) -> None:
        """The other table's claim, if it holds one, and its status, again (``OtherTable``: a
        table linked; its status, heard before it was known, is heard again: offline when this
        link joined while it was away)."""
        if self.connected:
            self.client.subscribe(match_topic(match, table, "claim"), qos=1)
            self.client.subscribe(status_topic(table), qos=1)

    # ------------------------------------------------------------------ what comes

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        parts = message.topic.split("/")
        if len(parts) != 5:
            return
        _, _, match, table, part = parts
        if table == self.config.table:
            if not getattr(message, "retain", False):  # (what the broker held as this link
                self._own(message.topic, message.payload)  # joined: published over)
            return
        data = self.other.screened(match, table, part, message.payload)
        if data is None:
            return
        with self.lock:
            asked = self.other.take(table, part, data)
        if asked is not None:  # (not under the lock: the table may take a while)
            self.table.hand_ask(part, asked)
        self.wake.set()

    def _own(self, topic: str, payload: bytes) -> None:
        """A message on this table's own topic: put back what this link published there, if
        someone else overwrote it (a status set offline, a hello or an ask changed)."""
        ours = self.guard.put_back(topic, payload, time.monotonic())
        if ours is not None and self.connected:
            self.client.publish(topic, ours, qos=1, retain=True)

    # ------------------------------------------------------------------ what goes

    def matched(self, before: str | None) -> None:
        """The match may have changed (``before``: the one played till now): begin afresh
        with the new one; say where this table stands."""
        match = self.playing.name()
        with self.lock:
            if match != before:
                self.other.forget()
                self.guard.forget()
                self.clock = None
                if before is not None and match is not None:
                    self.asks = None  # another match: its asks are none of this one's
                if self.connected and match is not None:
                    self.client.subscribe(match_topic(match, "+", "#"), qos=1)
        self.hello()
        if match != before and match is not None and self.asks is not None:
            self._publish_asks(self.asks)  # heard while no match was known (a game set
            # aside, the next not set up yet): sent now, or the decision in it never goes

    def hello(self) -> None:
        match, game, seat = self.playing.name(), self.playing.current(), self.playing.seat()
        if match is None or not self.connected:
            return
        payload: dict[str, object] = {"match": match, "table": self.config.table,
                                      "seat": seat, "n": 0}
        if game is not None:  # started: its count, and the game it is (the seed committed)
            payload.update(n=len(game.actions), agreed=game.agreed, match_game=game.number,
                           game_setup=game.fingerprint(), sealed=self.guard.seal(
                               game, "hello", {"seat": seat, "n": len(game.actions),
                                               "agreed": game.agreed}))
        if game is not None and game.over:  # the reveal: the seed, once the game is over
            payload["seed"] = game.seed
        self._put(match_topic(match, self.config.table, "hello"), json.dumps(payload))

    def say_again(self, now: float) -> None:
        """This table's hello and asks published again every ``AGAIN_S``, whether or not the
        other table is known: neither link can tell that the other holds its last ones (a
        message lost on a live connection is not sent again by the broker), and whatever the
        other table holds, a copy changes nothing there."""
        if not self.connected or now - self.said_at < AGAIN_S:
            return
        self.said_at = now
        self.hello()
        if self.asks is not None:
            self._publish_asks(self.asks)

    def _put(self, topic: str, payload: str | bytes) -> None:
        """A retained message of this table's (kept, to be put back if someone overwrites
        it)."""
        data = payload.encode() if isinstance(payload, str) else payload
        self.guard.sent(topic, data)
        self.client.publish(topic, data, qos=1, retain=True)

    def send_ours(self, now: float) -> None:
        """Every action past what the other table holds (again, if it lags a while); under
        the link's lock."""
        game, match, other = self.playing.current(), self.playing.name(), self.other
        if game is None or match is None or not other.proven or not self.connected:
            return
        if other.agreed != game.agreed:
            return  # one table took back what the other has not yet: it sends its count then
        if other.sent_agreed != game.agreed:
            other.sent_upto, other.sent_agreed = 0, game.agreed  # a new line: from its count
        start = max(other.n, other.sent_upto)
        if start >= len(game.actions) and not (other.n < len(game.actions)
                                                and now - other.sent_at > RESEND_S):
            return
        if start >= len(game.actions):
            start = other.n  # sent, but not acknowledged for a while: again
        for n in range(start + 1, len(game.actions) + 1):
            sealed = self.guard.seal(game, "actions", {"n": n, "agreed": game.agreed,
                                                       "action": game.actions[n - 1]})
            self.client.publish(match_topic(match, self.config.table, "actions"),
                                json.dumps({"match": match, "n": n, "agreed": game.agreed,
                                            "sealed": sealed}), qos=1)
        other.sent_upto, other.sent_at = len(game.actions), now

    def heard(self, event: dict) -> None:
        """An event of this table's stream: its player's hourglass, an ask or answer, a
        claim, to the other table."""
        if event.get("event") == "timer" and event.get("player") == self.playing.seat():
            self.clock = (event, time.monotonic())
            self._publish_clock(event)
        elif event.get("event") == "negotiation":
            self.asks = event
            self._publish_asks(event)
        elif event.get("event") == "remote" and event.get("state") == "claimed":
            self._publish_claim()

    def _publish_clock(self, event: dict, heard_at: float | None = None) -> None:
        """This table's player's hourglass, as its event said it; ``heard_at`` (monotonic):
        sent again on reconnecting, a running one with the seconds it has left now."""
        match, game = self.playing.name(), self.playing.current()
        if match is None or game is None or not self.connected:
            return
        clock = {k: event[k] for k in ("player", "state", "seconds", "left")}
        if heard_at is not None and clock["state"] in RUNNING and \
                isinstance(clock["left"], int | float):
            clock["left"] = max(0.0, clock["left"] - (time.monotonic() - heard_at))
        self._put(match_topic(match, self.config.table, "timer"), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, "timer", clock)}))

    def _publish_asks(self, event: dict) -> None:
        """What this table's asks send again (its asks waiting, its decisions not
        acknowledged, its acknowledgement), retained for the other table: each change
        replaces it, and a restarted link sends it again from the table's standing events."""
        # (the game set aside, the next not begun: sealed with the last, which the asking
        # table, still in it, opens: a decision reaches it whatever this table does next)
        match, game = self.playing.name(), self.playing.current() or self.playing.last_game
        messages = event.get("messages")
        if match is None or game is None or not self.connected or not isinstance(messages,
                                                                                list):
            return
        earlier = self.playing.earlier()
        if earlier is not None and earlier.number < game.number and \
                any(0 < _game_of(m) < game.number for m in messages):
            game = earlier  # (a decision owed to a table still in the game before: its key)
        self._put(match_topic(match, self.config.table, "asks"), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, "asks", {"messages": messages})}))

    def _publish_claim(self) -> None:
        """The person here claimed the game: the other table is told when it is back (the
        claim stays on the broker, sealed with the game's key), with the place it was claimed
        at (the moves the other table made after it, out of touch, never came here)."""
        game = self.playing.game or self.playing.last_game  # (the journal may have moved on)
        if game is None or game.setting is None:
            return
        match = game.setting.get("match")
        if match is None or not self.connected:
            return
        self._put(match_topic(match, self.config.table, "claim"), json.dumps(
            {"match": match, "sealed": self.guard.seal(game, "claim", {
                "by": self.playing.seat(), "n": len(game.actions), "agreed": game.agreed})}))


def _game_of(message: object) -> int:
    """Which game of the match a message of the asks is about (its ask's, or its own)."""
    if not isinstance(message, dict):
        return 0
    about = message.get("ask") or message.get("id") or message
    number = about.get("game") if isinstance(about, dict) else None
    return number if type(number) is int else 0
