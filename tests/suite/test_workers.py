"""How many test processes run side by side, and in what order files are handed out."""

from __future__ import annotations

from types import SimpleNamespace

from tests.support import workers


def test_two_processes_where_the_cores_and_memory_allow():
    assert workers.workers(2, 4_000_000, None) == 2
    assert workers.workers(8, 16_000_000, None) == 2  # more gain little: one disk, a Pi's SD


def test_one_core_or_a_small_memory_runs_in_pytests_own_process():
    assert workers.workers(1, 16_000_000, None) == 0
    assert workers.workers(None, 16_000_000, None) == 0  # the cores unknown: one
    assert workers.workers(4, 512_000, None) == 0  # a Pi Zero 2 W
    assert workers.workers(4, None, None) == 2  # no /proc/meminfo: the cores decide


def test_xdists_own_variable_still_wins():
    assert workers.workers(1, 512_000, "3") == 3
    assert workers.workers(8, 16_000_000, "0") == 0


def test_the_memory_is_read_from_meminfo(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:        3903324 kB\nMemFree:          231116 kB\n")
    assert workers.memory_kb(meminfo) == 3_903_324
    meminfo.write_text("nothing of the kind\n")
    assert workers.memory_kb(meminfo) is None
    assert workers.memory_kb(tmp_path / "absent") is None


class _Module:
    """Stands for a test module (hashed by identity, as a module is)."""


class _Item(SimpleNamespace):
    def get_closest_marker(self, name):
        return name if name in self.marks else None


def test_files_go_out_slowest_kind_first_each_in_its_own_order():
    quick, play, page, matches = (_Module() for _ in range(4))
    items = [_Item(module=quick, fixturenames=(), marks={"quick"}, n=1),
             _Item(module=play, fixturenames=(), marks={"processes"}, n=2),
             _Item(module=quick, fixturenames=(), marks={"quick"}, n=3),
             _Item(module=page, fixturenames=("browser",), marks={"browser", "processes"}, n=4),
             _Item(module=page, fixturenames=(), marks={"quick"}, n=5),
             _Item(module=play, fixturenames=(), marks={"quick"}, n=6),
             _Item(module=matches, fixturenames=("whole_matches",), marks={"processes"}, n=7)]
    workers.heaviest_first(items)
    assert [i.n for i in items] == [7, 4, 5, 2, 6, 1, 3]
