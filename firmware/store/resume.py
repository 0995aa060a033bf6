"""Before a table starts: which game the journal holds, and every entry replayed.

A table service restarted by systemd, a demo started again, a person who
typed another game: each must find out what the state directory already
holds before anything is written to it. ``resolve`` decides which game and
options to play: the journal's unfinished game with its own options, unless
the command asked for another game or other options, which is refused with
how to continue or to start afresh (``--new-game`` archives, never deletes).
``replay_journal`` rebuilds the unfinished game through the rules, and names the
file and line of any entry that does not make sense.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from engine.core import S, counted
from engine.errors import ObeliskError
from engine.record import RecordError, options_from_dict
from firmware.contract import GameType
from firmware.games import DEFAULT_GAME, GAMES
from firmware.store.journal import GameEntries, Journal, JournalError

T = TypeVar("T")


class ResumeError(JournalError):
    """The command and the journal disagree about the game; nothing was touched."""


@dataclass(frozen=True)
class Resolved:
    game: GameType
    options: object
    unfinished: GameEntries  # empty when a new game starts
    archived: Path | None = None  # where --new-game put the journal
    extras: dict = field(default_factory=dict)  # what the game is made of (a towers set)

    def make(self):
        """The engine's game these options and extras describe."""
        return self.game.make(self.options, self.extras)


def start_extras(start: dict) -> dict:
    """What a journal's start entry says the game is made of (``--set``, kept whole)."""
    extras = start.get("extras", {})
    if not extras and isinstance(start.get("set"), dict):  # journals of before "extras"
        extras = {"set": start["set"]}
    return extras if isinstance(extras, dict) else {}


def resolve(journal: Journal, wanted: str | None, chosen: Callable[[GameType], dict], *,
            new_game: bool = False, base: dict[str, object] | None = None,
            continue_with: str = "the same command",
            extras: Callable[[GameType], dict] = lambda game: {}) -> Resolved:
    """The game and options to play on ``journal``'s state directory.

    ``wanted`` is the game the command named (None: whatever is there, else
    towers), ``chosen(game)`` the option fields typed for that game (it
    refuses flags of other games), ``base`` what a new game starts with
    besides (a demo's defaults), ``continue_with`` the command that
    continues the unfinished game, for the message, with ``{game}`` for its id,
    and ``extras(game)`` what the command says the game is made of (``--set``).
    """
    archived = None
    if new_game and journal.path.exists():
        try:
            stale = bool(journal.unfinished())
        except JournalError:
            archived = journal.archive()  # damaged: kept aside all the same
        else:
            if stale:
                archived = journal.set_aside("new-game")
    unfinished = journal.unfinished()
    if not unfinished:
        new = GAMES[wanted or DEFAULT_GAME]
        return Resolved(new, new.options_with({**(base or {}), **chosen(new)}), unfinished,
                        archived, extras(new))
    start = unfinished.start
    named = start.get("game")
    game = GAMES.get(named) if isinstance(named, str) else None
    if game is None:
        raise unfinished.damaged(0, f"{start.get('game')!r} is not a game this table plays "
                                    f"(it plays {', '.join(GAMES)})")
    try:
        options = options_from_dict(game.options, start.get("options", {}))
    except RecordError as exc:
        raise unfinished.damaged(0, str(exc)) from None
    kept = start_extras(start)
    other_game = wanted is not None and wanted != game.id
    differ = {} if other_game else \
        {k: v for k, v in chosen(game).items() if getattr(options, k) != v}
    if not other_game:
        differ.update({k: v for k, v in extras(game).items() if kept.get(k) != v})
    if other_game or differ:
        asked = GAMES[wanted or game.id]
        shown = game.describe(options)
        what = f"{game.id} game" + (f" ({shown})" if shown else "")
        other = "another game" if asked is not game else \
            f"other options ({', '.join(_named(game, k, kept.get(k)) for k in differ)})"
        actions = unfinished.standing()
        raise ResumeError(
            f"{journal.dir} holds an unfinished {what}, {counted(actions, 'action')} in, and this "
            f"command asks for {other}. To continue it, run "
            f"{continue_with.format(game=game.id)}; to start the new "
            "game instead, add --new-game (the unfinished game is kept in an archived "
            "journal beside it)")
    return Resolved(game, options, unfinished, archived, kept)


@dataclass(frozen=True)
class Replayed(Generic[S]):
    """Every position of a resumed game, oldest first, and the actions between them."""

    history: tuple[S, ...]
    actions: tuple[object, ...]

    @property
    def state(self) -> S:
        return self.history[-1]


def replay_journal(unfinished: GameEntries, state: S,
                   action_of: Callable[[dict], object]) -> Replayed[S]:
    """Rebuild the game from its entries after the start through the rules.

    ``state`` is the game's first position, ``action_of(entry)`` reads one
    action entry. An entry that is out of sequence, names what the game does
    not have, or breaks the rules, is refused with its file and line.
    """
    history: list[S] = [state]
    actions: list[object] = []
    for index, entry in enumerate(unfinished.entries[1:], 1):
        kind = entry.get("t")
        try:
            if kind == "action":
                number = entry.get("n")
                if number != len(actions) + 1:
                    raise RecordError(f"it is numbered action {number!r}, but action "
                                      f"{len(actions) + 1} comes next (a line repeated or lost?)")
                action = action_of(entry)
                try:
                    state = state.apply_action(action)
                except ObeliskError as exc:
                    raise RecordError(f"action {number} ({action}) is not allowed there: "
                                      f"{exc}") from None
                history.append(state)
                actions.append(action)
            elif kind == "takeback":
                to = entry.get("to")
                if type(to) is not int or not 0 <= to < len(actions):
                    raise RecordError(f"a takeback to action {to!r}, but only 0 to "
                                      f"{len(actions) - 1} can be taken back to")
                del history[to + 1:], actions[to:]
                state = history[-1]
            elif kind in ("over", "negotiation"):  # a result, the asks' records: no position
                continue
            else:
                raise RecordError(f"{kind!r} is not a kind of journal entry (start, action, "
                                  "takeback, over)")
        except (RecordError, KeyError, TypeError) as exc:
            raise unfinished.damaged(index, _words(exc)) from None
    return Replayed(tuple(history), tuple(actions))


def read_start(unfinished: GameEntries, read: Callable[[dict], T]) -> T:
    """What ``read`` makes of the start entry; anything amiss is named with its line."""
    try:
        return read(unfinished.start)
    except (ObeliskError, KeyError, TypeError, ValueError) as exc:
        raise unfinished.damaged(0, f"the game's start entry: {_words(exc)}") from None


def _named(game: GameType, key: str, kept: object) -> str:
    """An option that differs, by its flag, with what the journal has when that has a name
    (a set's)."""
    flag = game.flag_of(key)
    if isinstance(kept, dict) and isinstance(kept.get("name"), str):
        return f"{flag}: the game is played with {kept['name']!r}"
    return flag


def _words(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"the entry has no {exc.args[0]!r}"
    return str(exc)
