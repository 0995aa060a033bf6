"""The hourglass and its ring: on time from its start, never drifting, paused, draining."""

from __future__ import annotations

from firmware.core.hourglass import SAND, WARNING, Hourglass


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
