"""The code stays ruff clean: the same check a contributor runs by hand."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT


@pytest.mark.processes
def test_ruff_finds_nothing():
    ruff = Path(sys.executable).parent / "ruff"
    command = [str(ruff)] if ruff.exists() else [shutil.which("ruff") or "ruff"]
    result = subprocess.run([*command, "check", "--quiet", str(ROOT)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
