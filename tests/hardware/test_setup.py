"""setup.sh on the machines it meets: a 32-bit Raspberry Pi OS is told what to install
instead, before anything is installed; the venv it makes never installs at run time.

setup.sh is run from a copy in the test's own folder, with ``dpkg``, ``uname`` and every
installer faked first on PATH: whatever it does, it cannot touch this checkout or machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.pi_models import MODEL_FILE_ENV
from tests.support import ROOT

pytestmark = pytest.mark.processes

# Every program setup.sh could install or build with: each writes its name down and fails.
INSTALLERS = ("python3", "apt-get", "sudo", "pip", "npm", "usermod", "systemctl", "tee")


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", "utf-8")
    path.chmod(0o755)


def _setup_on(tmp_path: Path, userland: str, kernel: str) -> tuple[subprocess.CompletedProcess,
                                                                   list[str]]:
    """setup.sh (a copy) on a pretend Pi 3 whose dpkg and uname say these architectures:
    its run, and the installers it called."""
    checkout, fakes, calls = tmp_path / "checkout", tmp_path / "bin", tmp_path / "calls"
    checkout.mkdir()
    fakes.mkdir()
    shutil.copy2(ROOT / "setup.sh", checkout / "setup.sh")
    _fake(fakes, "dpkg", f'[ "$1" = --print-architecture ] && echo {userland}')
    _fake(fakes, "uname", f'[ "$1" = -m ] && echo {kernel}')
    for name in INSTALLERS:
        _fake(fakes, name, f'echo {name} "$@" >> "{calls}"; exit 1')
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 3 Model B Rev 1.2\0")
    env = {"PATH": f"{fakes}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
           MODEL_FILE_ENV: str(model)}
    run = subprocess.run(["bash", str(checkout / "setup.sh")], cwd=checkout, env=env,
                         capture_output=True, text=True, timeout=60)
    said = calls.read_text("utf-8").splitlines() if calls.exists() else []
    return run, said


@pytest.mark.parametrize(("userland", "kernel", "found"), [
    ("armhf", "armv7l", "a 32-bit system (dpkg --print-architecture: armhf; uname -m: armv7l)"),
    ("armhf", "aarch64", "32-bit programs (dpkg --print-architecture: armhf) on a 64-bit "
                         "kernel (uname -m: aarch64)"),
])
def test_a_32_bit_pi_is_told_to_write_a_64_bit_os_before_anything_is_installed(
        tmp_path, userland, kernel, found):
    run, installers = _setup_on(tmp_path, userland, kernel)
    assert run.returncode != 0
    assert installers == [], installers  # not even Python was asked anything
    assert f"setup: FAILED: this Raspberry Pi runs {found}, and the table needs a 64-bit " \
           "Raspberry Pi OS" in run.stderr, run.stderr
    assert 'Raspberry Pi Imager' in run.stderr and '"Raspberry Pi OS (64-bit)"' in run.stderr
    assert run.stderr.count("\n") == 2 and "Traceback" not in run.stderr  # one paragraph


def test_a_64_bit_pi_goes_past_the_check(tmp_path):
    """arm64 programs: on to Python (here a fake that fails, so nothing more happens)."""
    run, installers = _setup_on(tmp_path, "arm64", "aarch64")
    assert "64-bit Raspberry Pi OS" not in run.stderr
    assert "Python 3.11 or newer is needed" in run.stderr, run.stderr
    assert installers and installers[0].startswith("python3 -c"), installers


def test_every_python_of_the_venv_skips_blinkas_run_time_installs():
    """Blinka asks "Install them into the current Python environment? [Y/n]" at a terminal
    unless BLINKA_SKIP_DEPENDENCY_CHECK=1: a fresh interpreter of the venv setup.sh made has
    it set with nothing set by hand (so ``import board``, every entry point, diag)."""
    venv_python = Path(sys.prefix) / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "BLINKA_SKIP_DEPENDENCY_CHECK"}
    run = subprocess.run([str(venv_python), "-c", "import os; "
                          "print(os.environ.get('BLINKA_SKIP_DEPENDENCY_CHECK'))"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.stdout == "1\n", (run.stdout, run.stderr)
