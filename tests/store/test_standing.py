"""A towers turn's hourglass survives a stop (issue 32, point 1: "a restarted table picks up
exactly where it was").

The journal keeps moves, not time: before, a table started again gave the turn under way a
full hourglass. Now a stop keeps the sand left (``firmware.store.standing``) and the resumed
turn runs on from it. What was kept is read once; a file of another game or position, a
damaged one, or none at all (a power cut) gives the full hourglass as before.
"""

from __future__ import annotations

import threading

import pytest

from firmware.service.loop import TableService
from firmware.store import standing
from firmware.towers.view import view_of
from hardware.buttons import ButtonEvent
from hardware.devices import open_table
from hardware.profile import load_profile
from tests.support.tables import TowersHarness as Table


def _glass_after_resume(t: Table) -> dict:
    """The hourglass event a resumed table tells after its whole state."""
    last = max(i for i, e in enumerate(t.events) if e["event"] == "table")
    timers = [e for e in t.events[last + 1:] if e["event"] == "timer"]
    assert timers, t.events
    return timers[-1]


def _timeouts(t: Table) -> int:
    return sum(e["action"] == {"a": "timeout"} for e in t.journalled_actions())


def _chosen_and_waited(block_set, where, seconds: float) -> Table:
    """A game whose first chooser put one block on a pad ``seconds`` ago."""
    t = Table(block_set, where).start_play()
    t.see(t.towers(), t.zone_of("G01"))
    t.wait(seconds)
    assert t.table.hourglass.running
    return t


def test_a_stopped_turn_resumes_with_the_sand_it_had_left(block_set, tmp_path):
    t = _chosen_and_waited(block_set, tmp_path, 20.0)
    left = t.table.hourglass.remaining(t.now)
    t.table.stopping(t.now)
    again = Table(block_set, tmp_path)  # started again: its clock starts anew
    glass = _glass_after_resume(again)
    assert glass["player"] == again.pos.active.value
    assert glass["left"] == pytest.approx(left, abs=0.01) and glass["left"] < 60.0
    assert glass["state"] == "resumed"
    again.see(again.towers(), again.zone_of("G01"))
    again.wait(left - 1.0)
    assert _timeouts(again) == 0  # the sand it had left, not less
    again.wait(1.5)
    assert _timeouts(again) == 1, \
        "the turn was not lost when the sand kept at the stop ran out"


def test_a_paused_turn_keeps_its_sand_too(block_set, tmp_path):
    t = _chosen_and_waited(block_set, tmp_path, 12.0)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "paused"
    t.wait(100.0)  # paused: no sand runs
    t.table.stopping(t.now)
    glass = _glass_after_resume(Table(block_set, tmp_path))
    assert glass["left"] == pytest.approx(48.0, abs=0.4)


def test_what_was_kept_is_used_once(block_set, tmp_path):
    """Resumed, played on, then the power cut (no stop): the next start finds nothing kept
    (the old sand would belong to a turn long gone) and the turn gets a full hourglass."""
    t = _chosen_and_waited(block_set, tmp_path, 30.0)
    t.table.stopping(t.now)
    again = Table(block_set, tmp_path)
    assert _glass_after_resume(again)["left"] < 31.0
    assert not (tmp_path / standing.STANDING).exists()
    third = Table(block_set, tmp_path)  # no stop before it: a power cut
    assert _glass_after_resume(third)["left"] == 60.0


def test_sand_kept_for_another_game_is_not_used(block_set, tmp_path):
    """Kept at a stop of one game; the next game (--new-game) was cut by a power cut."""
    t = _chosen_and_waited(block_set, tmp_path, 30.0)
    t.table.stopping(t.now)
    t.journal.archive()
    second = Table(block_set, tmp_path, seed=4).start_play()  # a new game, then no stop
    second.see(second.towers(), second.zone_of("G01"))
    second.wait(5.0)
    assert t.journal.read().entries[0]["seed"] == 4
    again = Table(block_set, tmp_path, seed=4)
    assert _glass_after_resume(again)["left"] == 60.0
    assert not (tmp_path / standing.STANDING).exists()


def test_sand_kept_at_another_position_is_not_used(block_set, tmp_path):
    _chosen_and_waited(block_set, tmp_path, 30.0)
    (tmp_path / standing.STANDING).write_text(
        '{"seed": 3, "actions": 7, "glass": {"player": "A", "left": 5.0}}')
    assert _glass_after_resume(Table(block_set, tmp_path))["left"] == 60.0


