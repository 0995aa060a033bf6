"""The tiers cannot drift: what a test needs is marked, and a quick test starts no process
(``support.tiers``)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from tests.support.tiers import NEEDS, QUICK, Guard, StartsAProcess, mark_tiers


class _Item:
    """What ``mark_tiers`` reads of a collected test: its fixtures and its marks."""

    def __init__(self, *fixtures: str, marks: tuple[str, ...] = ()) -> None:
        self.fixturenames = fixtures
        self.marks = set(marks)

    def add_marker(self, name: str) -> None:
        self.marks.add(name)

    def get_closest_marker(self, name: str) -> object:
        return name in self.marks or None


def test_a_test_is_quick_only_when_it_needs_nothing_beyond_its_process():
    plain, browsing, brokered, marked = (_Item("tmp_path"), _Item("browser"),
                                         _Item("broker", "tmp_path"),
                                         _Item(marks=("processes",)))
    mark_tiers([plain, browsing, brokered, marked])
    assert plain.marks == {QUICK}
    assert browsing.marks == {"browser", "processes"}
    assert brokered.marks == {"broker", "processes"}
    assert marked.marks == {"processes"}
    assert set(NEEDS) == {"processes", "browser", "broker"}


def test_a_quick_test_that_starts_a_process_fails_naming_the_mark():
    guard = Guard()
    guard.armed = "tests/x/test_y.py::test_z"
    with pytest.raises(StartsAProcess, match=r"test_z is a quick test but starts a process "
                                             r".*mark it @pytest.mark.processes"):
        guard.check(["obelisk", "play"])
    with guard.ahead():  # started for a later test, from this one: let through
        guard.check(["mosquitto"])
    caught: list[BaseException] = []
    worker = threading.Thread(target=lambda: _checked(guard, caught))  # a run played ahead
    worker.start()
    worker.join()
    assert caught == []
    guard.armed = None
    guard.check(["obelisk", "play"])  # a test marked processes
    guard.closed = True
    with pytest.raises(RuntimeError, match="the test run is over"):
        guard.check(["obelisk", "play"])


def _checked(guard: Guard, caught: list) -> None:
    try:
        guard.check(["obelisk", "demo"])
    except BaseException as exc:  # judged by the test
        caught.append(exc)


def test_this_quick_test_is_guarded():
    """The guard the run installed stops this very test (marked quick) starting a process."""
    with pytest.raises(StartsAProcess):
        subprocess.run([sys.executable, "-c", "pass"], check=False)
