"""``obelisk remote``: the link between two tables that play one game through the club's broker.

The table service has no network; this reader, beside it, carries its
match. It reads the table's journal (the match's game is the last one
started; its start entry names the match and the seat played here) and
the broker, and does three things:

- It tells the broker what this table is and holds: ``hello``, retained, with
  the game, its options, the seed, the seat played here and ``n``, how many
  actions the journal holds. That count is the acknowledgement: the other
  table sends again every action past it.
- It sends each action the journal holds past the other table's count, as
  ``{"match", "n", "agreed", "sealed"}`` (QoS 1; the action, its number and
  the takebacks agreed before it inside the seal). The journal is the outbox: written
  whole and fsynced before the table shows a move, read again after any
  restart, so nothing is lost; a repeat is harmless, since the table takes
  an action by its number once.
- It hands the other table's next action to the table (the local command
  ``peer``): the table checks it with its own rules and lights it, and
  records it once the sensors see it made.
- It carries each table's asks (a pause, play on, the end, a takeback) and
  its player's answers (``firmware.seats.match_asks``), retained, so an
  ask made while the other link was away still reaches it. Every action and
  count says how many takebacks the two tables agreed before it: an action
  of a line taken back is never handed on.

Topics, for the club's access list (``docs``: each table may write only
under its own name)::

    obelisk/matches/<match>/<table>/hello     retained
    obelisk/matches/<match>/<table>/actions
    obelisk/matches/<match>/<table>/timer     retained: its player's hourglass, as it runs
    obelisk/matches/<match>/<table>/asks      retained: its ask not answered yet (or empty)
    obelisk/matches/<match>/<table>/answers   retained: its player's last answer
    obelisk/matches/_/<table>/status          retained: online, or offline (its last will)

Each player's hourglass runs on their own table; the link tells the other
table each change of it (``timer`` events of the table's stream), which
shows it from those reports.

A table whose link goes silent (its status turns offline: the broker says
so when the link's keepalive runs out) is shown as out of touch, not timed
out: the match waits for it, its hourglass does not run here.

A table takes actions only from the table whose ``hello`` this game's key
opens, and only when game, options and seed are its own; everything crosses
sealed, naming its topic, its table and its place (``match_guard``), so a
third client on the broker can neither forge nor replay a move, an ask or a
count, and a giant message never reaches the link (``match_peer`` takes what
comes).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from firmware.readers.club.config import ClubConfig
from firmware.readers.club.connect import (
    Handshake,
    club_client,
    connect,
    refusal_words,
    silent_words,
    unreachable_words,
)
from firmware.readers.club.match_game import MatchGame, read_game
from firmware.readers.club.match_guard import PACKET_MAX, Guard
from firmware.readers.club.match_peer import PeerTalk
from firmware.readers.club.match_talk import TableTalk, match_topic
from firmware.readers.club.trouble import reason_words
from firmware.service import command_socket
from firmware.store.journal import Journal, JournalError

log = logging.getLogger("obelisk.remote")

LOOK_S = 0.02
"""How often the journal is looked at for a new action (its size and time: cheap)."""
RESEND_S = 2.0
"""The least time between two sendings of the same actions to a peer that lags behind."""
SETUP_EVERY_S = 1.0
"""How often the table is asked which match it is set up for, while its journal holds none
under way (a page may set one up)."""


def status_topic(table: str) -> str:
    """Whether a table's link is there (``_`` is no match's name: names start with a letter
    or a digit)."""
    return match_topic("_", table, "status")


class RemoteLink(PeerTalk, TableTalk):
    """One table's side of a match: its journal out, the other table's actions in."""

    def __init__(self, config: ClubConfig, state_dir: str | Path,
                 claim_after_min: float | None = None) -> None:
        self.config = config
        self.dir = Path(state_dir)
        self.journal = Journal(self.dir)
        self.game: MatchGame | None = None
        self.last_game: MatchGame | None = None  # the match's game before the journal moved on
        self.claim_after_s = None if claim_after_min is None else claim_after_min * 60
        self.away_since: float | None = None  # the other table out of touch since (monotonic)
        self.claim_said = False
        self.peer: str | None = None  # the other table's name, once its hello came
        self.peer_proven = False  # its hello opened with this game's key
        self.hellos: dict[str, dict] = {}  # each table's last hello claiming the other seat
        self.peer_n = 0  # how many actions the other table holds
        self.peer_agreed = 0  # after how many takebacks agreed (its count holds only then)
        self.inbox: dict[tuple[int, int], dict] = {}  # its actions, by (takebacks, number)
        self.sent_agreed = 0  # the takebacks agreed when ``sent_upto`` was counted
        self.sent_upto = 0  # actions sent to the peer since its last count
        self.sent_at = 0.0
        self.setup: dict | None = None  # the match the table is set up for, before its game
        self._asked_at = -SETUP_EVERY_S
        self.handed = 0  # the last action number of theirs the table took to light
        self.handed_at = 0.0
        self.connected = False
        self.broker_trouble = False  # the page was told the broker cannot be reached
        self.peer_there = True  # the other table's link is there, as far as we know
        self.problem = ""
        self._said = ""
        self._size = -1
        self._seed: object = None  # the seed of the game read last (a new one: a new key)
        self.guard = Guard(config.table)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self.client = self._client()

    # ------------------------------------------------------------------ the broker

    def _client(self) -> mqtt.Client:
        config = self.config
        client = club_client(config, f"obelisk-remote-{config.table}", (1.0, 5.0),
                             status_topic(config.table), most=PACKET_MAX)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.handshake = Handshake(client, lambda: self._trouble(silent_words(
            config.broker, f"broker in {config.source}") + "; the table plays on and this link "
            "tries again"))
        return client

    def _trouble(self, words: str) -> None:
        """The club's broker cannot be reached: said in the log and on the table's page (once
        for the same words: paho tries again every few seconds)."""
        if words != self._said:
            self.broker_trouble = True
            self._tell("apart", words)

    def _say(self, words: str, level: int = logging.WARNING) -> None:
        if words != self._said:
            self._said = words
            log.log(level, "%s", words)

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
            self._tell("linked", f"this table reached the club's broker {self.config.broker}: "
                       "play on")
        self.connected = True
        self._say(f"connected to {self.config.broker} as table {self.config.table!r}",
                  logging.INFO)
        self._put(status_topic(self.config.table), "online")
        client.subscribe(status_topic("+"), qos=1)
        match = self._match()
        if match is not None:
            client.subscribe(match_topic(match, "+", "#"), qos=1)
            self._hello()
        self._wake.set()

    def _on_connect_fail(self, client, userdata) -> None:
        import sys

        self.handshake.over()
        config = self.config
        self._trouble(unreachable_words(sys.exc_info()[1], config.broker, config.ca_file,
                                    f"broker in {config.source}", f"ca_file in {config.source}")
                  + "; the table plays on and this link tries again")

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        was, self.connected = self.connected, False
        if was and not self._stopping.is_set() and self._match() is not None:
            self.broker_trouble = True
            self._tell("apart", f"this table lost the club's broker ({reason_words(reason)}) at "
                       f"{time.strftime('%H:%M')}: the match waits, and the link tries again")

    def _remote(self) -> dict | None:
        """The match this table plays: its journal's game, or, before that game starts (or
        after the last ended), the match the table is set up for (asked of the table)."""
        game = self.game
        if game is not None and game.remote and (not game.over or self.setup is None
                                                 or self.setup == game.remote):
            return game.remote
        return self.setup

    def _game(self) -> MatchGame | None:
        """The journal's game, if it is the match's (not one before it)."""
        game, remote = self.game, self._remote()
        return game if game is not None and remote is not None and game.remote == remote \
            else None

    def _match(self) -> str | None:
        remote = self._remote()
        return remote.get("match") if remote else None

    def _seat(self) -> str | None:
        remote = self._remote()
        return remote.get("seat") if remote else None

    def _ask_setup(self, now: float) -> None:
        """Before its game starts, what match the table is set up for (the page may set one
        up), so that the two tables find each other while their players set out the pieces."""
        if now - self._asked_at < SETUP_EVERY_S or (self.game is not None and self.game.remote
                                                    and not self.game.over):
            return
        self._asked_at = now
        try:
            answer = command_socket.send(self.dir, {"command": "status"}, timeout=2.0)
        except command_socket.ControlUnavailable:
            return
        remote = answer.get("remote") if isinstance(answer.get("remote"), dict) else None
        if remote != self.setup:
            before = self._match()
            with self._lock:
                self.setup = remote
            self._matched(before)

    def _hello(self) -> None:
        match, game = self._match(), self._game()
        if match is None or not self.connected:
            return
        payload: dict[str, object] = {"match": match, "table": self.config.table,
                                      "seat": self._seat(), "n": 0}
        if game is not None:  # started: its count, and the game it is (the seed committed)
            payload.update(n=len(game.actions), agreed=game.agreed,
                           game_setup=game.fingerprint(), sealed=self.guard.seal(
                               game, "hello", {"seat": self._seat(), "n": len(game.actions),
                                               "agreed": game.agreed}))
        if game is not None and game.over:  # the reveal: the seed, once the game is over
            payload["seed"] = game.seed
        self._put(match_topic(match, self.config.table, "hello"), json.dumps(payload))

    def _put(self, topic: str, payload: str | bytes) -> None:
        """A retained message of this table's (kept, to be put back if someone overwrites
        it)."""
        data = payload.encode() if isinstance(payload, str) else payload
        self.guard.sent(topic, data)
        self.client.publish(topic, data, qos=1, retain=True)

    # ------------------------------------------------------------------ the table

    def _tell(self, state: str, words: str) -> None:
        """Show how the match stands on the table's page (and in this log)."""
        self._say(words, logging.INFO if state == "linked" else logging.WARNING)
        with contextlib.suppress(command_socket.ControlUnavailable):  # said in the log at least
            command_socket.send(self.dir, {"command": "link", "state": state, "message": words},
                         timeout=2.0)

    def _read_journal(self) -> bool:
        """Read the journal again if it changed; True when it did."""
        try:
            size = self.journal.path.stat().st_size
        except OSError:
            size = 0
        if size == self._size:
            return False
        self._size = size
        try:
            game = read_game(self.journal)
        except JournalError as exc:
            self._say(f"cannot read the table's journal: {exc}")
            return False
        before = self._match()
        with self._lock:
            self.last_game = self.game or self.last_game
            self.game = game if game is not None and game.remote else None
            seed, self._seed = self._seed, None if self.game is None else self.game.seed
            if self._seed != seed and self._match() == before:
                self._weigh_hellos()  # a new game of the match: a new key
        self._matched(before)
        return True

    def _matched(self, before: str | None) -> None:
        """The match may have changed (``before``: the one played till now): begin afresh
        with the new one; say where this table stands."""
        with self._lock:
            if self._match() != before:
                self.peer, self.peer_n, self.sent_upto, self.inbox = None, 0, 0, {}
                self.peer_agreed = self.sent_agreed = 0
                self.peer_proven, self.hellos = False, {}
                self.guard.forget()
                match = self._match()
                if self.connected and match is not None:
                    self.client.subscribe(match_topic(match, "+", "#"), qos=1)
        self._hello()

    def _send_ours(self, now: float) -> None:
        """Every action past what the other table holds (again, if it lags a while)."""
        game, match = self._game(), self._match()
        if game is None or match is None or not self.peer_proven or not self.connected:
            return
        if self.peer_agreed != game.agreed:
            return  # one table took back what the other has not yet: it sends its count then
        if self.sent_agreed != game.agreed:
            self.sent_upto, self.sent_agreed = 0, game.agreed  # a new line: from its count
        start = max(self.peer_n, self.sent_upto)
        if start >= len(game.actions) and not (self.peer_n < len(game.actions)
                                                and now - self.sent_at > RESEND_S):
            return
        if start >= len(game.actions):
            start = self.peer_n  # sent, but not acknowledged for a while: again
        for n in range(start + 1, len(game.actions) + 1):
            sealed = self.guard.seal(game, "actions", {"n": n, "agreed": game.agreed,
                                                       "action": game.actions[n - 1]})
            self.client.publish(match_topic(match, self.config.table, "actions"),
                                json.dumps({"match": match, "n": n, "agreed": game.agreed,
                                            "sealed": sealed}), qos=1)
        self.sent_upto, self.sent_at = len(game.actions), now

    def _hand_theirs(self, now: float) -> None:
        """The other table's next action, to the table to light (again after a while: the
        table may have restarted since, and takes the same action twice as once)."""
        game, match = self._game(), self._match()
        if game is None or match is None:
            return
        n = len(game.actions) + 1
        action = self.inbox.get((game.agreed, n))
        if action is None or (self.handed == n and now - self.handed_at < RESEND_S):
            return
        try:
            answer = command_socket.send(self.dir, {"command": "peer", "match": match, "n": n,
                                             "action": action, "agreed": game.agreed},
                                  timeout=3.0)
        except command_socket.ControlUnavailable as exc:
            self._say(f"the table did not take the other table's move: {exc}")
            return
        if answer.get("ok") and not str(answer.get("message", "")).startswith("waiting"):
            self.handed, self.handed_at = n, now
        elif not answer.get("ok"):
            self._say(f"the table refused the other table's move {n}: {answer.get('error')}")

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        broker = self.config.broker
        log.info("linking this table to its matches through %s as table %r", broker,
                 self.config.table)
        self._read_journal()
        connect(self.client, broker, keepalive=10, most=PACKET_MAX)
        threading.Thread(target=self._follow_table, name="remote-table", daemon=True).start()

    def step(self, now: float) -> None:
        """One look at the journal and the inbox."""
        self._read_journal()
        self._ask_setup(now)
        self._offer_claim(now)
        self.guard.summary(now)
        with self._lock:
            self._send_ours(now)
            game = self._game()
            done = (game.agreed, len(game.actions)) if game is not None else (0, 0)
            for key in [k for k in self.inbox if k[0] < done[0] or k <= done]:
                del self.inbox[key]  # recorded here (the journal keeps it), or taken back
        self._hand_theirs(now)

    def run(self) -> None:
        self.start()
        try:
            while not self._stopping.is_set():
                self._wake.wait(LOOK_S)
                self._wake.clear()
                self.step(time.monotonic())
        finally:
            self.handshake.close()
            self.client.disconnect()
            self.client.loop_stop()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()


def run_link(state_dir: str | Path, config: ClubConfig,
             claim_after_min: float | None = None) -> int:
    """Link the table on ``state_dir`` to its matches until SIGTERM or Ctrl-C (0 then);
    ``claim_after_min``: the minutes out of touch after which the person may claim the game."""
    import signal

    from firmware.readers.club.mqtt_command import lock_home
    from firmware.readers.club.safe import CleanFormatter

    handler = logging.StreamHandler()
    handler.setFormatter(CleanFormatter("obelisk remote: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    lock_home(Path(state_dir) / "remote", "obelisk remote", "obelisk-remote")
    link = RemoteLink(config, state_dir, claim_after_min)
    signal.signal(signal.SIGTERM, lambda *_: link.stop())
    signal.signal(signal.SIGINT, lambda *_: link.stop())
    link.run()
    return 0
