"""Settling: a reading counts once it holds still, sooner when the table is sure of it."""

from __future__ import annotations

import pytest

from firmware.service.settle import NO_ANSWER_S, Settler


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
