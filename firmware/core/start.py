"""Starting a game on the table: a new one journalled, an unfinished one resumed, the next one.

Before a game the table waits in setup; the players' press journals the start (game,
options, seed, what the game is made of, the far seat) and then announces it. At start-up
the journal's unfinished game is rebuilt through the engine's rules from its seed and
actions (``store.resume.replay_journal``), and its end is written if the stop came before
it was. ``Start`` keeps the game's seed and whether its start is on record; one of the
table's collaborators (``firmware.core.table.Table``), which asks the game's table what its
start holds beyond the core's (``_start_entry``, ``_initial``, ``_resumed_from``...).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Generic

from engine.core import S, seeded_start
from engine.record import options_from_dict, options_to_dict
from firmware.core.hooks import V
from firmware.core.table_state import TableState
from firmware.games import GAMES
from firmware.store import standing
from firmware.store.journal import GameEntries, JournalError
from firmware.store.resume import read_start, replay_journal, start_extras
from firmware.store.state_dir import StateDirError

if TYPE_CHECKING:
    from firmware.core.choosing import Choosing
    from firmware.core.hooks import CoreTable
    from firmware.core.takebacks import Takebacks
    from firmware.core.turn import Turn


def fresh_seed() -> int:
    """A new game's seed from the system's randomness, as ``secrets`` would draw it (which
    imports hashlib: longer to start)."""
    return random.SystemRandom().getrandbits(63)


class Start(Generic[V, S]):
    """The game's seed, whether its start is journalled, and how a game starts or resumes."""

    def __init__(self, table: CoreTable[V, S], seed: int, turn: Turn[V, S],
                 choosing: Choosing[V, S], takebacks: Takebacks[V, S]) -> None:
        self._table = table
        self._turn = turn
        self._choosing = choosing
        self._takebacks = takebacks
        self.seed = seed
        self.started = False  # the journal holds this game's start

    def start(self, now: float) -> None:
        """Resume the journal's unfinished game, or wait in setup for a new one."""
        table = self._table
        table._check_journal()
        entries = table.journal.unfinished()
        if not entries:
            table.problem = table.SETUP
            return
        self._resume(entries)

    def _resume(self, entries: GameEntries) -> None:
        table = self._table
        table._open_start(entries)
        spec = GAMES[table.game.id]
        table._play_game(read_start(entries, lambda start: spec.make(
            options_from_dict(spec.options, start["options"]), start_extras(start))))
        first = read_start(entries, self._initial)
        replayed = replay_journal(entries, first, table._action_of)
        table.history, table.actions = list(replayed.history), list(replayed.actions)
        table.position = replayed.state
        self.started = True
        kept = standing.take(table.journal.dir, self.seed, len(table.actions))
        table._resumed_from(entries, kept)
        table.tell("resumed", game=table.game.id, options=options_to_dict(table.game.options),
                   actions=len(table.actions), observation=table.position.observation())
        with table.around.muted():  # what play's start says (the turn's hourglass), the
            table.resumed()  # opening below says again after the whole state: once
            paused = kept.values.get("paused") is True or (  # as it was left, or as the
                table.solo is not None and table.solo.paused_by_agreement())  # match agreed
            if paused and table.may_pause():
                table.pause()
        if table.position.is_terminal():  # its end was not written before the stop
            try:
                table._end()
            except JournalError as exc:  # the disk is still full: each tick tries again
                table.cannot_record(str(exc))
        else:
            # a reader that came before the replay: all of it, then what stands beyond it (the
            # turn's hourglass started as play resumed: told before, a page's reset drops it)
            for event in table.opening(table._now):
                table.emit(event)
            self._turn.tell(None)

    def _initial(self, start: dict[str, Any]) -> S:
        """The first position of a journalled game (chance from its seed)."""
        table = self._table
        self.seed = table._start_seed(start)
        return table._initial(start, self.seed)

    def stopping(self, now: float) -> str:
        """The table stops: keep what the journal does not (``standing``), for the resume.
        Returns what could not be kept, in words ("" when all was)."""
        table = self._table
        values = table.standing(now) if self.started and not table.position.is_terminal() \
            else {}
        if not values:
            return ""
        try:
            standing.keep(table.journal.dir, self.seed, len(table.actions), values)
        except StateDirError as exc:
            return f"{exc}; {table.LOST_AT_STOP}"
        return ""

    def begin(self) -> None:
        """The players begin the game the table shows: its start journalled, the machine
        in play, the start told."""
        table = self._table
        table._beginning()
        state = table.position
        table.journal.append(self.entry(state))
        table.position, table.history, table.actions = state, [state], []
        self.started = True
        table.problem = ""
        table.begin()
        self._announce()

    def entry(self, state: S) -> dict[str, Any]:
        """The journal's start line: game, options, seed, what the game is made of, the far
        seat, as the game writes it (``_start_entry``: High Rise seals the seed)."""
        table = self._table
        entry = {"t": "start", "game": table.game.id,
                 "when": time.strftime("%Y-%m-%d %H:%M"),
                 "options": options_to_dict(table.game.options), "seed": self.seed}
        extras = table.extras()
        if extras:
            entry["extras"] = extras
        solo = table.solo
        if solo is not None:  # a game alone resumes alone, a match as a match (seating)
            entry[solo.solo.journal_key] = solo.start_fields()
        return table._start_entry(entry, state)

    def _announce(self) -> None:
        table = self._table
        first = table.position.current_player()
        table.tell("start", game=table.game.id, options=options_to_dict(table.game.options),
                   players=table.players(), first=first.value if first else None,
                   observation=table.position.observation())
        self._turn.tell(None)

    def next_game(self) -> None:
        """After a game: a new seed, nothing on record, the players set up again."""
        table = self._table
        kept = None if table.solo is None else table.solo.next_seed(self.seed)  # a match's
        self.seed = fresh_seed() if kept is None else kept
        table.position = seeded_start(table.game, self.seed)[0]
        table.history, table.actions = [table.position], []
        self.started = False
        self._takebacks.withdraw()
        self._choosing.withdraw()
        self._turn.lifted = None
        table.problem = table.SETUP
        table.reconsider()
        table.emit(table.public_state())  # every reader draws the new game's setup at once
        table._set_up_again()

    def observation(self) -> dict[str, Any]:
        """The public observation a reader draws now: before a game, the table as it is being
        set out where the game says so (``setup_seen``); else the game's."""
        table = self._table
        seen = table.setup_seen(table.decided) if table.state == TableState.setup else None
        return table.position.observation() if seen is None else seen
