"""``obelisk mqtt``: a table's events, state and results on the club's MQTT broker.

The publisher is one more reader of the table's event stream, through the
same ``Follower`` the page uses, so the table never waits for it and plays
on whatever the broker or the network does. Topics (``obelisk/<table>/``):

| topic | what | retained |
|---|---|---|
| ``status`` | ``online``; ``offline`` on a clean stop, and as the last will | yes |
| ``state`` | the table as it stands (``firmware.readers.club.state``) | yes |
| ``events`` | each event, with ``session`` and ``n`` to drop repeats | no |
| ``results/<game id>`` | a finished game: its outcome, the record (JSON and text) | yes |

Events and results go through the outbox (``firmware.readers.club.outbox``): on
disk, sent in order, each deleted only once the broker has acknowledged it
(QoS 1). Results come from the state directory's journals, not from the
stream, so a game that ended while the publisher was stopped is published
when it starts again; the ids the broker has taken are kept in
``<state dir>/mqtt/results-sent``.

A result is published under an id no other game shares, on any table: the
table's name and 128 random bits (``table-3-<32 hex digits>``), drawn once
per game and kept in ``<state dir>/mqtt/game-ids`` beside the game's own
fingerprint, so a restart publishes it under the same id. The payload's
``table_game_id`` is the id ``obelisk games`` lists on the table.

Every thread of the publisher must keep working: one that dies ends the
process (status 1, one log line) so that systemd starts it again, and the
systemd watchdog is told all is well only while each thread goes round
(``firmware.readers.club.mqtt_command`` runs the publisher as ``obelisk mqtt``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import secrets
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from engine.core import counted
from engine.errors import ObeliskError
from firmware.core.events import QUIET
from firmware.readers.club import state as table_state
from firmware.readers.club.config import ClubConfig, ClubError
from firmware.readers.club.connect import (
    Handshake,
    club_client,
    refusal_words,
    silent_words,
    unreachable_words,
)
from firmware.readers.club.outbox import Message, Outbox
from firmware.readers.club.safe import FileRefused, clean, read_bounded
from firmware.readers.club.trouble import os_words, reason_words
from firmware.store.state_dir import StateDirError

log = logging.getLogger("obelisk.mqtt")

WINDOW = 20
"""Messages handed to the broker before its acknowledgements come back."""
BACKOFF_S = (1.0, 60.0)
"""The first and the longest wait between attempts to reach the broker."""
HA_PREFIX = "homeassistant"
BEAT_S = 1.0
"""Each publisher thread goes round at least this often, waiting or not."""
STALE_S = 20.0
"""A thread that has not gone round for this long is stuck: the watchdog is no longer fed."""
LEDGER_MAX = 64 * 1024 * 1024
"""The most ``results-sent`` or ``game-ids`` may hold, in bytes (a million games)."""
STATE_EVERY_S = 0.25
"""The retained state goes out at most this often (the latest, within this of the event):
a table telling twenty events a second then costs the broker and every club page four
state messages a second instead of twenty, and the publisher a third less CPU."""


def match_of(start: dict) -> dict | None:
    """A remote match's game as both tables name it: the match, this table's seat, and the
    key both tables' results share (the match and the game's seed), or None."""
    kept = start.get("remote")
    if not isinstance(kept, dict) or not isinstance(kept.get("match"), str):
        return None
    again = kept.get("game", 1)  # a game set aside starts again from the match's seed
    key = f"{kept['match']}:{start.get('seed')}" + (f":{again}" if again != 1 else "")
    return {"match": kept["match"], "seat": kept.get("seat"), "key": key}


class Publisher:
    """Follows one table and keeps the club's broker told, across any outage."""

    def __init__(self, config: ClubConfig, state_dir: str | Path, home: str | Path | None = None,
                 backoff: tuple[float, float] = BACKOFF_S) -> None:
        self.config = config
        self.state_dir = Path(state_dir)
        self.home = Path(home) if home is not None else self.state_dir / "mqtt"
        self.outbox = Outbox(self.home / "outbox", config.outbox_limit_mb)
        self.sent_path = self.home / "results-sent"
        self.sent = set(self._read_ledger(self.sent_path))
        self.ids_path = self.home / "game-ids"
        self.ids: dict[str, str] = dict(
            line.split(" ", 1) for line in self._read_ledger(self.ids_path, lines=True)
            if line.count(" ") == 1)
        """Each finished game's fingerprint (and how many the same came before it) -> the
        id it is published under."""
        self.queued: set[str] = {  # results waiting from before are not queued twice
            m.topic[len(config.topic("results", "")):] for m in self.outbox.after(0, 1 << 62)
            if m.topic.startswith(config.topic("results", ""))}
        self.session = f"{time.time_ns():x}"
        self.count = 0
        self.state = table_state.empty(config.table)
        self.connected = False
        self._said = ""  # the last trouble logged, so a retry every second is not logged
        self._inflight: dict[int, Message] = {}
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._results_due = threading.Event()
        self._stopping = False
        self._last_handed = 0
        self._state_dirty = False  # the state changed since it was last published
        self._state_at = -STATE_EVERY_S  # when it was (monotonic)
        self._results_prefix = config.topic("results", "")
        self.client = self._client(backoff)
        self.beats: dict[str, float] = {"mqtt-send": time.monotonic(),
                                        "mqtt-results": time.monotonic()}
        self._threads = [threading.Thread(target=self._send_loop, name="mqtt-send", daemon=True),
                         threading.Thread(target=self._results_loop, name="mqtt-results",
                                          daemon=True)]

    # ------------------------------------------------------------------ the client

    def _client(self, backoff: tuple[float, float]) -> mqtt.Client:
        config = self.config
        client = club_client(config, f"obelisk-{config.table}", backoff, config.topic("status"))
        client.max_inflight_messages_set(WINDOW)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self.handshake = Handshake(client, self._on_silence)
        return client

    def start(self) -> None:
        """Connect (in the background, retrying) and start sending what waits."""
        broker = self.config.broker
        log.info("publishing table %r to %s as %s (%s waiting from before)",
                 self.config.table, broker, self.config.user or "no user",
                 counted(len(self.outbox), "message"))
        self.client.connect_async(broker.host, broker.port, keepalive=30)
        self.client.loop_start()
        for thread in self._threads:
            thread.start()
        self._results_due.set()  # games that ended while we were not running

    def stop(self, wait_s: float = 2.0) -> None:
        """Say ``offline`` and leave; what is not acknowledged stays in the outbox."""
        deadline = time.monotonic() + wait_s
        while self.connected and len(self.outbox) and time.monotonic() < deadline:
            time.sleep(0.02)  # let what is in flight be acknowledged, so it is not sent twice
        self._stopping = True
        self._wake.set()
        self._results_due.set()
        if self._state_dirty:
            self._publish_state()  # the last change, which the send loop had not sent yet
        if self.connected:
            info = self.client.publish(self.config.topic("status"), "offline", qos=1,
                                       retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(wait_s)
        self.handshake.close()
        self.client.disconnect()
        self.client.loop_stop()
        self._say_dropped()

    def _say(self, words: str, level: int = logging.WARNING) -> None:
        if words != self._said:
            self._said = words
            log.log(level, "%s", words)

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        self.handshake.over()
        if reason.is_failure:
            self._say(refusal_words(reason, self.config) + "; the table plays on, and this "
                      "publisher tries again")
            return
        self.connected = True
        self._say(f"connected to {self.config.broker}", logging.INFO)
        self._say_dropped()
        client.publish(self.config.topic("status"), "online", qos=1, retain=True)
        if self.config.home_assistant:
            self._discovery()
        self._publish_state()
        self._wake.set()

    def _say_dropped(self) -> None:
        dropped = self.outbox.take_dropped()
        if dropped:
            log.warning("while the broker was away, the oldest %s %s dropped to "
                        "keep the outbox within outbox_limit_mb = %g (%s); every result was "
                        "kept and goes out now", counted(dropped, "event"),
                        "was" if dropped == 1 else "were", self.config.outbox_limit_mb,
                        self.config.source)

    def _on_connect_fail(self, client, userdata) -> None:
        # paho calls this while it handles the failure, so the failure is the one in hand
        self.handshake.over()
        config = self.config
        self._say(unreachable_words(sys.exc_info()[1], config.broker, config.ca_file,
                                    f"broker in {config.source}", f"ca_file in {config.source}")
                  + "; the table plays on, results wait in the outbox and this publisher "
                  "tries again")

    def _on_silence(self) -> None:
        """An attempt to reach the broker that got no answer in time (``Handshake``)."""
        self._say(silent_words(self.config.broker, f"broker in {self.config.source}")
                  + "; the table plays on, results wait in the outbox and this publisher "
                  "tries again")

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        was, self.connected = self.connected, False
        if was and not self._stopping:
            self._say(f"lost the broker {self.config.broker} ({reason_words(reason)}); what the "
                      "table "
                      "tells now waits in the outbox")

    def _on_publish(self, client, userdata, mid, reason, properties) -> None:
        # paho holds its own lock here: only hand the ack over
        self._acks.put(mid)
        self._wake.set()

    # ------------------------------------------------------------------ sending

    def _send_loop(self) -> None:
        """The one thread that hands the outbox to the client, in order, and takes acks."""
        while not self._stopping:
            self.beats["mqtt-send"] = time.monotonic()
            wait = self._state_wait()
            self._wake.wait(BEAT_S if wait is None else min(wait, BEAT_S))
            self._wake.clear()
            while True:
                try:
                    mid = self._acks.get_nowait()
                except queue.Empty:
                    break
                message = self._inflight.pop(mid, None)
                if message is not None:
                    self.outbox.done(message)
                    if message.topic.startswith(self._results_prefix):
                        self._mark_sent(message.topic[len(self._results_prefix):])
            if not self.connected or self._stopping:
                self._state_dirty = False  # connecting publishes the state as it is then
                continue
            if self._state_dirty and self._state_wait() == 0:
                self._publish_state()
            room = WINDOW - len(self._inflight)
            for message in self.outbox.after(self._last_handed, room) if room > 0 else []:
                self._last_handed = message.seq
                try:
                    info = self.client.publish(message.topic, message.payload, qos=1,
                                               retain=message.retain)
                except (ValueError, TypeError, UnicodeError):  # MQTT cannot carry it
                    self.outbox.reject(message, "the MQTT client cannot send it (a topic or "
                                       f"a payload of {message.size} bytes MQTT cannot carry)")
                    continue
                self._inflight[info.mid] = message
            self.outbox.handed(self._last_handed)

    def _queue(self, topic: str, payload: dict, retain: bool = False,
               durable: bool = False) -> Message:
        data = json.dumps(payload, separators=(",", ":")).encode()
        message = self.outbox.put(topic, data, retain, durable)
        self._wake.set()
        return message

    def _state_wait(self) -> float | None:
        """Seconds until the changed state may go out (None: it has not changed)."""
        if not self._state_dirty:
            return None
        return max(0.0, self._state_at + STATE_EVERY_S - time.monotonic())

    def _publish_state(self) -> None:
        self._state_dirty = False  # before reading it: a change from now on is sent again
        self._state_at = time.monotonic()
        if self.connected:
            self.client.publish(self.config.topic("state"),
                                json.dumps(self.state, separators=(",", ":")), qos=1,
                                retain=True)

    # ------------------------------------------------------------------ the table's events

    def take(self, event: dict) -> None:
        """One event from the stream (on the event loop): state, events, results. An event
        it cannot take is said and skipped: the reader must not stop for it."""
        try:
            self._take(event)
        except Exception:  # any: the reader goes on with the next
            log.debug("the event that was skipped", exc_info=True)
            self._say(f"an event from the table ({clean(event.get('event'), 40)!r}) is skipped: "
                      "it is not as this publisher knows it; update obelisk on the table and "
                      "here to the same version")

    def _take(self, event: dict) -> None:
        if event["event"] in QUIET:  # every LED change: for the table's own page only
            return
        event = {k: v for k, v in event.items() if k != "board"}
        if event["event"] == "absent":  # the page's words, said of the publisher
            event["words"] = str(event.get("words", "")).replace("this page", "the publisher")
        try:
            self.state = table_state.fold(self.state, event)
        except (KeyError, TypeError, ValueError, AttributeError):
            # a table of another version: its event still goes out, and its result below
            self._say(f"the table's {event['event']!r} event is not as this publisher knows it "
                      "(a part missing, or of another kind); it is published as it came, and the "
                      "state topic catches up with the next whole state: update obelisk on "
                      "the table and here to the same version")
        self._state_dirty = True  # the send loop publishes it (at most every STATE_EVERY_S)
        self.count += 1
        self._queue(self.config.topic("events"), {**event, "table": self.config.table,
                                                  "session": self.session, "n": self.count,
                                                  "at": time.time()})
        if event["event"] in ("game_over", "table"):
            self._results_due.set()

    # ------------------------------------------------------------------ results

    def _results_loop(self) -> None:
        while True:
            self.beats["mqtt-results"] = time.monotonic()
            if not self._results_due.wait(BEAT_S):
                continue
            self._results_due.clear()
            if self._stopping:
                return
            try:
                self.sync_results()
            except (ObeliskError, StateDirError) as exc:  # a journal that cannot be read now
                self._say(f"the finished games cannot be read now: {exc}")
            except OSError as exc:
                self._say(f"the finished games cannot be read now: {os_words(exc)}; this "
                          "publisher tries again at the next game's end")
            except Exception:  # any other: said, and tried again at the next game's end
                log.debug("the finished games", exc_info=True)
                self._say("the finished games cannot be read now (a fault of this publisher, "
                          "not of the games); it tries again at the next game's end: if this "
                          "stays, update obelisk")

    def sync_results(self) -> int:
        """Queue every finished game the broker has not taken yet, oldest first."""
        from firmware.store.history import HistoryError, export_json, export_text, finished_games

        try:
            games, _ = finished_games(self.state_dir)
        except HistoryError:
            return 0  # no state directory yet: no games
        from firmware.store.history import fingerprint

        added = 0
        seen: dict[str, int] = {}
        for game in games:
            self.beats["mqtt-results"] = time.monotonic()
            if not game.over:  # set aside before its end: no result to publish
                continue
            whole = fingerprint(game.entries.entries)
            seen[whole] = seen.get(whole, 0) + 1
            key = f"{whole}.{seen[whole]}"  # the same game twice (a copied journal): two
            game_id = self.ids.get(key) or self._new_id(key)
            if game_id in self.sent or game_id in self.queued:
                continue
            try:
                record = json.loads(export_json(game, self.state_dir))
                text = export_text(game, self.state_dir)
            except HistoryError as exc:
                self._say(f"game {game.id} is not published: {exc}")
                continue
            payload = {"table": self.config.table, "id": game_id, "table_game_id": game.id,
                       "game": game.game, "when": game.when, "outcome": game.result,
                       "record": record, "text": text}
            match = match_of(game.start)
            if match is not None:  # one game of two tables: the club lists it once
                payload["match"] = match
            self.queued.add(game_id)
            self._queue(self.config.topic("results", game_id), payload, retain=True,
                        durable=True)
            added += 1
        return added

    def _new_id(self, key: str) -> str:
        """A new game's id for publishing: the table's name and 128 random bits, kept
        (synced) before it is used, so that a restart publishes the game under it again."""
        game_id = f"{self.config.table}-{secrets.token_hex(16)}"
        self.ids[key] = game_id
        if not self._append(self.ids_path, f"{key} {game_id}"):
            self._say(f"cannot keep the id of a finished game in {self.ids_path}; it is "
                      "published all the same, and may be published again under another id "
                      "after a restart")
        return game_id

    def _read_ledger(self, path: Path, lines: bool = False) -> list[str]:
        """The words (or lines) of a file this publisher keeps, read within LEDGER_MAX."""
        try:
            text = read_bounded(path, LEDGER_MAX).decode("utf-8", "replace")
        except FileNotFoundError:
            return []
        except FileRefused as exc:
            raise ClubError(f"{path} is not read: {exc}; move it aside (the publisher then "
                            "publishes the table's results again)") from None
        except OSError as exc:
            raise ClubError(f"cannot read {path}: {os_words(exc)}") from None
        return text.splitlines() if lines else text.split()

    def _append(self, path: Path, line: str) -> bool:
        try:
            with open(path, "a", encoding="utf-8") as out:
                out.write(line + "\n")
                out.flush()
                os.fsync(out.fileno())
        except OSError:
            return False
        return True

    def _mark_sent(self, game_id: str) -> None:
        self.sent.add(game_id)
        self.queued.discard(game_id)
        if not self._append(self.sent_path, game_id):
            self._say(f"cannot note that game {game_id} was published in {self.sent_path}; "
                      "it may be sent again")

    def health(self) -> str | None:
        """What keeps the publisher from working (a thread dead or stuck), or None."""
        return self.dead() or self.stuck()

    def dead(self) -> str | None:
        """Which of its threads (or the MQTT client's) has stopped, or None."""
        if self._stopping:
            return None
        for thread in self._threads:
            if not thread.is_alive():
                return f"the thread {thread.name} has stopped"
        client_thread = getattr(self.client, "_thread", None)
        if client_thread is not None and not client_thread.is_alive():
            return "the MQTT client's thread has stopped"
        return None

    def stuck(self) -> str | None:
        """Which of its threads has not gone round for STALE_S, or None."""
        now = time.monotonic()
        for name, beat in self.beats.items():
            if now - beat > STALE_S:
                return f"the thread {name} has not gone round for {now - beat:.0f} s"
        return None

    # ------------------------------------------------------------------ Home Assistant

    def _discovery(self) -> None:
        """Home Assistant's MQTT discovery: the table's status and its current game."""
        table = self.config.table
        device = {"identifiers": [f"obelisk_{table}"], "name": f"Obelisk table {table}",
                  "manufacturer": "Obelisk Table"}
        status = self.config.topic("status")
        entities: dict[tuple[str, str], dict[str, object]] = {
            ("binary_sensor", "status"): {
                "name": "Status", "state_topic": status, "payload_on": "online",
                "payload_off": "offline", "device_class": "connectivity"},
            ("sensor", "game"): {
                "name": "Game", "state_topic": self.config.topic("state"),
                "value_template": "{{ value_json.game or 'none' }}",
                "json_attributes_topic": self.config.topic("state"),
                "availability_topic": status},
        }
        for (component, key), entity in entities.items():
            entity |= {"unique_id": f"obelisk_{table}_{key}", "device": device}
            self.client.publish(f"{HA_PREFIX}/{component}/obelisk_{table}/{key}/config",
                                json.dumps(entity), qos=1, retain=True)
