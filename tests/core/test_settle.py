"""Settling: a reading counts once it holds still, sooner when the table is sure of it."""

from __future__ import annotations

import pytest

from firmware.core.settle import NO_ANSWER_S, Settler


def test_a_reading_the_table_is_sure_of_settles_sooner():
    settle = Settler(0.3, quick_s=0.1)
    settle.feed("move", 0.0, sure=True)
    assert settle.deadline() == pytest.approx(0.1)
    assert settle.settled(0.09) is None and settle.settled(0.1) == "move"
    settle.feed("muddle", 1.0)           # not sure: the whole settle time
    assert settle.deadline() == pytest.approx(1.3)
    assert settle.settled(1.2) is None and settle.settled(1.3) == "muddle"
    settle.feed("move", 2.0, sure=True)
    settle.feed("muddle", 2.05)          # gone before its short window: nothing
    assert settle.settled(2.2) is None


def test_being_sure_is_asked_only_where_it_shortens_the_wait():
    """Asking costs the game a reading: not for what was reported last, nor without a
    short window; a reading fed again keeps its clock, sure or not."""
    settle = Settler(0.3, quick_s=0.1)
    assert settle.may_hurry("move") and settle.is_new("move")
    settle.feed("move", 0.0, sure=True)
    assert not settle.is_new("move")
    settle.feed("move", 0.05)            # the same reading: its short window stands
    assert settle.settled(0.1) == "move"
    assert not settle.may_hurry("move")  # reported: sure or not, it waits in full again
    settle.feed("hand", 1.0)
    settle.feed("move", 1.05, sure=True)  # back to what was reported: nothing to tell
    assert settle.deadline() is None and settle.settled(2.0) is None
    assert not Settler(0.3).may_hurry("move")


def test_forgetting_waits_in_full_unless_the_feeder_hurries():
    settle = Settler(0.3, quick_s=0.1)
    settle.feed("move", 0.0, sure=True)
    assert settle.settled(0.1) == "move"
    settle.forget()
    assert settle.deadline() == pytest.approx(0.3)
    settle.hurry()                        # the position changed, and it is sure again
    assert settle.deadline() == pytest.approx(0.1) and settle.settled(0.1) == "move"


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


def test_a_ripe_reading_waits_for_the_board_read_again():
    """The settler calls nothing: once a reading has held still it is ``ripe``, whoever
    has a board reads it again and feeds the answer, and only then is it ``settled``."""
    settle = Settler(0.3)
    settle.feed("hand", 0.0)
    assert settle.ripe(0.29) is None and settle.ripe(0.3) == "hand"
    settle.feed("block", 0.3)                     # read again: a block. Start over
    assert settle.ripe(0.3) is None and settle.deadline() == pytest.approx(0.6)
    assert settle.ripe(0.6) == "block"
    settle.postpone(0.6)                          # no answer from the board: a moment
    assert settle.ripe(0.6) is None               # later, not at once over and over
    assert settle.deadline() == pytest.approx(0.6 + NO_ANSWER_S)
    settle.feed("block", 0.6 + NO_ANSWER_S)       # still a block: it counts
    assert settle.settled(0.6 + NO_ANSWER_S) == "block"
    assert settle.ripe(5.0) is None               # once
