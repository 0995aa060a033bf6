"""bench/cpu_limit.py: a process it starts gets one core and about its share of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.cpu_limit import CpuLimit, CpuLimitError
from tests.support.processes import PROC, stop, until

pytestmark = pytest.mark.processes


BUSY = """
import json, os, time
start, cpu = time.monotonic(), time.process_time()
while time.monotonic() - start < 1.5:
    pass
print(json.dumps({"share": (time.process_time() - cpu) / (time.monotonic() - start),
                  "cores": sorted(os.sched_getaffinity(0))}))
"""


def _busy(limit: CpuLimit) -> dict:
    run = limit.run([sys.executable, "-c", BUSY], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("how", ["", "taskset and a SIGSTOP/SIGCONT throttle"])
def test_a_busy_child_gets_one_core_and_about_its_share(how):
    """A quarter of a core: a child that would use a whole one gets well under half of it
    (the share is a ceiling; a busy machine may give it less still)."""
    limit = CpuLimit(25, how=how) if how else CpuLimit(25)
    try:
        seen = _busy(limit)
    finally:
        limit.close()
    assert seen["cores"] == [limit.core]
    assert seen["share"] < 0.45, f"{limit.how}: the child used {seen['share']:.0%} of a core"


def test_its_cgroup_is_removed_when_closed():
    limit = CpuLimit(50)
    if not limit.group:
        limit.close()
        pytest.skip(f"no cgroup here ({limit.how}): nothing to remove")
    group = Path(limit.group)
    assert (group / "cgroup.procs").exists()
    _busy(limit)
    limit.close()
    assert not group.exists()


def test_an_exempt_process_gets_every_core_back():
    limit = CpuLimit(25)
    try:
        child = limit.popen([sys.executable, "-c",
                             "import sys; print('in', flush=True); sys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout.readline() == "in\n"  # running inside, as a bench's board is
            limit.exempt(child.pid)
            assert os.sched_getaffinity(child.pid) == set(range(os.cpu_count() or 1))
            if limit.group:
                assert str(child.pid) not in (Path(limit.group) / "cgroup.procs").read_text()
            child.communicate("", timeout=10)
        finally:
            stop(child)  # (a child left stopped would outlive the test)
    finally:
        limit.close()


def _state(pid: int) -> str:
    """R, S, T (stopped)...: the process's state as /proc tells it."""
    stat = (PROC / str(pid) / "stat").read_text()
    return stat[stat.rindex(")") + 2]


def test_a_process_exempted_while_the_throttle_holds_it_stopped_runs_on():
    """The throttle stops its processes for most of each period (at 1 %, 99 % of it). One
    taken out while stopped was left stopped for good: the Trixie root's run of the suite
    (no cgroup there) found the child of the test above stopped, still waiting, minutes on."""
    limit = CpuLimit(1, how="taskset and a SIGSTOP/SIGCONT throttle")
    try:
        child = limit.popen([sys.executable, "-c",
                             "import sys; print('in', flush=True); sys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout.readline() == "in\n"
            until(lambda: _state(child.pid) == "T", 30, "the throttle to stop the child")
            limit.exempt(child.pid)
            child.communicate("", timeout=10)
            assert child.returncode == 0
        finally:
            stop(child)
    finally:
        limit.close()


def test_a_limit_out_of_range_is_refused_in_words():
    with pytest.raises(CpuLimitError, match="1 to 100 % of one core, not 0"):
        CpuLimit(0)
