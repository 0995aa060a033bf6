"""Whole remote matches of towers and the maze through a real mosquitto: each table an
``obelisk demo GAME --remote ... --seat X`` with its ``obelisk remote`` link, the other
table's moves made as the LEDs show them, and a fault on the way (the towers match's
second link cut off the network for 20 s, the maze's second table killed and started again).
They start with the session (``conftest.py``, ``whole_matches``) and play while the other
tests run; these tests check how they ended.
"""

from __future__ import annotations

import pytest

from tests.support.remote import journal_of


@pytest.mark.parametrize("game", ["towers", "maze"])
def test_a_whole_match_ends_with_both_journals_holding_the_same_game(whole_matches, game):
    a, b = whole_matches.ended(game, 600)
    ours, theirs = journal_of(a), journal_of(b)
    assert [e for e in ours if e["t"] != "start"] == [e for e in theirs if e["t"] != "start"]
    numbers = [e["n"] for e in ours if e["t"] == "action"]
    assert numbers == list(range(1, len(numbers) + 1))  # none lost, none twice
    assert len(numbers) > 10  # a whole game, to its end
    assert ours[0]["seed"] == theirs[0]["seed"]
    assert {ours[0]["remote"]["seat"], theirs[0]["remote"]["seat"]} == {"A", "B"}
    assert ours[-1]["t"] == "over" and ours[-1]["result"] == theirs[-1]["result"]
    assert any(done.startswith(f"{game}: ") for done in whole_matches.faults)
