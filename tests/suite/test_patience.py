"""The suite's patience (``tests/support/patience.py``): an emulated Pi's test run waits
longer for what it starts, asked with ``OBELISK_TEST_PATIENCE``, and only then."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import ROOT, patience, processes


class _Clock:
    """``time`` as ``until`` reads it: a sleep moves it on, nothing really waits."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_a_wait_on_a_condition_is_as_many_times_longer_as_asked(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(processes, "time", clock)
    monkeypatch.setenv(patience.ENV, "10")
    with pytest.raises(AssertionError, match="waited 20 s for the board"):
        processes.until(lambda: False, 2, "the board", every=0.5)
    assert 20 <= clock.now <= 21
    monkeypatch.delenv(patience.ENV)
    clock.now = 0.0
    with pytest.raises(AssertionError, match="waited 2 s for the board"):
        processes.until(lambda: False, 2, "the board", every=0.5)
    assert clock.now <= 3


@pytest.mark.parametrize("words", ["fast", "0.5", "-3", "nan", "1e9"])
def test_a_patience_that_is_no_factor_is_refused_naming_the_setting(monkeypatch, words):
    monkeypatch.setenv(patience.ENV, words)
    with pytest.raises(ValueError, match=f"{patience.ENV}=.*a number from 1 to 1000"):
        patience.factor()


def test_a_subprocess_timeout_is_stretched_once_however_the_calls_nest(monkeypatch):
    """``subprocess.run`` waits through ``communicate`` and ``wait``: the timeout a test gave
    grows once, not once per layer."""
    monkeypatch.setenv(patience.ENV, "4")
    given = []

    def wait(self, timeout=None):
        given.append(timeout)

    def communicate(self, input=None, timeout=None):
        given.append(timeout)
        return stretched_wait(self, timeout=timeout)

    stretched_wait = patience._stretched(wait, at=1)
    stretched_communicate = patience._stretched(communicate, at=2)
    stretched_communicate(object(), None, 3)  # positional, as a test may write it
    stretched_wait(object(), timeout=5)
    stretched_wait(object())
    assert given == [12, 12, 20, None]


def test_without_patience_nothing_is_stretched():
    """This run's subprocess module is left as it is unless patience is asked for."""
    if patience.factor() != 1:
        pytest.skip(f"this run asks for patience ({patience.ENV})")
    assert not hasattr(subprocess.Popen.wait, "__wrapped__")
    assert not hasattr(subprocess.run, "__wrapped__")


@pytest.mark.processes
def test_a_run_asked_for_patience_stretches_its_subprocesses_and_a_bad_one_is_told(tmp_path):
    probe = tmp_path / "test_probe.py"
    probe.write_text("import subprocess\n\n\ndef test_stretched(request):\n"
                     "    assert subprocess.Popen.wait.__wrapped__\n"
                     "    assert subprocess.run.__wrapped__\n"
                     "    assert request.config.getoption('timeout') == 900\n")
    env = {**os.environ, patience.ENV: "3"}
    command = [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider",
               "-o", "timeout=300", "-p", "tests.support.plugin", str(probe)]
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    env[patience.ENV] = "soon"
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == pytest.ExitCode.USAGE_ERROR, ran.stdout + ran.stderr
    assert f"{patience.ENV}='soon'" in ran.stderr and "Traceback" not in ran.stderr
