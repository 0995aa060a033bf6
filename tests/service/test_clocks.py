"""The service's clocks: a turn's time runs on the monotonic clock, whatever the wall clock.

A Pi has no real-time clock: it boots with the time it last saved, and NTP steps the wall
clock forward (hours, days) when the network comes, or back when the saved time was ahead.
The hourglass, the settle windows and every deadline of the service are kept on the
monotonic clock, which never steps; the wall clock only labels (a game's date, an archived
journal's name, ``firmware.store``).
"""

from __future__ import annotations

import inspect
import re
import time

import pytest

from firmware.service.loop import TableService
from tests.support import ROOT
from tests.support.tables import TowersHarness

WALL_READS = re.compile(r"\btime\.(time|time_ns|localtime|gmtime|ctime)\(|\bdatetime\.(now|"
                        r"utcnow|today)\(|\bdate\.today\(|\btime\.strftime\([^,()]*\)")
LABELS = {
    "firmware/core/table_start.py": "a game's start entry is labelled with its date",
    "firmware/store/journal.py": "an archived journal is named by its date (in the order made "
                                 "whatever the clock did: tests/store/test_history.py)",
}
"""Where the service's own code may read the wall clock, and why (labels, never timing)."""


def test_the_service_and_the_tables_time_nothing_by_the_wall_clock():
    """A read of the wall clock in the service, the store or a game's table would put a
    step of it (NTP at boot) into a turn's time."""
    places = [*ROOT.joinpath("firmware", "service").glob("*.py"),
              *ROOT.joinpath("firmware", "store").glob("*.py"),
              *(path for path in ROOT.joinpath("firmware").glob("*/table*.py")
                if path.parent.name != "sim"),  # each game's table (sim's is the hands' file)
              ROOT / "firmware" / "run.py"]
    found = {str(path.relative_to(ROOT)): WALL_READS.findall(path.read_text("utf-8"))
             for path in places}
    assert {path for path, reads in found.items() if reads} <= set(LABELS), found
    assert inspect.signature(TableService).parameters["clock"].default is time.monotonic


@pytest.fixture
def wall(monkeypatch):
    """The wall clock, stepped by the test: every read of it in this process."""
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    monkeypatch.setattr(time, "time_ns", lambda: int(now[0] * 1e9))
    real_localtime = time.localtime
    monkeypatch.setattr(time, "localtime", lambda secs=None: real_localtime(
        now[0] if secs is None else secs))
    return now


def test_a_turns_hourglass_runs_its_length_while_the_wall_clock_steps(block_set, tmp_path,
                                                                        wall):
    t = TowersHarness(block_set, tmp_path / "state").start_play()
    first = t.pos.active
    t.see(t.towers(), t.zone_of("G01"))
    assert t.table.hourglass.running
    left = t.table.hourglass.remaining(t.now)
    wall[0] += 86_400  # NTP: a day forward
    t.wait(20.0)
    wall[0] -= 3 * 86_400  # the saved time was ahead: three days back
    t.wait(20.0)
    assert t.table.hourglass.remaining(t.now) == pytest.approx(left - 40.0)
    wall[0] += 7_200
    t.wait(left - 40.0 - 0.1)
    assert t.pos.active is first
    t.wait(0.1)
    assert t.pos.active is first.other and t.of("accepted")[-1]["action"] == "timeout"
