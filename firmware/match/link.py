"""``obelisk remote``: the link between a table and the club's broker, which carries its match.

The table service has no network; this reader, beside it, carries its match.
It follows the table's journal (the match's game is the last one started;
its start entry names the match and the seat played here: ``playing``) and
holds its two sides: toward the broker (``broker_side``: what this table
holds and sends, and the other table as it knows it, ``other_table``) and
toward its own table (``table_side``: the other table's next action, the
messages of its asks and its hourglass handed in as local commands; this table's events
read). The journal is the outbox: written whole and fsynced before the table
shows a move, read again after any restart, so nothing is lost; a repeat is
harmless, since the table takes an action by its number once. Every action
and count says how many takebacks the two tables agreed before it: an
action of a line taken back is never handed on.

Each player's hourglass runs on their own table; the link tells the other
table each change of it, which shows it from those reports (and holds it
still while that table is out of touch: ``firmware.match.far_clock``).

A table takes actions only from the table whose ``hello`` this game's key
opens, and only when game, options and seed are its own; everything crosses
sealed, naming its topic, its table and its place (``guard``), so a third
client on the broker can neither forge nor replay a move, an ask or a count,
and a giant message never reaches the link (``messages``).
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from firmware.match.broker_side import BrokerSide
from firmware.match.playing import Playing
from firmware.match.table_side import TableSide
from firmware.readers.club.config import ClubConfig
from firmware.store.journal import Journal, JournalError

log = logging.getLogger("obelisk.remote")

LOOK_S = 0.02
"""How often the journal is looked at for a new action (its size and time: cheap)."""
SETUP_EVERY_S = 1.0
"""How often the table is asked which match it is set up for, while its journal holds none
under way (a page may set one up)."""


class Link:
    """One table's link: the match it plays (``playing``), its side toward the broker
    (``broker``) and toward its own table (``table``), stepped by one loop."""

    def __init__(self, config: ClubConfig, state_dir: str | Path,
                 claim_after_min: float | None = None) -> None:
        self.config = config
        self.dir = Path(state_dir)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._asked_at = -SETUP_EVERY_S
        self.playing = Playing(Journal(self.dir))
        self.table = TableSide(self.dir, self.playing)
        self.broker = BrokerSide(config, self.playing, self.table, self._lock, self._wake,
                                 self._stopping,
                                 None if claim_after_min is None else claim_after_min * 60)

    def read_journal(self) -> bool:
        """Read the journal again if it changed; True when it did."""
        playing = self.playing
        if not playing.grew():
            return False
        try:
            game = playing.read()
        except JournalError as exc:
            self.table.say(f"cannot read the table's journal: {exc}")
            return False
        before = playing.name()
        with self._lock:
            if playing.take(game) and playing.name() == before:
                self.broker.other.weigh_hellos()  # a new game of the match: a new key
        self.broker.matched(before)
        return True

    def _ask_setup(self, now: float) -> None:
        """Before its game starts, what match the table is set up for (the page may set one
        up), so that the two tables find each other while their players set out the pieces."""
        if now - self._asked_at < SETUP_EVERY_S or self.playing.under_way():
            return
        self._asked_at = now
        setup = self.table.set_up()
        if setup is False or setup == self.playing.setup:
            return
        before = self.playing.name()
        with self._lock:
            self.playing.setup = setup if isinstance(setup, dict) else None
        self.broker.matched(before)

    def _hand_theirs(self, now: float) -> None:
        """The other table's next action, to the table to light."""
        game, match = self.playing.current(), self.playing.name()
        if game is None or match is None:
            return
        n = len(game.actions) + 1
        action = self.broker.other.inbox.get((game.agreed, n))
        if action is not None:
            self.table.hand_action(now, match, n, action, game.agreed)

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        log.info("linking this table to its matches through %s as table %r",
                 self.config.broker, self.config.table)
        self.read_journal()
        self.broker.connect()
        threading.Thread(target=self.table.follow, args=(self._stopping, self.broker.heard),
                         name="link-table", daemon=True).start()

    def step(self, now: float) -> None:
        """One look at the journal and the inbox."""
        self.read_journal()
        self._ask_setup(now)
        self.broker.other.offer_claim(now)
        self.broker.guard.summary(now)
        self.broker.say_again(now)
        with self._lock:
            self.broker.send_ours(now)
            game = self.playing.current()
            done = (game.agreed, len(game.actions)) if game is not None else (0, 0)
            inbox = self.broker.other.inbox
            for key in [k for k in inbox if k[0] < done[0] or k <= done]:
                del inbox[key]  # recorded here (the journal keeps it), or taken back
        self._hand_theirs(now)
        self.table.hand_owed()

    def run(self) -> None:
        self.start()
        try:
            while not self._stopping.is_set():
                self._wake.wait(LOOK_S)
                self._wake.clear()
                self.step(time.monotonic())
        finally:
            self.broker.close()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()


def run_link(state_dir: str | Path, config: ClubConfig,
             claim_after_min: float | None = None) -> int:
    """Link the table on ``state_dir`` to its matches until SIGTERM or Ctrl-C (0 then, once
    the broker holds this table offline: ``BrokerSide.close``);
    ``claim_after_min``: the minutes out of touch after which the person may claim the game."""
    import signal

    from firmware.readers.club.mqtt_command import lock_home
    from firmware.readers.club.safe import CleanFormatter

    handler = logging.StreamHandler()
    handler.setFormatter(CleanFormatter("obelisk remote: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    lock_home(Path(state_dir) / "remote", "obelisk remote", "obelisk-remote")
    link = Link(config, state_dir, claim_after_min)
    signal.signal(signal.SIGTERM, lambda *_: link.stop())
    signal.signal(signal.SIGINT, lambda *_: link.stop())
    link.run()
    return 0
