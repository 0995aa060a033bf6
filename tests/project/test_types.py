"""The types are a gate: mypy proves engine/ and hardware/ under --strict, and firmware/
under the configuration pyproject.toml states for it.

The configuration is pyproject.toml's ``[tool.mypy]`` (what is checked, how strictly, and
each library without type information, with why); this test runs exactly that, so a
contributor's ``.venv/bin/mypy`` and the suite agree. Its cache lives in the test's own
folder, never in the checkout.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.processes


def _mypy(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args],
                          cwd=ROOT, capture_output=True, text=True)


def test_mypy_proves_the_configured_folders(tmp_path):
    checked = _mypy(cache=tmp_path / "cache")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout, checked.stdout


def test_the_gate_is_strict_and_can_fail(tmp_path):
    """The configuration asks for --strict, and a wrong hint in a checked folder fails."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and set(config["files"]) == {"engine", "hardware",
                                                                 "firmware"}
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def half(n: int) -> int:\n    return n / 2\n", "utf-8")
    checked = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(wrong),
                    cache=tmp_path / "cache")
    assert checked.returncode == 1 and "Incompatible return value type" in checked.stdout, (
        checked.stdout + checked.stderr)


STRICT_IN_FIRMWARE = ("firmware.core.*", "firmware.seats.*", "firmware.match.seat",
                      "firmware.match.asks", "firmware.match.negotiation",
                      "firmware.match.negotiation_values", "firmware.match.negotiation_dicts")
"""The firmware packages held to --strict like engine/ and hardware/ (issue 46), and the
match's modules at the far seats' level: its seat, its asks and their pure protocol (issue
47)."""


def test_the_table_core_and_the_seats_are_strict(tmp_path):
    """firmware/ relaxes some of --strict; its core and seats get every setting back: a
    function without hints fails there, and passes in another firmware package."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    relaxed = next(o for o in config["overrides"] if o["module"] == ["firmware.*"])
    strict = next((o for o in config["overrides"] if o["module"] == list(STRICT_IN_FIRMWARE)),
                  None)
    assert strict is not None, f"no override makes {STRICT_IN_FIRMWARE} strict again"
    assert all(strict[name] is True for name, value in relaxed.items()
               if value is False), strict
    for package in ("core", "sim"):
        folder = tmp_path / "firmware" / package
        folder.mkdir(parents=True)
        (folder.parent / "__init__.py").write_text("", "utf-8")
        (folder / "__init__.py").write_text("", "utf-8")
        (folder / "loose.py").write_text("def half(n):\n    return n // 2\n", "utf-8")
    checked = {package: _mypy("--config-file", str(ROOT / "pyproject.toml"),
                              str(tmp_path / "firmware" / package / "loose.py"),
                              cache=tmp_path / f"cache-{package}")
               for package in ("core", "sim")}
    assert checked["core"].returncode == 1 and "missing a type annotation" in \
        checked["core"].stdout, checked["core"].stdout + checked["core"].stderr
    assert checked["sim"].returncode == 0, checked["sim"].stdout + checked["sim"].stderr
