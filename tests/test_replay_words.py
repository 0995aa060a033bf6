"""A finished game's replay says each move as the table said it live (issue 32, point 8).

The page's replay read "3 of 20. player A choose B01": the record's notation, with
a towers block id the table cannot know, where the live moves list had said "chose
a blue block for the building zone". Notation stays in the score sheet (a record);
the replay a person steps through uses the moves list's words.
"""

from __future__ import annotations

import pytest

from firmware.readers.web.records import listing, replay_steps
from tests.test_words import CAL, _played, _table


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_the_replay_says_each_move_as_the_live_moves_list_did(game_id, tmp_path):
    table = _table(game_id, tmp_path)
    _played(table, 30)
    if game_id == "highrise":  # what the load cells read: sealed in the journal with each move
        table.accepted = table.reading = CAL.zero
    journal = table.journal
    journal.append(table._start_entry(table.history[0]))
    for n, action in enumerate(table.actions, 1):
        journal.append({"t": "action", "n": n, **table._entry_of(action)})
    journal.append({"t": "over", "result": {"words": "stopped by hand", "winner": None}})
    [game] = listing(tmp_path)["games"]
    steps = replay_steps(tmp_path, game["id"])["steps"][1:]
    live = table.public_state()["moves"]
    assert len(steps) == len(live) >= 10
    assert [(s["player"], s["text"]) for s in steps] == [(m["player"], m["text"]) for m in live]
