"""No dead ends: every state of every table's machine has an input that leaves it.

A table that asks for something no button, piece or clock can give is a
game stuck for good. For each table and each state of its machine, a
scenario brings the table there and shows a person's input (a press, a
hold, a piece put right, time passing) that takes it somewhere else.
"""

from __future__ import annotations

import pytest

from firmware.highrise.table import HighriseTable
from firmware.maze.table import MazeTable
from firmware.stones.table import StonesTable
from firmware.towers.table import TowersTable
from tests.support.scenarios import SCENARIOS


def test_every_state_of_every_table_has_a_scenario():
    covered = {(cls, state) for cls, state, _, _ in SCENARIOS}
    for cls in (TowersTable, StonesTable, HighriseTable, MazeTable):
        for state in cls.STATES:
            assert (cls, state) in covered, f"{cls.__name__}.{state} has no way out shown"


@pytest.mark.parametrize(("cls", "state", "bring", "leave"), SCENARIOS,
                         ids=[f"{c.__name__}-{s}" for c, s, _, _ in SCENARIOS])
def test_a_person_can_leave_every_state(tmp_path, block_set, cls, state, bring, leave):
    t = bring(tmp_path, block_set)
    assert isinstance(t.table, cls) and t.table.state == state, t.table.problem
    leave(t)
    assert t.table.state != state, f"{cls.__name__} stays in {state}: {t.table.problem}"
