"""Which far seat a table is made with: the one asked for, or its journal's unfinished game's.

A game begun alone resumes alone, and a game begun as a match resumes as the same match and
seat, however the table was started again (systemd runs ``obelisk run`` with no ``--solo``).
A restart that asks for another setting than the journal's is refused before the table is
made, nothing touched, as other game options are. The table is then made with its seat and
never changes it: the core knows nothing of the computer or of a match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from firmware.store.journal import GameEntries, Journal, JournalError
from firmware.store.resume import read_start

if TYPE_CHECKING:
    from firmware.seats.far_seat import FarSeat


def seated(journal: Journal, game_id: str, given: FarSeat | None) -> FarSeat | None:
    """The far seat of a table about to play ``game_id`` from ``journal``: ``given`` (the
    command's: the computer, the other table of a match, or None for two people here)
    unless the journal's unfinished game says otherwise; JournalError when the two differ."""
    entries = journal.unfinished()
    if not entries:
        return given
    start = entries.entries[0]
    if given is None and start.get("solo") is None and start.get("remote") is None:
        return None  # two people play here, as before: the seats' modules are not loaded
    return _as_match(entries, journal, game_id, _as_alone(entries, journal, game_id, given))


def _as_alone(entries: GameEntries, journal: Journal, game_id: str,
              given: FarSeat | None) -> FarSeat | None:
    from firmware.seats.solo import Computer, Solo, solo_in_start

    kept = read_start(entries, solo_in_start)
    asked = None if given is None else given.solo
    if asked is not None and asked != kept and (kept is not None or isinstance(asked, Solo)):
        alone = "two people play" if kept is None else kept.words()
        raise JournalError(
            f"{journal.dir} holds an unfinished {game_id} game where {alone}, and "
            f"this command asks for a game where {asked.words()}. To continue it, run the "
            f"command without {asked.flags}; to start the new game instead, add --new-game "
            "(the unfinished game is kept in an archived journal beside it)")
    if kept is not None and given is None:
        return Computer(kept, game_id)
    return given


def _match_in_start(start: dict[str, Any]) -> Any:
    from firmware.match.seat import Match

    return None if start.get("remote") is None else Match.from_dict(start["remote"])


def _as_match(entries: GameEntries, journal: Journal, game_id: str,
              given: FarSeat | None) -> FarSeat | None:
    from firmware.match.negotiation_dicts import facts_in
    from firmware.match.negotiation_values import AskUnfit
    from firmware.match.seat import MatchSeat

    kept = read_start(entries, _match_in_start)
    if kept is None:
        return given
    asked = None if given is None else given.solo
    if asked is not None and asked != kept:
        raise JournalError(
            f"{journal.dir} holds an unfinished {game_id} game where "
            f"{kept.words()}, and this command asks for a game where {asked.words()}. To "
            f"continue it, run the command without {asked.flags} (or with --remote "
            f"{kept.name} --seat {kept.seat.value}); to start the new game instead, add "
            "--new-game (the unfinished game is kept in an archived journal beside it)")
    agreed = sum(1 for e in entries.entries if e.get("t") == "takeback"
                 and e.get("agreed"))  # both tables count them alike
    match = given.match if isinstance(given, MatchSeat) else kept  # the same match
    game = entries.start["remote"].get("game", 1)  # (a journal before games were counted: 1)
    try:
        facts = tuple(facts_in(entries.entries))
    except AskUnfit as exc:
        raise entries.damaged(0, str(exc)) from None
    return MatchSeat(match, game_id, agreed, game if type(game) is int else 1, facts)
