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


MODULE_LINES = 500
"""The most a product module may hold: one a maker can read through at the table."""


def test_no_product_module_is_longer_than_a_maker_reads_through():
    long = {str(p.relative_to(ROOT)): n for layer in ("engine", "hardware", "firmware")
            for p in (ROOT / layer).rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > MODULE_LINES}
    assert not long, f"modules over {MODULE_LINES} lines: {long}"
