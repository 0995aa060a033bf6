"""tools/pi-root.sh's checks can fail: a step whose output stalls or that runs past its time
limit fails even when it exits 0 after SIGTERM, a step over its limit by a fraction fails,
and the service runs with its unit's Environment= lines.

The checks live in tools/pi-root-checks.sh, sourced here by bash with tiny commands in place
of a Pi root's (no root, no qemu needed); each command runs in a process group the check
stops, so none is left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.processes import stop, until

pytestmark = pytest.mark.processes

CHECKS = ROOT / "tools" / "pi-root-checks.sh"
SHRUGS_OFF_SIGTERM = "trap 'exit 0' TERM; echo started; while :; do sleep 0.1; done"
"""A command that ends with 0 when stopped: what the demo did under load."""


def _bash(script: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", f'. "{CHECKS}"; {script}', "checks", *args],
                          capture_output=True, text=True, timeout=timeout)


def _watched(tmp_path: Path, limit: int, stall: int, command: str) -> tuple[int, str, float]:
    """watch_run on ``bash -c COMMAND``: its status, what it said, and its seconds."""
    start = time.monotonic()
    run = _bash('watch_run "$1" "$2" "$3" bash -c "$4"', str(limit), str(stall),
                str(tmp_path / "log"), command)
    return run.returncode, run.stdout, time.monotonic() - start


def test_a_step_whose_log_stops_growing_fails_though_it_exits_0_after_sigterm(tmp_path):
    status, said, secs = _watched(tmp_path, 60, 1, SHRUGS_OFF_SIGTERM)
    assert status == 1, said
    assert said.startswith("FAIL: stalled: its log did not grow for 1 s; stopped with "
                           "SIGTERM (it then ended with status 0, which does not count)"), said
    assert secs < 30


def test_a_step_over_its_time_limit_is_stopped_and_fails(tmp_path):
    still_talking = "trap 'exit 0' TERM; while :; do echo move; sleep 0.1; done"
    status, said, _ = _watched(tmp_path, 2, 60, still_talking)
    assert status == 1 and said.startswith("FAIL: over its time limit of 2 s"), said
    assert "move" in (tmp_path / "log").read_text("utf-8")


@pytest.mark.parametrize(("command", "status", "said"), [
    ("echo a game; exit 0", 0, ""),
    ("echo a game; exit 3", 1, "FAIL: it ended with status 3\n"),
    ("echo a game; kill -TERM $$", 1, "FAIL: killed by signal 15 (status 143)\n"),
])
def test_a_step_that_ends_by_itself_passes_only_with_0(tmp_path, command, status, said):
    got, words, _ = _watched(tmp_path, 60, 60, command)
    assert (got, words) == (status, said)


def test_a_run_stopped_mid_step_stops_the_steps_command_too(tmp_path):
    """Ctrl-C or SIGTERM to pi-root.sh while the tests ran left them running in their own
    process group, in a root being unmounted: its clean-up stops what watch_run watches.
    (On a busy machine the step wrote its pid file, and so got its signal, before watch_run
    had noted its group: about one run in a hundred left ``sleep 120`` running.)"""
    pid_file = tmp_path / "pid"
    runner = subprocess.Popen(
        ["bash", "-c", f'. "{CHECKS}"; trap "stop_watched; exit 143" TERM; '
         'watch_run 120 120 "$1" bash -c "echo \\$\\$ > $2; exec sleep 120"',
         "checks", str(tmp_path / "log"), str(pid_file)])
    step, born = 0, ""
    try:
        until(lambda: pid_file.exists() and pid_file.read_text().strip(), 30, "the step")
        step = int(pid_file.read_text())
        born = _started(step)
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(30) == 143
        assert not _running(step, born), \
            f"the step's command outlived the run: {_seen(step)}"
    finally:
        stop(runner)
        if step and _running(step, born):
            os.kill(step, signal.SIGKILL)


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (state first); [] if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except (FileNotFoundError, IndexError):
        return []


def _started(pid: int) -> str:
    """When PID started, in clock ticks since boot: with the PID, it names one process (a
    busy machine may give the number to another once the first is reaped)."""
    fields = _stat(pid)
    return fields[19] if len(fields) > 19 else ""


def _running(pid: int, started: str = "") -> bool:
    """Whether PID is a live process (not one ended and waiting to be reaped), and the one
    that started at ``started`` if given."""
    fields = _stat(pid)
    return bool(fields) and fields[0] != "Z" and (not started or fields[19] == started)


def _seen(pid: int) -> str:
    """What /proc says of PID, for a failure's message."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        command = "?"
    return f"pid {pid}, state {(_stat(pid) or ['gone'])[0]}, running {command!r}"


@pytest.mark.parametrize(("status", "secs", "limit", "verdict"), [
    ("0", "60.3", "60", "FAIL"),  # setup-second's 60.3 s once passed its 60 s
    ("0", "60.0", "60", "PASS"),
    ("0", "3.2", "60", "PASS"),
    ("1", "3.2", "60", "FAIL"),
])
def test_the_verdict_counts_the_limit_to_the_tenth(status, secs, limit, verdict):
    run = _bash('step_verdict "$1" "$2" "$3"', status, secs, limit)
    assert run.stdout == f"{verdict}\n", run.stderr


