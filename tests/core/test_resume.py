"""A table started again on its journal tells a reader that was already there all that
stands, after the whole state (issue 32: the page's hourglass card was blank until the
next turn after ``obelisk play`` was stopped and started again).

A page starts again from each ``table`` event (the whole public state); what stands
beyond it (a running hourglass, a thing to put back) must come after that event, as a
new reader's opening has it, or the page drops it.
"""

from __future__ import annotations

from tests.support.tables import TowersHarness as Table


def _after_last_table(events: list[dict]) -> list[dict]:
    last = max(i for i, e in enumerate(events) if e["event"] == "table")
    return events[last + 1:]


def test_a_resumed_turn_tells_its_running_hourglass_after_the_whole_state(block_set,
                                                                          tmp_path):
    t = Table(block_set, tmp_path).start_play()
    t.see(t.towers(), t.zone_of("G01"))  # a block chosen, the glass of the turn running
    again = Table(block_set, tmp_path)  # the same table started again
    told = _after_last_table(again.events)
    timers = [e for e in told if e["event"] == "timer"]
    assert timers and timers[-1]["player"] == again.pos.active.value, again.events
    assert timers[-1]["state"] in ("started", "resumed")
    assert [e["event"] for e in told] == [e["event"] for e in again.table.opening(again.now)[1:]
                                           ] + ["turn"]


def test_a_resumed_lost_turn_asks_its_blocks_back_after_the_whole_state(block_set, tmp_path):
    t = Table(block_set, tmp_path).start_play()
    t.see(t.towers(), t.zone_of("G01"))
    t.wait(60.0)  # the turn is lost with the block on its pad
    again = Table(block_set, tmp_path)
    again.see(again.towers(), again.zone_of("G01"))  # still on its pad
    assert again.table.state == "repair"
    opened = again.table.opening(again.now)
    refused = [e for e in opened if e["event"] == "refused"]
    assert refused and refused[0]["kind"] == "task"
