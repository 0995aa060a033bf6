"""The journal: whole lines appended and read back, a torn end repaired, damage refused by line."""

from __future__ import annotations

import pytest

from engine.players import Player
from engine.towers.actions import Decline
from engine.towers.record import action_to_dict
from firmware.store.journal import Journal, JournalError


def test_the_journal_appends_whole_lines_and_reads_them_back(tmp_path):
    journal = Journal(tmp_path / "state")
    entries = [{"n": i, "place": action_to_dict(Decline(Player.A))} for i in range(3)]
    for e in entries:
        journal.append(e)
    contents = journal.read()
    assert contents.entries == tuple(entries) and not contents.torn_tail
    assert journal.path.read_bytes().count(b"\n") == 3


def test_a_torn_last_line_is_dropped_and_trimmed(tmp_path):
    journal = Journal(tmp_path)
    journal.append({"n": 1})
    journal.append({"n": 2})
    with open(journal.path, "ab") as f:
        f.write(b'{"n": 3, "pla')  # the power went mid-write
    contents = journal.read()
    assert contents.entries == ({"n": 1}, {"n": 2}) and contents.torn_tail
    journal.append({"n": 4})
    assert journal.read().entries == ({"n": 1}, {"n": 2}, {"n": 4})


def test_a_last_line_that_lost_only_its_newline_is_kept(tmp_path):
    journal = Journal(tmp_path)
    journal.append({"n": 1})
    with open(journal.path, "ab") as f:
        f.write(b'{"n":2}')
    assert journal.read().entries == ({"n": 1}, {"n": 2})
    journal.append({"n": 3})
    assert journal.read().entries == ({"n": 1}, {"n": 2}, {"n": 3})


def test_damage_in_the_middle_is_refused_with_the_line(tmp_path):
    journal = Journal(tmp_path)
    journal.path.write_bytes(b'{"n":1}\n{"n":\n{"n":3}\n')
    with pytest.raises(JournalError, match=r"line 2 is damaged.*--new-game"):
        journal.read()


def test_an_unusable_state_directory_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="choose another with --state-dir"):
        Journal(blocker / "state")
