"""Which match a table plays now, as its link follows it: the journal's game (read again
whenever the journal grows), or, before that game starts or after the last one ended, the
match the table is set up for (its ``status`` answer).

Both sides of the link (``broker_side``, ``table_side``) read it; the link alone changes it,
under the lock it shares with its broker side.
"""

from __future__ import annotations

from firmware.match.game import MatchGame, archived_game, read_game
from firmware.store.journal import Journal


class Playing:
    """The match a table plays: its journal's game, the one before it, the match set up."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.game: MatchGame | None = None  # the journal's last game, when it is a match's
        self.last_game: MatchGame | None = None  # the match's game before the journal moved on
        self.setup: dict | None = None  # the match the table is set up for, before its game
        self.before: MatchGame | None = None  # the match's game before the journal's one
        self._looked_back = False  # (the archive read for it, once, as the link starts)
        self._size = -1
        self._seed: object = None  # the seed of the game read last (a new one: a new key)

    def grew(self) -> bool:
        """Whether the journal changed since it was last looked at (its size: cheap)."""
        try:
            size = self.journal.path.stat().st_size
        except OSError:
            size = 0
        if size == self._size:
            return False
        self._size = size
        return True

    def read(self) -> MatchGame | None:
        """The journal's last game, read again (JournalError: it cannot be read)."""
        return read_game(self.journal)

    def take(self, game: MatchGame | None) -> bool:
        """``game``, read from the journal, is the one played now; True when its seed is new
        (a new game: a new key)."""
        if not self._looked_back:  # (a link started between two games knows the last one)
            self._looked_back = True
            self.before = archived_game(self.journal)
        now = game if game is not None and game.setting else None
        if self.game is not None and (now is None or now.start != self.game.start):
            self.before = self.game
        self.last_game = self.game or self.last_game or self.before
        self.game = now
        seed, self._seed = self._seed, None if self.game is None else self.game.seed
        return self._seed != seed

    def setting(self) -> dict | None:
        """The match this table plays: its journal's game, or, before that game starts (or
        after the last ended), the match the table is set up for (asked of the table)."""
        game = self.game
        if game is not None and game.setting and (not game.over or self.setup is None
                                                  or self.setup == game.setting):
            return game.setting
        return self.setup

    def earlier(self) -> MatchGame | None:
        """This match's game before the journal's (ended or set aside; None: none): the other
        table may still be in it, and its asks' messages of it are sealed with its key."""
        before, match = self.before, self.name()
        if before is None or match is None or (before.setting or {}).get("match") != match:
            return None
        return before

    def current(self) -> MatchGame | None:
        """The journal's game, if it is the match's (not one before it)."""
        game, setting = self.game, self.setting()
        return game if game is not None and setting is not None and game.setting == setting \
            else None

    def under_way(self) -> bool:
        """Whether the journal holds a game of a match that is not over."""
        return self.game is not None and bool(self.game.setting) and not self.game.over

    def name(self) -> str | None:
        """The match's name (None: no match)."""
        setting = self.setting()
        return setting.get("match") if setting else None

    def seat(self) -> str | None:
        """The seat played here, "A" or "B" (None: no match)."""
        setting = self.setting()
        return setting.get("seat") if setting else None
