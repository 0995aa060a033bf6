"""Game history: the games a state directory keeps, listed and exported.

Every game the table played is in a journal of its state directory: the
current ``journal.jsonl`` and the archived ``journal-*.jsonl`` beside it
(older journals are moved aside, never deleted). A game is a start entry, its
actions and takebacks, and how it ended: an ``over`` entry with the result
when it was played out; an ``ended`` entry saying how it was set aside before
(End the game, ``--new-game``); or none at all, when another game starts after
it or its journal was archived with it unfinished. Every one of them is
finished and listed, with how it ended; only the game still on (the last of
the current journal, not over) is not.

A game's id is a short hash of its entries: a finished game never changes,
so its id stays the same wherever its journal is moved. ``export`` writes
the record ``engine.record.replay`` reads back (JSON), or a text record a
person reads, one numbered line per action, as PGN reads for chess. High
Rise keeps its start and actions sealed; they are opened here with the
state directory's key, and only for games that ended (never the one on).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from engine.record import Record, RecordError, options_from_dict, replay_record
from firmware.games import GAMES
from firmware.store.journal import ENDED, ENDS, JOURNAL, GameEntries, Journal, JournalError
from firmware.store.seal import Sealer, SealError
from firmware.store.state_dir import StateDirError


class HistoryError(StateDirError):
    """A game that cannot be listed or exported, with what to do."""


SET_ASIDE = {"end": "ended unfinished (End the game)",
             "new-game": "left unfinished for a new game (--new-game)",
             "agreed": "ended unfinished (both tables of the match agreed)",
             "claim-A": "claimed by player A (player B's table was out of touch)",
             "claim-B": "claimed by player B (player A's table was out of touch)"}
"""How a game not played out ended, by its ``ended`` entry's ``how``, in words."""
LEFT = "left unfinished"
"""A game not played out that says nothing of how (another started after it; an archive
of before the ``ended`` entry)."""


@dataclass(frozen=True)
class FinishedGame:
    id: str
    entries: GameEntries

    @property
    def start(self) -> dict:
        return self.entries.start

    @property
    def game(self) -> str:
        return str(self.start.get("game", "?"))

    @property
    def when(self) -> str:
        return str(self.start.get("when", "-"))

    @property
    def state_dir(self) -> Path:
        """The directory whose journal holds it (with the seal key that opens it)."""
        return self.entries.path.parent

    @property
    def result(self) -> dict:
        """The outcome of a game played out (``Outcome.to_dict``); {} for one set aside."""
        return (self.entries.entries[-1].get("result") or {}) if self.over else {}

    @property
    def over(self) -> bool:
        """Whether it was played out to a result (else it was set aside before)."""
        return self.entries.entries[-1].get("t") == "over"

    @property
    def ending(self) -> str:
        """How it ended, in words: its result, or how it was set aside and how far in."""
        if self.over:
            return self.result.get("words") or _old_result(self.result)
        last = self.entries.entries[-1]
        said = last.get("how") if last.get("t") == ENDED else None
        how = SET_ASIDE.get(said, LEFT) if isinstance(said, str) else LEFT
        played = self.entries.standing()
        return f"{how}, {played} action{'' if played == 1 else 's'} in"

    def summary(self) -> str:
        """One line: id, when, game, options, how it ended."""
        spec = GAMES.get(self.game)
        options = ""
        if spec is not None:
            try:
                options = spec.describe(options_from_dict(spec.options, self.start["options"]))
            except (RecordError, KeyError):
                options = "(options unreadable)"
        computer = computer_words(self.game, self.start)
        return "  ".join(part for part in (self.id, self.when, self.game, options or "-",
                                           computer and f"computer: {computer}", self.ending)
                         if part)


def computer_of(start: dict) -> dict | None:
    """The computer's seat and level a game's start records (``{"seat": "B", "level": 3}``,
    as ``firmware.seats.solo.Solo`` journals it); None: two people played, or the record
    is from before the table kept it."""
    kept = start.get("solo")
    if not isinstance(kept, dict) or kept.get("seat") not in ("A", "B") \
            or type(kept.get("level")) is not int:
        return None
    return {"seat": kept["seat"], "level": kept["level"]}


