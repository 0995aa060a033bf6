"""The other player's hourglass as this table shows it (``firmware.match.far_clock``): held
at the last report while their table is out of touch, that report shown again on its
return, and any report taken as the truth."""

from __future__ import annotations

from firmware.match.far_clock import FarClock, Report


def test_a_running_glass_is_held_at_its_last_report_and_shown_again_as_reported():
    clock = FarClock()
    clock.reported(Report("started", 60.0, 40.0))
    assert clock.hold() == Report("paused", 60.0, 40.0)
    assert clock.hold() is None  # held once: a second word of it changes nothing
    assert clock.release() == Report("started", 60.0, 40.0)
    assert clock.release() is None


def test_nothing_is_held_when_no_glass_runs():
    clock = FarClock()
    assert clock.hold() is None and clock.release() is None  # no report yet
    for state in ("paused", "stopped", "expired"):
        clock.reported(Report(state, 60.0, 12.0))
        assert clock.hold() is None and clock.release() is None


def test_a_report_while_held_is_the_truth():
    clock = FarClock()
    clock.reported(Report("resumed", 60.0, 30.0))
    assert clock.hold() == Report("paused", 60.0, 30.0)
    clock.reported(Report("started", 60.0, 60.0))  # its table reports again: it is there
    assert clock.release() is None
    assert clock.hold() == Report("paused", 60.0, 60.0)
