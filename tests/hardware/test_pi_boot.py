"""tools/pi-boot.sh's steps can fail: one that hangs, or whose output and watched files stall,
FAILS whatever it says afterwards, and nothing it started is left running.

The step runner lives in tools/pi-boot/steps.sh; bash sources it here with tiny shell
functions in place of a booted machine's steps (no root, no qemu needed).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.processes

STEPS = ROOT / "tools" / "pi-boot" / "steps.sh"


def _step(tmp_path: Path, limit: int, stall: int, body: str,
          watched: str = "") -> tuple[int, str, str, float]:
    """``boot_step`` on a function of BODY under errexit, as pi-boot.sh runs it: its status,
    what it printed, its step log, and the seconds it took."""
    script = (f'set -Eeuo pipefail; . "{STEPS}"; STEP_LOGS="$1"; '
              f"fn() {{ {body}\n}}; "
              f'rc=0; boot_step try {limit} {stall} fn {watched} || rc=$?; '
              'printf "%s\\n" "${boot_results[@]}"; exit "$rc"')
    start = time.monotonic()
    run = subprocess.run(["bash", "-c", script, "steps", str(tmp_path)], capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    log = (tmp_path / "01-try.log").read_text("utf-8")
    return run.returncode, run.stdout, log, time.monotonic() - start


def test_a_step_that_passes_says_pass_with_its_seconds(tmp_path):
    status, said, log, _ = _step(tmp_path, 30, 30, "echo booted; false || true")
    assert status == 0, said
    assert "pi-boot:   try: PASS (" in said and "try|PASS|" in said
    assert log == "booted\n"


def test_a_step_that_fails_by_itself_fails(tmp_path):
    status, said, log, _ = _step(tmp_path, 30, 30, "echo no ssh; return 3")
    assert status == 1 and "pi-boot:   try: FAIL (" in said, said
    assert log.endswith("FAIL: the step ended with status 3\n")


def test_a_hanging_step_fails_at_its_time_limit_though_it_ends_0_when_stopped(tmp_path):
    talks_on = "trap 'exit 0' TERM; while :; do echo waiting for ssh; sleep 0.2; done"
    status, said, log, secs = _step(tmp_path, 2, 30, talks_on)
    assert status == 1 and "try: FAIL" in said, said
    assert log.endswith("FAIL: it ran past its limit of 2 s; stopped (its status after that, "
                        "0, does not count)\n"), log[-300:]
    assert "waiting for ssh" in log and secs < 20


def test_a_step_whose_output_stalls_fails(tmp_path):
    status, said, log, secs = _step(tmp_path, 60, 1, "echo setup.sh; sleep 50")
    assert status == 1 and "try: FAIL" in said, said
    assert "FAIL: its output stalled: nothing new for 1 s" in log
    assert secs < 20


def test_a_watched_file_that_grows_keeps_a_quiet_step_alive(tmp_path):
    # a boot prints nothing of its own while the serial console fills up
    body = "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo line >> console; sleep 0.25; done"
    status, said, _, secs = _step(tmp_path, 30, 1, body, watched="console")
    assert status == 0 and "try: PASS" in said, said
    assert secs >= 2.5


def test_a_quiet_step_whose_watched_file_stalls_fails(tmp_path):
    body = "echo booting >> console; sleep 50"
    status, said, log, _ = _step(tmp_path, 60, 1, body, watched="console")
    assert status == 1 and "FAIL: its output stalled" in log, said


def test_what_a_stopped_step_started_is_stopped_too(tmp_path):
    body = "sleep 300 & echo $! > child; wait"
    status, _, _, _ = _step(tmp_path, 60, 1, body)
    assert status == 1
    child = int((tmp_path / "child").read_text())
    deadline = time.monotonic() + 10
    while _alive(child):
        assert time.monotonic() < deadline, f"the step's child {child} is still running"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
