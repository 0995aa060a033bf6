"""Starting a game on the table: a new one journalled, an unfinished one resumed, the next one.

``Starting`` is a part of ``firmware.core.table.Table`` (its state is the table's):
before a game the table waits in setup; the players' press journals the start
(game, options, seed, what the game is made of, the computer's seat) and then
announces it. At start-up the journal's unfinished game is rebuilt through the
engine's rules from its seed and actions (``store.resume.replay_journal``), and its end
is written if the stop came before it was.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engine.core import seeded_start
from engine.record import options_from_dict, options_to_dict
from firmware.core.table_parts import TableParts
from firmware.core.table_state import TableState
from firmware.games import GAMES
from firmware.store import standing
from firmware.store.journal import GameEntries, JournalError
from firmware.store.resume import read_start, replay_journal, start_extras
from firmware.store.state_dir import StateDirError


def fresh_seed() -> int:
    """A new game's seed from the system's randomness, as ``secrets`` would draw it (which
    imports hashlib: longer to start)."""
    return random.SystemRandom().getrandbits(63)


class Starting(TableParts):
    """The table's start of a game, its resume and the next game (a part of ``Table``)."""

    # ------------------------------------------------------------------ starting

    def start(self, now: float) -> None:
        """Resume the journal's unfinished game, or wait in setup for a new one."""
        self._now = now
        entries = self.journal.unfinished()
        if not entries:
            self.problem = self.SETUP
            return
        self._resume(entries)

    def _resume(self, entries: GameEntries) -> None:
        spec = GAMES[self.game.id]
        self.game = read_start(entries, lambda start: spec.make(
            options_from_dict(spec.options, start["options"]), start_extras(start)))
        first = read_start(entries, self._initial)
        replayed = replay_journal(entries, first, self._action_of)
        self.history, self.actions = list(replayed.history), list(replayed.actions)
        self.position = replayed.state
        self.started = True
        kept = standing.take(self.journal.dir, self.seed, len(self.actions))
        self._resumed_from(entries, kept)
        self.tell("resumed", game=self.game.id, options=options_to_dict(self.game.options),
                  actions=len(self.actions), observation=self.position.observation())
        with self.around.muted():  # what play's start says (the turn's hourglass), the
            self.resumed()  # opening below says again after the whole state: once
            if kept.values.get("paused") is True and self.may_pause():  # as it was left
                self.pause()
        if self.position.is_terminal():  # its end was not written before the stop
            try:
                self._end()
            except JournalError as exc:  # the disk is still full: each tick tries again
                self.cannot_record(str(exc))
        else:
            # a reader that came before the replay: all of it, then what stands beyond it (the
            # turn's hourglass started as play resumed: told before, a page's reset drops it)
            for event in self.opening(self._now):
                self.emit(event)
            self._tell_turn(None)

    def _initial(self, start: dict) -> Any:
        """The first position of a journalled game (chance from its seed)."""
        seed = start.get("seed", 0)  # journals before chance moved into the engine: none
        if type(seed) is not int:
            raise ValueError(f"the seed {seed!r} is not a whole number")
        self.seed = seed
        return seeded_start(self.game, self.seed)[0]

    def _resumed_from(self, entries: GameEntries, kept: standing.Kept) -> None:
        """After a resume: what a game must restore beyond its position (``kept``: what
        ``standing`` said at the last stop)."""

    def stopping(self, now: float) -> str:
        """The table stops: keep what the journal does not (``standing``), for the resume.
        Returns what could not be kept, in words ("" when all was)."""
        values = self.standing(now) if self.started and not self.position.is_terminal() else {}
        if not values:
            return ""
        try:
            standing.keep(self.journal.dir, self.seed, len(self.actions), values)
        except StateDirError as exc:
            return f"{exc}; {self.LOST_AT_STOP}"
        return ""

    LOST_AT_STOP = "what stood beyond the moves is not kept"
    """Said when ``stopping`` could not keep it: what the resume will lack."""

    def standing(self, now: float) -> dict:
        """What stands now beyond the moves, as plain values: a pause (and a game's own, as
        a turn's hourglass); {}: nothing."""
        return {"paused": True} if self.state == TableState.paused else {}

    def _begin_game(self) -> None:
        """Journal the start of a new game from the start position the table shows."""
        state = self.position
        self.journal.append(self._start_entry(state))
        self.position, self.history, self.actions = state, [state], []
        self.started = True
        self.problem = ""

    def _start_entry(self, state: Any) -> dict:
        """The journal's start line: game, options, seed, what the game is made of."""
        entry = {"t": "start", "game": self.game.id, "when": time.strftime("%Y-%m-%d %H:%M"),
                 "options": options_to_dict(self.game.options), "seed": self.seed}
        extras = self.extras()
        if extras:
            entry["extras"] = extras
        if self.solo is not None:  # a game alone resumes alone, a match as a match (resume_*)
            entry[self.solo.solo.journal_key] = self.solo.solo.to_dict()
        return entry

    def extras(self) -> dict:
        """What the game is made of beyond its options (a towers set), for the journal; the
        command socket's ``end`` and ``new`` set the same game up again with it."""
        return {}

    def _announce_start(self) -> None:
        first = self.position.current_player()
        self.tell("start", game=self.game.id, options=options_to_dict(self.game.options),
                  players=self.players(), first=first.value if first else None,
                  observation=self.position.observation())
        self._tell_turn(None)

    def _observation(self) -> dict:
        """The public observation a reader draws now: before a game, the table as it is being
        set out where the game says so (``setup_seen``); else the game's."""
        seen = self.setup_seen(self.decided) if self.state == TableState.setup else None
        return self.position.observation() if seen is None else seen

    def setup_seen(self, view: Any) -> dict | None:
        """Before a game: the game's start as far as the sensors (``view``; None: no reading
        yet) see it set out, as an observation, for a game whose start has pieces on the
        board (stones); None where the start's own observation shows the table as it is."""
        return None

    def _next_game(self) -> None:
        """After a game: a new seed, nothing on record, the players set up again."""
        kept = None if self.solo is None else self.solo.next_seed(self.seed)  # a match's own
        self.seed = fresh_seed() if kept is None else kept
        self.position = seeded_start(self.game, self.seed)[0]
        self.history, self.actions = [self.position], []
        self.started, self.offer, self.candidates, self.chooser = False, None, (), None
        self.lifted = None
        self.problem = self.SETUP
        self.reconsider()
        self.emit(self.public_state())  # every reader draws the new game's setup at once
