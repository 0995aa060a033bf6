"""The service's building blocks: records, journal, settling, hourglass."""

from __future__ import annotations

import json
import random

import pytest

from engine.bots import low_action
from engine.players import Player
from engine.record import RecordError, options_from_dict, options_to_dict, replay
from engine.towers.actions import Choose, Decline, Place, Timeout
from engine.towers.game import TowersOptions
from engine.towers.record import action_from_dict, action_to_dict
from firmware.service.hourglass import SAND, WARNING, Hourglass
from firmware.service.settle import NO_ANSWER_S, Settler
from firmware.store.journal import Journal, JournalError


def _game_actions(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(first=Player.B)
    actions = []
    while not state.is_terminal():
        action = Timeout() if rng.random() < 0.05 and state.phase.value == "choose" \
            else low_action(state, rng)
        actions.append(action)
        state = state.apply_action(action)
    return state, actions


def test_every_action_survives_json_and_a_game_replays_exactly(game, block_set):
    for seed in range(5):
        final, actions = _game_actions(game, seed)
        data = json.loads(json.dumps([action_to_dict(a) for a in actions]))
        again = [action_from_dict(d) for d in data]
        assert again == actions
        assert replay(game.new_initial_state(first=Player.B), again)[-1] == final


@pytest.mark.parametrize(("entry", "words"), [
    ({"a": "fly"}, "unknown action 'fly'"),
    ({"a": "place", "tower": "C", "block": "G01", "cells": []}, "malformed"),
    ({"a": "place", "tower": "A", "block": "G01", "cells": [[0, 0]]}, "three whole numbers"),
    (["choose"], "must be an object"),
    ({"a": "decline"}, "incomplete"),
])
def test_bad_record_entries_say_what_is_wrong(entry, words):
    with pytest.raises(RecordError, match=words):
        action_from_dict(entry)


def test_a_record_that_does_not_replay_names_the_action(block_set, game):
    actions = [Choose("G01"), Choose("G01")]
    with pytest.raises(RecordError, match=r"action 2 \(choose G01 for the building zone\)"):
        replay(game.new_initial_state(first=Player.A), actions)


def test_options_round_trip():
    options = TowersOptions(hourglass_s=45, sudden_death=True)
    assert options_from_dict(TowersOptions, options_to_dict(options)) == options
    with pytest.raises(RecordError):
        options_from_dict(TowersOptions, {"hourglass_s": -1})


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


def test_a_reading_the_table_is_sure_of_settles_sooner():
    settle = Settler(0.3, quick_s=0.1, sure=lambda value: value == "move")
    settle.feed("move", 0.0)
    assert settle.deadline() == pytest.approx(0.1)
    assert settle.settled(0.09) is None and settle.settled(0.1) == "move"
    settle.feed("muddle", 1.0)           # not sure: the whole settle time
    assert settle.deadline() == pytest.approx(1.3)
    assert settle.settled(1.2) is None and settle.settled(1.3) == "muddle"
    settle.feed("move", 2.0)
    settle.feed("muddle", 2.05)          # gone before its short window: nothing
    assert settle.settled(2.2) is None


def test_settling_ignores_what_comes_and_goes():
    settle = Settler(0.3)
    settle.feed("empty", 0.0)
    assert settle.settled(0.29) is None and settle.settled(0.3) == "empty"
    settle.feed("hand", 1.0)             # a hand passes over...
    settle.feed("empty", 1.1)            # ...and is gone
    assert settle.settled(2.0) is None   # nothing new settled: no event at all
    settle.feed("block", 3.0)
    settle.feed("block", 3.2)            # the same reading again does not restart the clock
    assert settle.deadline() == pytest.approx(3.3)
    assert settle.settled(3.25) is None and settle.settled(3.3) == "block"
    assert settle.settled(5.0) is None   # reported once
    settle.forget()
    assert settle.settled(5.0) == "block"


def test_the_hourglass_expires_on_time_and_pauses():
    glass = Hourglass(60.0)
    glass.start(100.0)
    assert glass.remaining(130.0) == 30.0 and not glass.expired(159.99)
    glass.pause(130.0)
    assert glass.remaining(500.0) == 30.0    # frozen while paused
    glass.resume(500.0)
    assert glass.expires_at() == 530.0
    assert not glass.expired(529.99) and glass.expired(530.0)


def test_no_drift_however_often_it_is_read():
    glass = Hourglass(60.0)
    glass.start(0.0)
    t = 0.0
    for _ in range(60_000):   # read every millisecond for a minute
        t += 0.001
        glass.remaining(t)
    assert glass.expired(60.0) and not glass.expired(59.999)


def test_the_ring_drains_and_warns():
    glass = Hourglass(60.0, warn_s=10.0)
    glass.start(0.0)
    assert glass.ring(0.0, 12) == [SAND] * 12
    half = glass.ring(30.0, 12)
    assert half[:6] == [SAND] * 6 and half[6:] == [(0, 0, 0)] * 6
    late = glass.ring(55.0, 12)
    assert late[0] == WARNING and late[1] == (0, 0, 0)
    assert glass.ring(60.0, 12) == [(0, 0, 0)] * 12


def test_a_placement_entry_keeps_its_cells():
    place = Place(Player.A, "G07", frozenset({(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)}))
    data = action_to_dict(place)
    assert data["cells"] == [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]
    assert action_from_dict(data) == place


def test_settling_re_reads_before_it_reports():
    settle = Settler(0.3)
    answers = iter(["block", None, "block"])   # moved again; then no answer; then still
    settle.confirm = lambda: next(answers)
    settle.feed("hand", 0.0)
    assert settle.settled(0.3) is None          # the re-read saw a block: start over
    assert settle.deadline() == pytest.approx(0.6)
    assert settle.settled(0.6) is None          # the board did not answer: try again,
    assert settle.deadline() == pytest.approx(0.6 + NO_ANSWER_S)  # a moment later (the
    assert settle.settled(0.6 + NO_ANSWER_S) == "block"  # loop spun at once before)


def test_the_ring_changes_exactly_when_it_says_it_will():
    """The service sleeps until ``next_change``: the ring must not change before it,
    and must change at it (a pixel out, or the warning colour)."""
    glass = Hourglass(60.0, warn_s=12.0)  # the warning between two pixels going out
    glass.start(0.0)
    now, changes = 0.0, 0
    while (due := glass.next_change(now, 12)) is not None:
        assert due > now
        assert glass.ring(due - 1e-6, 12) == glass.ring(now, 12)
        assert glass.ring(due + 1e-6, 12) != glass.ring(now, 12)
        now, changes = due + 1e-6, changes + 1
    assert changes == 12 + 1          # twelve pixels go out, the colour turns once
    assert glass.next_change(60.0, 12) is None
    glass.pause(now)
    assert glass.next_change(now, 12) is None   # a paused ring never changes
