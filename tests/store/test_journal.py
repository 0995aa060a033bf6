"""The journal: whole lines appended and read back, a torn end repaired, damage refused by line."""

from __future__ import annotations

import pytest

from engine.players import Player
from engine.towers.actions import Decline
from engine.towers.record import action_to_dict
from firmware.store.journal import Journal, JournalError
from tests.support.files import HUNG, device, fifo, folder, huge, outcome_within


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
    with pytest.raises(JournalError, match=r"line 2 is damaged.*--new-game") as refusal:
        journal.read()
    assert "not a whole journal entry" in str(refusal.value)
    assert "Expecting" not in str(refusal.value)  # json's own words, as it said before


def test_an_unusable_state_directory_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="choose another with --state-dir"):
        Journal(blocker / "state")


# A torn write is only what a power cut can make: the start of a line, with no newline.
CONFIRMED = b'{"n":1}\n{"n":2,"t":"action"}'
"""A journal whose last line is a whole, confirmed entry; the tests put after it the byte
that should have been its newline, or more."""


@pytest.mark.parametrize("tail", [b"X", b"\x00", b"\xff", b"}", b"\\", b"{", b'{"n":3',
                                  b"X{\"n\":3}"],
                         ids=["letter", "nul", "ff", "brace", "backslash", "open",
                              "next-cut", "next-whole"])
def test_a_whole_last_entry_whose_newline_is_damaged_is_refused_with_its_line(tmp_path, tail):
    """The newline byte of a whole last entry changed to another (and whatever came after):
    no power cut makes that, and the confirmed action in it was dropped as a torn write."""
    journal = Journal(tmp_path)
    journal.path.write_bytes(CONFIRMED + tail)
    with pytest.raises(JournalError) as refusal:
        journal.read()
    words = str(refusal.value)
    assert f"{journal.path} line 2 is damaged" in words and "--new-game" in words
    assert "Expecting" not in words and "char " not in words  # json's own words: not a person's
    with pytest.raises(JournalError):
        journal.append({"n": 3})  # nothing written past it, nothing cut off it
    assert journal.path.read_bytes() == CONFIRMED + tail


@pytest.mark.parametrize("last", [b'{"n":2,"t":"act', b'{"n":2,"t":"a\\', b'{"n":2,"t":"\\u00',
                                  b'{"n":-', b'{"n":1.', b'{"n":1e', b'{"n":1e-', b'{"n":t',
                                  b'{"n":[{"x":nu', b'{', b'{"n"', b'{"n":2,'],
                         ids=lambda raw: raw.decode())
def test_the_start_of_a_line_cut_by_a_power_cut_is_a_torn_write(tmp_path, last):
    journal = Journal(tmp_path)
    journal.path.write_bytes(b'{"n":1}\n' + last)
    contents = journal.read()
    assert contents.entries == ({"n": 1},) and contents.torn_tail
    journal.append({"n": 3})
    assert journal.read().entries == ({"n": 1}, {"n": 3})


@pytest.mark.parametrize("last", [b'{"n":2}X', b'{"n":2,"t":"a"b', b'{"n":2,,', b'{"n":tx',
                                  b'["n"', b'x', b' {"n":2', b'{"n":2}}', b'{"n":01',
                                  b'{"n":"\x01', b'{"n":"\\q'],
                         ids=lambda raw: repr(raw)[2:-1])
def test_a_last_line_no_write_could_have_begun_is_refused(tmp_path, last):
    """What no cut-short write of a journal entry can be is damage, whatever the line."""
    journal = Journal(tmp_path)
    journal.path.write_bytes(b'{"n":1}\n' + last)
    with pytest.raises(JournalError, match=r"line 2 is damaged.*--new-game"):
        journal.read()


@pytest.mark.parametrize("make", [huge, fifo, folder, device])
def test_a_journal_that_is_no_such_file_is_refused_in_words_before_an_entry_is_written(
        tmp_path, make):
    """Before each entry the journal looks at its last byte (is its last line whole?): a
    journal that is a pipe, a folder, a link to /dev/zero or a huge file is said, never
    waited on for ever, and nothing is written into it."""
    make(tmp_path / "journal.jsonl")
    got = outcome_within(lambda: Journal(tmp_path).append({"t": "note"}), 20)
    assert got is not HUNG, f"the journal as {make.__name__} was waited on for ever"
    assert isinstance(got, JournalError) and "journal.jsonl" in str(got), got
