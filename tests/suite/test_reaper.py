"""Nothing a test starts outlives the run, however the run ends (``support.reaper``).

Each test runs pytest inside pytest on a small module of its own whose fixtures start what
the suite starts (an ``obelisk play`` with its board, service and page; a mosquitto; a
process that left its parent behind and ignores SIGTERM), waits until they run, then ends
that inner run the way a person, an editor or a CI runner does. The inner module and one of
its tests take the stop signals for themselves, as code under test may: the run takes them
back before each test. Every process of the inner
run carries a tag of this test's in its environment, so none can hide: once the inner
pytest is gone, not one may be left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.processes import PROC, processes, until

pytestmark = [pytest.mark.processes, pytest.mark.broker]

INNER = '''
import os, signal, subprocess, sys, time
from pathlib import Path

import pytest

from tests.support.broker import Mosquitto
from tests.support.play import Play

pytestmark = pytest.mark.processes

READY = Path(os.environ["READY"])


def _take_the_stop_signals():
    """What code under test may do (firmware.cli did, on import): end at once on a stop."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, lambda *_: os._exit(0))


_take_the_stop_signals()  # while the module is collected
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"


@pytest.fixture(scope="session")
def table(tmp_path_factory):
    play = Play("towers", tmp_path_factory.mktemp("table") / "state").started()
    yield play
    play.stop()


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    started = Mosquitto(tmp_path_factory.mktemp("broker")).start()
    yield started
    started.stop()


@pytest.fixture(scope="session")
def orphan():
    """A process whose parent left at once, in a session of its own, deaf to SIGTERM."""
    subprocess.run([sys.executable, "-c",
                    "import subprocess, sys; subprocess.Popen([sys.executable, '-c', %r], "
                    "start_new_session=True)" % STUBBORN], check=True)


@pytest.fixture
def broken(tmp_path):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    raise RuntimeError("this fixture fails after starting a process")


def test_code_that_takes_the_stop_signals():
    _take_the_stop_signals()  # again, for the tests after it


def test_everything_running(table, broker, orphan):
    READY.write_text("ready")
    time.sleep(600)  # until the run is ended from outside


def test_a_fixture_that_fails(broken):
    pass
'''
"""The inner run's module: ``test_everything_running`` holds until it is stopped."""

HOW = {
    "SIGTERM": ("-k", "takes or everything"),
    "SIGHUP": ("-k", "takes or everything"),
    "SIGINT": ("-k", "takes or everything"),
    "timeout": ("-k", "everything", "--timeout", "5", "-o", "timeout_func_only=true"),
    "a failing fixture": ("-k", "fails"),
}


def _tagged(tag: str) -> list[str]:
    """The living processes whose environment carries ``tag`` (an inner run's)."""
    found = []
    for p in processes():
        if p.zombie or p.pid == os.getpid():
            continue
        try:
            environ = (PROC / str(p.pid) / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"INNER_RUN={tag}".encode() in environ:
            found.append(f"{p.pid} {p.command[:120]}")
    return found


def _inner_run(tmp_path: Path, tag: str, *args: str) -> subprocess.Popen:
    (tmp_path / "test_inner.py").write_text(INNER)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {**os.environ, "INNER_RUN": tag, "READY": str(tmp_path / "ready"),
           "PYTHONPATH": str(ROOT)}
    # A run started in the background by a shell without job control (as a CI runner may
    # start it) ignores Ctrl-C, and its children would inherit that: the inner run starts
    # as if from a terminal, where Ctrl-C stops it.
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with open(tmp_path / "inner.log", "w") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "pytest", "-p", "tests.support.plugin", "-p",
                 "no:cacheprovider", "-q", "-c", str(tmp_path / "pytest.ini"), "--rootdir",
                 str(tmp_path), str(tmp_path / "test_inner.py"), *args],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("how", list(HOW))
def test_no_process_outlives_a_run_however_it_ends(tmp_path, how):
    tag = uuid.uuid4().hex
    inner = _inner_run(tmp_path, tag, *HOW[how])
    try:
        if how != "a failing fixture":
            until(lambda: (tmp_path / "ready").exists() or inner.poll() is not None, 120,
                  "the inner run's processes to start")
            assert inner.poll() is None, (tmp_path / "inner.log").read_text()
            running = _tagged(tag)
            assert len(running) >= 6, running  # pytest, play's three and itself, mosquitto...
            if how != "timeout":
                os.kill(inner.pid, getattr(signal, how))  # to pytest's pid alone
        code = inner.wait(180)
    finally:
        if inner.poll() is None:
            inner.kill()
    said = (tmp_path / "inner.log").read_text()
    assert code != 0, said  # an interrupted or failed run is never a green one
    if how == "timeout":
        assert "Timeout" in said, said
    until(lambda: not _tagged(tag), 30, f"every process of the inner run gone: {_tagged(tag)}")
    assert "Traceback" not in said.split("short test summary")[-1], said