def test_the_service_gets_the_units_environment_as_systemd_applies_it(tmp_path):
    unit = tmp_path / "obelisk.service"
    unit.write_text("[Service]\nExecStart=/x run\nEnvironment=LG_WD=/tmp\n"
                    'Environment="A=one two" B=3\n#Environment=C=4\n', "utf-8")
    run = _bash('unit_environment "$1" "$2"', sys.executable, str(unit))
    assert run.stdout.splitlines() == ["LG_WD=/tmp", "A=one two", "B=3"], run.stderr
    table_unit = (ROOT / "systemd" / "obelisk.service")
    run = _bash('unit_environment "$1" "$2"', sys.executable, str(table_unit))
    assert "LG_WD=/tmp" in run.stdout.splitlines()
    script = (ROOT / "tools" / "pi-root.sh").read_text("utf-8")
    assert '"${unit_env[@]}"' in script and "watch_run 1800 180" in script


REFUSAL = ("setup: FAILED: this Raspberry Pi runs a 32-bit system (dpkg --print-architecture: "
           "armhf; uname -m: armv7l), and the table needs a 64-bit Raspberry Pi OS (Bookworm or "
           "newer): its libraries have no 32-bit builds. Nothing was installed. Write the card "
           "again with Raspberry Pi Imager.\n")


@pytest.mark.parametrize(("status", "said", "venv", "verdict"), [
    (1, REFUSAL, False, "setup.sh refused the 32-bit system in words (status 1) and installed "
                        "nothing\n"),
    (0, REFUSAL, False, "FAIL: setup.sh ended with 0 on a 32-bit system\n"),
    (1, "setup: FAILED: gpiod failed to build\n", False,
     "FAIL: setup.sh never said 'the table needs a 64-bit Raspberry Pi OS'\n"),
    (1, "setup: creating .venv\n" + REFUSAL, False,
     "FAIL: setup.sh started on it: setup: creating .venv\n"),
    (1, REFUSAL, True, "FAIL: setup.sh made {venv}\n"),
])
def test_a_32_bit_root_passes_only_when_setup_refused_it_before_installing(
        tmp_path, status, said, venv, verdict):
    log, folder = tmp_path / "setup.log", tmp_path / ".venv"
    log.write_text(said, "utf-8")
    if venv:
        folder.mkdir()
    run = _bash('refused_32_bit "$1" "$2" "$3"', str(status), str(log), str(folder))
    assert run.stdout == verdict.format(venv=folder), run.stderr
    assert run.returncode == (0 if verdict.startswith("setup.sh refused") else 1)


@pytest.mark.parametrize("tool", ["pi-root", "pi-boot"])
@pytest.mark.parametrize(("args", "status", "said"), [
    (["--help"], 0, "Usage: sudo tools/{tool}.sh"),
    (["--release", "sid"], 1, "{tool}: FAILED: release sid: only bookworm and trixie are known"),
    (["--model"], 1, "{tool}: FAILED: --model needs a value"),
    (["--keep", "--colour", "red"], 1, "{tool}: FAILED: unknown option: --colour"),
])
def test_both_tools_read_their_shared_options_alike(tool, args, status, said):
    """pi-root.sh and pi-boot.sh read the options they share in one place
    (tools/pi-options.sh): each answers a bad one in the same words, before it needs root."""
    run = subprocess.run(["bash", str(ROOT / "tools" / f"{tool}.sh"), *args],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == status, run.stderr
    assert said.format(tool=tool) in run.stdout + run.stderr


def test_the_ranges_over_runs_say_how_many_passed(tmp_path):
    """`--runs 3`'s summary gives each step's range of seconds beside how many runs passed it:
    a run that failed fast (9.3 s) is in the range and counted out, not hidden by it."""
    lines = ["bookworm/raspberry-pi-5#1|setup-first|PASS|85.4|log",
             "bookworm/raspberry-pi-5#2|setup-first|PASS|101.2|log",
             "bookworm/raspberry-pi-5#3|setup-first|FAIL|9.3|log",
             "bookworm/raspberry-pi-5#1|demo|PASS|9.6|log",
             "trixie/raspberry-pi-5#1|demo|FAIL|12.0|log"]
    run = subprocess.run(["bash", "-c", f'. "{CHECKS}"; step_ranges'], input="\n".join(lines),
                         capture_output=True, text=True, timeout=60)
    rows = [line.split() for line in run.stdout.splitlines()]
    assert rows == [["bookworm/raspberry-pi-5", "setup-first", "2", "of", "3", "9.3-101.2"],
                    ["bookworm/raspberry-pi-5", "demo", "1", "of", "1", "9.6-9.6"],
                    ["trixie/raspberry-pi-5", "demo", "0", "of", "1", "12.0-12.0"]], run.stderr


@pytest.mark.parametrize("runs", ["0", "three", "100"])
def test_runs_must_be_a_count(runs):
    run = subprocess.run(["bash", str(ROOT / "tools" / "pi-root.sh"), "--runs", runs],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"--runs {runs}: give a whole number from 1 to 99" in run.stderr, run.stderr