def computer_words(game: str, start: dict) -> str:
    """Who the computer was, as the game names its seats ("player B, level 3"; "": none)."""
    kept = computer_of(start)
    if kept is None:
        return ""
    spec = GAMES.get(game)
    seats = spec.table_class().SEATS if spec is not None else {}
    return f"{seats.get(kept['seat'], 'player ' + kept['seat'])}, level {kept['level']}"


def _old_result(result: dict) -> str:
    """A result written before the one ``Outcome`` shape (winner only)."""
    winner = result.get("winner")
    return f"player {winner} wins" if winner else "a draw" if "winner" in result else "?"


def journals(state_dir: Path) -> list[Path]:
    """The state directory's journals, oldest first (archives are named by date, and two of
    one second numbered: ``journal-<date>.jsonl``, then ``journal-<date>.1.jsonl``)."""
    def made(path: Path) -> tuple[str, int]:
        date, _, n = path.name.removesuffix(".jsonl").partition(".")
        return date, int(n) if n.isdigit() else 0

    return [*sorted(state_dir.glob("journal-*.jsonl"), key=made), state_dir / JOURNAL]


def finished_games(state_dir: str | Path) -> tuple[list[FinishedGame], list[str]]:
    """Every game played out or set aside, oldest first (not the one still on), and a
    warning for each journal that cannot be read."""
    state_dir = Path(state_dir)
    if not state_dir.is_dir():
        raise HistoryError(f"{state_dir} is not a state directory: name the one the table "
                           "uses with --state-dir")
    found, warnings = [], []
    for path in journals(state_dir):
        if not path.exists():
            continue
        try:
            entries = Journal(state_dir).read(path).entries
        except JournalError as exc:
            warnings.append(f"skipped: {exc}")
            continue
        found += _games_in(path, entries)
    return found, warnings


def _games_in(path: Path, entries: tuple[dict, ...]) -> list[FinishedGame]:
    """The games of one journal that ended: at their ``over`` or ``ended`` entry, at the
    next start, or at the end of an archived journal (the current one's last game is on)."""
    found: list[FinishedGame] = []
    start: int | None = None  # where the game being read began

    def ended(begin: int, stop: int) -> None:
        game = entries[begin:stop]
        found.append(FinishedGame(_id(game), GameEntries(path, game, begin + 1)))

    for index, entry in enumerate(entries):
        kind = entry.get("t")
        if kind == "start":
            if start is not None:  # left unfinished, and another begun
                ended(start, index)
            start = index
        elif kind in ENDS and start is not None:
            ended(start, index + 1)
            start = None
    if start is not None and path.name != JOURNAL:
        ended(start, len(entries))
    return found


def fingerprint(entries: tuple[dict, ...]) -> str:
    """The whole hash of a game's entries (its id is the start of it): the same game gives
    the same fingerprint wherever its journal is moved."""
    text = "\n".join(json.dumps(e, sort_keys=True, separators=(",", ":")) for e in entries)
    return hashlib.sha256(text.encode()).hexdigest()


def _id(entries: tuple[dict, ...]) -> str:
    return fingerprint(entries)[:8]


def finished_in(places: list[Path]) -> tuple[list[tuple[Path, list[FinishedGame]]],
                                              list[str]]:
    """The finished games of each of ``places`` that holds some (one that does not exist
    holds none), and a warning for each journal or directory that cannot be read."""
    found, warnings = [], []
    for place in places:
        try:
            games, said = finished_games(place) if place.is_dir() else ([], [])
        except OSError as exc:
            warnings.append(f"skipped {place}: it cannot be read ({exc.strerror or exc}); run "
                            "as the table's user, or name it with --state-dir")
            continue
        warnings += said
        if games:
            found.append((place, games))
    return found, warnings


def find(state_dir: str | Path, game_id: str) -> FinishedGame:
    """The finished game with this id (or a unique start of it)."""
    games, _ = finished_games(state_dir)
    return _one(games, game_id, str(state_dir))


def find_in(places: list[Path], game_id: str) -> FinishedGame:
    """The finished game with this id (or a unique start of it) in any of ``places``."""
    found, _ = finished_in(places)
    where = ", ".join(str(p) for p in places[:-1]) + f" or {places[-1]}" if len(places) > 1 \
        else str(places[0])  # "A", "A or B", "A, B or C"
    return _one([game for _, games in found for game in games], game_id, where)


