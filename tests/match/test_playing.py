"""What a link follows (``firmware.match.playing``): the journal's game of the match, also
once it is over and the table that played it has gone."""

from __future__ import annotations

from firmware.match.playing import Playing
from firmware.store.journal import Journal


def test_a_finished_game_is_still_the_matchs_while_the_table_is_set_up_for_that_match(
        tmp_path):
    """The start entry also counts the game of the match; the table's setup (its status
    answer) does not. The maze's whole match stalled on it: the winner's table ended, its
    link took the finished game for another match's and said 0 actions, so the loser's
    table never got the last move."""
    journal = Journal(tmp_path)
    journal.append({"t": "start", "game": "maze", "options": {}, "seed": 5,
                    "remote": {"match": "derby", "seat": "A", "game": 1}})
    journal.append({"t": "action", "n": 1, "action": {"a": "pass"}})
    journal.append({"t": "over", "result": {}})
    playing = Playing(journal)
    playing.take(playing.read())
    playing.setup = {"match": "derby", "seat": "A"}  # what the table says it is set up for
    game = playing.current()
    assert game is not None and len(game.actions) == 1
    assert playing.name() == "derby" and playing.seat() == "A"
