"""The finished games of the state directory, for the page's history: listed, downloaded,
replayed move by move.

Read-only and only through ``firmware.store.history``: a game is found by its id
among the journals of the state directory, never by a path, so nothing
outside it can be asked for. An id is exactly eight hex digits (what
``obelisk games`` prints); anything else is refused before any file is
read. Only games that ended (played out or set aside) are listed, so a High
Rise game still being played (sealed in its journal) is never listed nor
served.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.players import Player
from engine.record import RecordError, options_from_dict
from firmware.games import GAMES
from firmware.seats.solo import Solo
from firmware.store.history import (
    FinishedGame,
    HistoryError,
    computer_of,
    export_json,
    export_text,
    finished_games,
    moves,
    replayed,
)

GAME_ID = re.compile(r"[0-9a-f]{8}")


class NotServed(Exception):
    """A request for a game that cannot be answered: the HTTP status and what to do."""

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status = status
        self.words = words


def listing(state_dir: Path) -> dict:
    """Every finished game, newest first, with where to fetch it."""
    try:
        games, warnings = finished_games(state_dir)
    except HistoryError as exc:
        raise NotServed(404, str(exc)) from None
    return {"games": [_summary(g) for g in reversed(games)], "warnings": warnings}


def _summary(game: FinishedGame) -> dict:
    return {"id": game.id, "when": game.when, "game": game.game, "options": _options(game),
            "result": game.ending,
            "json": f"/games/{game.id}.json", "text": f"/games/{game.id}.txt",
            "replay": f"/games/{game.id}/replay"}


def _options(game: FinishedGame) -> str:
    spec = GAMES.get(game.game)
    if spec is None:  # a game this table no longer plays
        return ""
    try:
        described = spec.describe(options_from_dict(spec.options, game.start["options"]))
    except (AttributeError, KeyError, RecordError):
        return ""
    return described or "the defaults"


def finished(state_dir: Path, game_id: str) -> FinishedGame:
    """The finished game with exactly this id; NotServed for a malformed or unknown one."""
    game_id = game_id.lower()  # as `obelisk export` takes it
    if not GAME_ID.fullmatch(game_id):
        raise NotServed(400, f"{game_id[:40]!r} is not a game id: an id is 8 hex digits, as "
                             "the history (/games) lists them")
    try:
        games, _ = finished_games(state_dir)
    except HistoryError as exc:
        raise NotServed(404, str(exc)) from None
    for game in games:
        if game.id == game_id:
            return game
    raise NotServed(404, f"no finished game {game_id} on this table: the history (/games) "
                         "lists them")


def download(state_dir: Path, game_id: str, form: str) -> tuple[str, str]:
    """(file name, contents) of a game's record as ``obelisk export`` writes it."""
    game = finished(state_dir, game_id)
    write = export_json if form == "json" else export_text
    try:
        text = write(game, state_dir)
    except HistoryError as exc:
        raise NotServed(409, str(exc)) from None
    return f"obelisk-{game.game}-{game.id}.{form}", text


def replay_steps(state_dir: Path, game_id: str) -> dict:
    """The game move by move: the public observation after each action, with its words."""
    game = finished(state_dir, game_id)
    try:
        record, states = replayed(game, state_dir)
    except HistoryError as exc:
        raise NotServed(409, str(exc)) from None
    declared = GAMES.get(game.game)
    played = moves(record, states)
    if declared is not None:  # each move as the table said it live, not its notation
        table = declared.table_class()
        said = table.__new__(table)._done  # given the position, it needs no devices
        from_dict = declared.codec()[1]
        played = [(player, said(from_dict(data), state)) for (player, _), data, state
                  in zip(played, record.actions, states, strict=False)]
    steps = [{"player": None, "text": "the start", "observation": states[0].observation()}]
    steps += [{"player": player, "text": text, "move": data, "observation": state.observation()}
              for (player, text), data, state in zip(played, record.actions, states[1:],
                                                     strict=True)]
    outcome = states[-1].outcome()
    seats = dict(declared.table_class().SEATS) if declared else {"A": "player A", "B": "player B"}
    players, computer = seats, computer_of(game.start)
    if computer is not None:  # played alone: the page names the computer's seat as it did live
        players = Solo(Player(computer["seat"]), computer["level"]).marked(seats)
    return {"id": game.id, "game": game.game, "page": declared.page if declared else "",
            "when": game.when, "options": _options(game),
            "players": players,
            "outcome": outcome.to_dict(seats) if outcome is not None else None, "steps": steps}