def _one(games: list[FinishedGame], game_id: str, where: str) -> FinishedGame:
    matches = [g for g in games if g.id.startswith(game_id.lower())]
    if not matches:
        raise HistoryError(f"no game {game_id!r} in {where}: `obelisk games` lists "
                           "them")
    if len({g.id for g in matches}) > 1:
        raise HistoryError(f"{game_id!r} starts the ids of {len(matches)} games: type more of it")
    return matches[-1]


def record_of(finished: FinishedGame, state_dir: str | Path) -> Record:
    """The game as a record: game, options, seed and its actions after takebacks."""
    sealer = Sealer(state_dir)
    start = _opened(finished.start, sealer)
    actions: list[dict] = []
    for entry in finished.entries.entries[1:-1]:
        if entry.get("t") == "action":
            actions.append(_opened(entry, sealer).get("action", {}))
        elif entry.get("t") == "takeback":
            del actions[entry.get("to", len(actions)):]
    seed = start.get("seed", 0)
    extras = start.get("extras", {})
    return Record(finished.game, dict(start.get("options", {})), seed if type(seed) is int else 0,
                  tuple(actions), extras if isinstance(extras, dict) else {})


def _opened(entry: dict, sealer: Sealer) -> dict:
    """A sealed entry opened with the state directory's key (High Rise)."""
    if "sealed" not in entry:
        return entry
    try:
        opened = sealer.unseal(entry["sealed"])
    except SealError as exc:
        raise HistoryError(f"a sealed game cannot be opened: {exc}") from None
    if not isinstance(opened, dict):
        raise HistoryError("a sealed entry does not hold an object")
    if entry.get("t") == "action" and "action" not in opened:
        opened = {"action": opened}
    return {**entry, **opened}


def replayed(finished: FinishedGame, state_dir: str | Path) -> tuple[Record, list]:
    """The record and every position, rebuilt through the rules."""
    record = record_of(finished, state_dir)
    spec = GAMES.get(record.game)
    if spec is None:
        raise HistoryError(f"{record.game!r} is not a game this table knows")
    try:
        game = spec.make(options_from_dict(spec.options, record.options), record.extras)
        from_dict = spec.codec()[1]
        return record, replay_record(game, record, from_dict)
    except (RecordError, ValueError) as exc:
        raise HistoryError(f"game {finished.id} does not replay: {exc}") from None


def export_json(finished: FinishedGame, state_dir: str | Path) -> str:
    record, _ = replayed(finished, state_dir)  # only what replays is exported
    data = {**record.to_dict(), "id": finished.id, "when": finished.when,
            "result": finished.result}
    if not finished.over:  # set aside before its end: how, and how far in
        data["ended"] = finished.ending
    computer = computer_of(finished.start)
    if computer is not None:  # playing alone: the computer's seat and level
        data["solo"] = computer
    return json.dumps(data) + "\n"


def export_text(finished: FinishedGame, state_dir: str | Path) -> str:
    record, states = replayed(finished, state_dir)
    spec = GAMES[record.game]
    outcome = states[-1].outcome()
    seats = spec.table_class().SEATS
    options = spec.describe(options_from_dict(spec.options, record.options)) or "the defaults"
    lines = [f'[Game "{record.game}"]', f'[Id "{finished.id}"]', f'[Date "{finished.when}"]',
             f'[Options "{options}"]', f'[Seed "{record.seed}"]']
    computer = computer_words(record.game, finished.start)
    if computer:
        lines.append(f'[Computer "{computer}"]')
    lines += [f'[Result "{outcome.words(seats) if outcome else finished.ending}"]', ""]
    lines += [f"{number}. {player} {text}"
              for number, (player, text) in enumerate(moves(record, states), 1)]
    if outcome is not None:
        lines += ["", outcome.words(seats)]
        for player, rows in outcome.to_dict()["breakdown"].items():
            lines += [f"  {player}: {row}" for row in rows]
    return "\n".join(lines) + "\n"


def moves(record: Record, states: list) -> list[tuple[str, str]]:
    """Each action of a replayed record: who played it ("A", "B" or "-") and its notation."""
    from_dict = GAMES[record.game].codec()[1]
    out = []
    for state, data in zip(states, record.actions, strict=False):
        action = from_dict(data)
        player = state.actor(action)
        out.append((player.value if player else "-", state.action_to_string(action)))
    return out
