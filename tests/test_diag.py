"""obelisk diag on the simulated table, as a person runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _obelisk(*args: str) -> subprocess.CompletedProcess:
    obelisk = Path(sys.executable).parent / "obelisk"
    return subprocess.run([str(obelisk), *args], capture_output=True, text=True, timeout=60)


def test_diag_shows_the_simulated_table():
    run = _obelisk("diag", "--profile", "sim", "--once")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "profile sim (simulated table)" in out
    assert "link: connected, synced" in out and "bad frames 0" in out
    assert " 9 ... ... ...    ... ... ..." in out       # both towers, empty, top level
    assert "board 8x8" in out and "   a b c d e f g h" in out
    assert "load cells (raw): " in out
    assert "buttons: A up  B up  menu up" in out
    assert "LED test: ring A 0 lit (chain 0, pixel 0)" in out


def test_diag_follows_the_demo_hand_and_lights_leds_in_turn():
    run = _obelisk("diag", "--seconds", "2.5")
    assert run.returncode == 0, run.stderr
    screens = run.stdout.split("obelisk diag: profile sim")[1:]
    assert len(screens) >= 5
    lit = [line for s in screens for line in s.splitlines() if line.startswith("LED test:")]
    assert lit[:3] == ["LED test: ring A 0 lit (chain 0, pixel 0)",
                       "LED test: ring A 1 lit (chain 0, pixel 1)",
                       "LED test: ring A 2 lit (chain 0, pixel 2)"]
    # The demo hand put a block on tower A within the first seconds.
    assert any(" 1 #.. ##. ##." in s for s in screens[-2:])


def test_diag_with_a_bad_profile_explains(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text("[scanner]\nboard = \"12x12\"\n", "utf-8")
    run = _obelisk("diag", "--profile", str(bad), "--once")
    assert run.returncode == 2
    assert "board = '12x12'" in run.stderr and "3x3 to 8x8" in run.stderr
