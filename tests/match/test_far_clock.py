"""The other player's hourglass as this table shows it (``firmware.match.far_clock``): held
where it had run down to while their table is out of touch, running on from there on its
return, and any report taken as the truth."""

from __future__ import annotations

from firmware.match.far_clock import FarClock, Report


def test_a_running_glass_is_held_where_it_ran_down_to_and_runs_on_from_there():
    """A walk: A's table stopped with 54 s left, 6 s after it reported 60; B showed "60 s
    paused"."""
    clock = FarClock()
    clock.reported(Report("started", 60.0, 60.0), now=100.0)
    assert clock.hold(now=106.0) == Report("paused", 60.0, 54.0)
    assert clock.hold(now=200.0) is None  # held once: a second word of it changes nothing
    assert clock.release(now=300.0) == Report("started", 60.0, 54.0)
    assert clock.release(now=301.0) is None


def test_a_glass_held_never_shows_less_than_nothing():
    clock = FarClock()
    clock.reported(Report("resumed", 60.0, 5.0), now=0.0)
    assert clock.hold(now=30.0) == Report("paused", 60.0, 0.0)


def test_nothing_is_held_when_no_glass_runs():
    clock = FarClock()
    assert clock.hold(now=0.0) is None and clock.release(now=0.0) is None  # no report yet
    for state in ("paused", "stopped", "expired"):
        clock.reported(Report(state, 60.0, 12.0), now=1.0)
        assert clock.hold(now=50.0) is None and clock.release(now=50.0) is None


def test_a_report_while_held_is_the_truth():
    clock = FarClock()
    clock.reported(Report("resumed", 60.0, 30.0), now=0.0)
    assert clock.hold(now=0.0) == Report("paused", 60.0, 30.0)
    clock.reported(Report("started", 60.0, 60.0), now=10.0)  # its table reports: it is there
    assert clock.release(now=11.0) is None
    assert clock.hold(now=12.0) == Report("paused", 60.0, 58.0)


def _match_table(tmp_path, seat: str):
    from engine.players import Player
    from firmware.match.seat import Match, MatchSeat
    from tests.support.tables import StonesHarness

    t = StonesHarness(tmp_path / seat)
    t.table.solo = MatchSeat(Match("derby", Player(seat)), "stones")
    return t


def _report(t, state: str, left: float) -> None:
    import json

    from firmware.match.commands import clock
    from firmware.service.commands import parse

    clock(None, t.table, parse(json.dumps({"command": "clock", "player": "A", "state": state,
                                           "seconds": 60, "left": left})), t.now)


def _timers(t) -> list[tuple[str, float]]:
    return [(e["state"], e["left"]) for e in t.events if e["event"] == "timer"]


def test_a_glass_reported_before_the_game_here_starts_is_shown_once_it_does(tmp_path):
    """A walk: on the first turn, A's hourglass was not shown at B. A's table reported it
    before B's game started, and B's start then cleared the page's glasses."""
    b = _match_table(tmp_path, "B")
    _report(b, "started", 60.0)
    assert _timers(b) == []  # nothing to show it on yet
    b.started()
    kinds = [e["event"] for e in b.events]
    assert "timer" in kinds and kinds.index("timer") > kinds.index("start"), kinds
    assert _timers(b)[-1][0] == "started"


def test_a_stopped_glass_reported_again_after_a_restart_is_not_said_again(tmp_path):
    """A walk: after a restart, "player A's hourglass stopped (52 s left)" from minutes before
    came again (the other table's link sends its glass again when it comes back): a glass
    this table shows as not running changes nothing, and says nothing."""
    b = _match_table(tmp_path, "B").started()
    _report(b, "stopped", 52.0)
    assert _timers(b) == []
    _report(b, "started", 60.0)
    _report(b, "stopped", 41.0)  # a glass shown running stops: said
    assert _timers(b) == [("started", 60.0), ("stopped", 41.0)]
    _report(b, "stopped", 41.0)
    assert _timers(b) == [("started", 60.0), ("stopped", 41.0)]
