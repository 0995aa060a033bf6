"""A match's game as one table's journal holds it, for its link (``firmware.match.link``).

The link reads the journal as it grows: the game's start (which match, which
seat), its seed (sealed in High Rise's journal, opened with the table's own
key: the link runs as the table's user) and each action as its record keeps
it. What the two tables agree before a move crosses is the game, its options
and a commitment to the seed; what crosses is sealed with a key drawn from
the seed, which only the two tables hold.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from firmware.store.history import journals
from firmware.store.journal import Journal, JournalError
from firmware.store.seal import Sealer, SealError


class MatchGame:
    """The match's game as this table's journal holds it: its start, seed and actions."""

    def __init__(self, start: dict, seed: object, actions: list[dict], over: bool,
                 agreed: int = 0, length: int = 1) -> None:
        self.start = start
        self.seed = seed  # opened, where the game seals it (High Rise)
        self.actions = actions  # each action standing, as its record keeps it, in order
        self.over = over
        self.agreed = agreed  # the takebacks the two tables agreed (each action says so)
        self.length = length  # the journal's entries of this game: only ever grows

    @property
    def setting(self) -> dict | None:
        """The match and the seat played here, as the start entry keeps them."""
        kept = self.start.get("remote")  # (with the game of the match, which is no setting)
        if not isinstance(kept, dict):
            return None
        return {key: kept[key] for key in ("match", "seat") if key in kept}

    @property
    def number(self) -> int:
        """Which game of the match this is (the start entry counts them; before it did: 1)."""
        kept = self.start.get("remote")
        number = kept.get("game", 1) if isinstance(kept, dict) else 1
        return number if type(number) is int and number >= 1 else 1

    def fingerprint(self) -> dict:
        """What both tables must agree on before a move crosses: the game, its options and
        a commitment to its seed (never the seed, which would tell hidden values early)."""
        return {"game": self.start.get("game"), "options": self.start.get("options"),
                "extras": self.start.get("extras"), "seed": commitment(self.seed)}

    def sealer(self) -> Sealer:
        """What crosses the broker is sealed with a key drawn from the game's seed, which
        only the two tables hold (with a secret word, no one who reads the broker)."""
        return Sealer.of_key(hashlib.sha256(f"obelisk-match-key:{self.seed}".encode()).digest())


def commitment(seed: object) -> str:
    return hashlib.sha256(f"obelisk-commit:{seed}".encode()).hexdigest()


def read_game(journal: Journal, path: Path | None = None) -> MatchGame | None:
    """The last game the journal started (None: none yet), its sealed entries opened with
    the table's own key (the link runs as the table's user); ``path``: an archived journal
    of the state directory instead of the one kept."""
    entries = journal.read(path).entries
    starts = [i for i, e in enumerate(entries) if e.get("t") == "start"]
    if not starts:
        return None
    game = entries[starts[-1]:]
    start, sealer = game[0], Sealer(journal.dir)
    seed = start.get("seed")
    if "sealed" in start:
        seed = _opened(sealer, start["sealed"]).get("seed")
    actions: list[dict] = []
    agreed = 0
    for entry in game:
        if entry.get("t") == "takeback" and type(entry.get("to")) is int:
            del actions[entry["to"]:]  # (a stone slid on: its move replaced)
            agreed += bool(entry.get("agreed"))
        if entry.get("t") != "action":
            continue
        if "sealed" in entry:
            opened = _opened(sealer, entry["sealed"])
            actions.append({k: v for k, v in opened.items() if k != "reading"})
        elif "action" in entry:
            actions.append(entry["action"])
    return MatchGame(start, seed, actions, any(e.get("t") == "over" for e in game), agreed,
                len(game))


def archived_game(journal: Journal) -> MatchGame | None:
    """The game of the newest journal the table archived (a game ended or set aside), when
    it was a match's (None: none, or it cannot be read)."""
    archived = journals(journal.dir)[:-1]
    try:
        game = read_game(journal, archived[-1]) if archived else None
    except JournalError:
        return None
    return game if game is not None and game.setting else None


def _opened(sealer: Sealer, text: object) -> dict:
    try:
        opened = sealer.unseal(str(text))
    except SealError as exc:
        raise JournalError(f"a sealed entry of the journal cannot be opened: {exc}") from None
    if not isinstance(opened, dict):
        raise JournalError("a sealed entry of the journal holds no object")
    return opened