def test_sand_kept_for_the_other_player_or_more_than_the_glass_holds_is_not_used(
        block_set, tmp_path):
    t = _chosen_and_waited(block_set, tmp_path, 30.0)
    me, other = t.pos.active.value, t.pos.active.other.value
    for glass in (f'{{"player": "{other}", "left": 5.0}}', f'{{"player": "{me}", "left": 600}}',
                  f'{{"player": "{me}", "left": -3}}', f'{{"player": "{me}", "left": true}}'):
        (tmp_path / standing.STANDING).write_text(f'{{"seed": 3, "actions": 1, "glass": {glass}}}')
        assert _glass_after_resume(Table(block_set, tmp_path))["left"] == 60.0, glass


@pytest.mark.parametrize("text", ["{not json", '{"seed": 3, "actions": 1, "glass": 7}',
                                  '[1, 2]', '{"seed": 3, "actions": 1, "glass": '
                                  '{"player": "A", "left": "lots"}}', "\udcff"])
def test_a_damaged_file_gives_a_full_hourglass_and_says_so(block_set, tmp_path, text):
    t = _chosen_and_waited(block_set, tmp_path, 30.0)
    (tmp_path / standing.STANDING).write_bytes(text.encode("utf-8", "surrogateescape"))
    again = Table(block_set, tmp_path)
    assert _glass_after_resume(again)["left"] == 60.0
    notices = [e["message"] for e in again.events if e["event"] == "notice"]
    assert any("hourglass" in n and "full" in n for n in notices), again.events
    assert not (tmp_path / standing.STANDING).exists()
    del t


def test_a_full_disk_at_the_stop_is_said_and_the_stop_goes_on(block_set, tmp_path,
                                                              monkeypatch):
    t = _chosen_and_waited(block_set, tmp_path, 10.0)

    def full(*_args, **_kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.open", full)
    said = t.table.stopping(t.now)
    monkeypatch.undo()
    assert "full" in said and "hourglass" in said
    assert _glass_after_resume(Table(block_set, tmp_path))["left"] == 60.0


def test_the_service_keeps_the_sand_when_it_stops(block_set, tmp_path):
    """The loop's stop (SIGTERM, Ctrl-C) is where the sand is kept."""
    t = _chosen_and_waited(block_set, tmp_path, 25.0)
    now, left = [t.now], t.table.hourglass.remaining(t.now)
    devices = open_table(load_profile("sim"))
    service = TableService(devices, t.table, view_of, clock=lambda: now[0])
    service._started = True  # the table above is started already
    runner = threading.Thread(target=service.run, daemon=True)
    try:
        runner.start()
        service.stopping.set()
        runner.join(30)
        assert not runner.is_alive()
    finally:
        devices.close()
    glass = _glass_after_resume(Table(block_set, tmp_path))
    assert glass["left"] == pytest.approx(left, abs=0.01) and left < 40.0


def test_a_table_paused_at_the_stop_comes_back_paused(block_set, tmp_path):
    """Paused, then stopped: the players left the table paused, and it waits for them paused
    (before, it came back playing, the turn's sand running with nobody there)."""
    t = _chosen_and_waited(block_set, tmp_path, 12.0)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    t.table.stopping(t.now)
    again = Table(block_set, tmp_path)
    assert again.table.state == "paused"
    opened = [e["event"] for e in again.table.opening(again.now)]
    assert "pause" in opened
    again.wait(300.0)
    assert not again.table.hourglass.running
    assert again.table.hourglass.remaining(again.now) == pytest.approx(48.0, abs=0.4)
    again.table.on_button(ButtonEvent("menu", "press"), again.now)
    assert again.table.state == "play" and again.table.hourglass.running


def test_a_table_in_play_at_the_stop_comes_back_in_play(block_set, tmp_path):
    t = _chosen_and_waited(block_set, tmp_path, 12.0)
    t.table.stopping(t.now)
    again = Table(block_set, tmp_path)
    assert again.table.state == "play" and again.table.hourglass.running


def test_a_stones_table_paused_at_the_stop_comes_back_paused(tmp_path):
    """The pause is the table core's: every game keeps it."""
    from engine.stones.sensing import sight
    from tests.support.tables import StonesHarness as Stones

    t = Stones(tmp_path).started()
    move = t.table.position.legal_actions()[0]
    t.see(sight(t.table.position.apply_action(move)))
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "paused"
    t.table.stopping(t.now)
    again = Stones(tmp_path)
    assert again.table.state == "paused" and again.table.actions == [move]
    assert {"event": "pause", "state": "paused"} in again.table.opening(again.now)
