"""README's test command on a Raspberry Pi: setup.sh installs no Playwright and no browser
there, so nothing may need them to collect, what needs a browser skips saying why, and the
tests of "off a Pi" hold on a Pi too.

Played on any machine as a pretend Pi 4 (``tests/support/pi.py``) whose venv has no
Playwright: a ``playwright`` package first on the path that refuses to import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.pi_models import MODEL_FILE_ENV
from tests.support import ROOT

pytestmark = pytest.mark.processes

PI_4 = "Raspberry Pi 4 Model B Rev 1.4"
OFF_A_PI_TESTS = (
    "tests/hardware/test_buttons_and_leds.py::test_pi_leds_off_a_pi_say_what_to_do",
    "tests/hardware/test_missing_hardware.py::"
    "test_a_table_that_cannot_start_stops_what_it_had_started",
    "tests/hardware/test_pi_models.py::test_the_leds_off_a_pi_still_say_to_use_the_sim_profile",
)
A_BROWSER_TEST = ("tests/browser/test_controls.py::"
                  "test_playing_towers_alone_the_page_draws_the_computers_blocks")


def _as_a_pi_without_playwright(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m pytest ARGS`` in one process, on a pretend Pi 4 with no Playwright."""
    shadow = tmp_path / "no-playwright" / "playwright"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        'raise ImportError("no Playwright here: setup.sh installs none on a Pi")\n', "utf-8")
    model = tmp_path / "model"
    model.write_bytes(PI_4.encode() + b"\0")
    path = os.pathsep.join(filter(None, [str(shadow.parent), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, MODEL_FILE_ENV: str(model), "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-rs",
                           "-p", "no:cacheprovider", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_whole_suite_collects_on_a_pi_without_playwright(tmp_path):
    run = _as_a_pi_without_playwright(tmp_path, "--collect-only")
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-4000:]
    assert "error" not in said.strip().splitlines()[-1], said[-4000:]  # "N tests collected"


def test_on_a_pi_a_browser_test_skips_saying_why_and_off_a_pi_tests_pass(tmp_path):
    run = _as_a_pi_without_playwright(tmp_path, A_BROWSER_TEST, *OFF_A_PI_TESTS)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-4000:]
    assert f"{len(OFF_A_PI_TESTS)} passed, 1 skipped" in said, said[-4000:]
    assert "the browser tests do not run on a Raspberry Pi (no browser installed)" in said
