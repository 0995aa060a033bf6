"""obelisk diag on the simulated table, as a person runs it."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import diag
from hardware import readout
from hardware.devices import open_table
from hardware.link import BoardStatus
from hardware.profile import load_profile
from hardware.readout import render_board
from hardware.sensors import Layout, Snapshot
from tests.support.play import Play


def _obelisk(*args: str) -> subprocess.CompletedProcess:
    obelisk = Path(sys.executable).parent / "obelisk"
    return subprocess.run([str(obelisk), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.processes
def test_diag_shows_the_simulated_table():
    run = _obelisk("diag", "--profile", "sim", "--once")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "profile sim (simulated table)" in out
    assert "link: connected, synced" in out and "bad frames 0" in out
    assert " 9 ... ... ...    ... ... ..." in out       # both towers, empty, top level
    assert "board 8x8" in out and "   a b c d e f g h" in out
    assert "load cells (raw): " in out
    assert "scanner: a scan every " in out and " ms, load cells every " in out, out
    assert "buttons: A up  B up  menu up" in out
    assert "LED test: ring A 0 lit (chain 0, pixel 0)" in out


@pytest.mark.processes
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


@pytest.mark.processes
def test_diag_with_a_bad_profile_explains(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text("[scanner]\nboard = \"12x12\"\n", "utf-8")
    run = _obelisk("diag", "--profile", str(bad), "--once")
    assert run.returncode == 2
    assert "board = '12x12'" in run.stderr and "3x3 to 8x8" in run.stderr


@pytest.mark.processes
def test_diag_labels_the_maze_switches_as_walls():
    run = _obelisk("diag", "--profile", "sim-maze", "--once")
    assert run.returncode == 0, run.stderr
    assert "board 8x8 with wall switches (o piece, w wall, W both)" in run.stdout
    assert "stack heights" not in run.stdout


def test_the_wall_view_tells_pieces_walls_and_both_apart():
    lay = Layout(towers=0, rows=3, cols=3, stack=2)
    closed = {lay.square_switch(0, 0), lay.square_switch(2, 1, 1),
              lay.square_switch(1, 2), lay.square_switch(1, 2, 1)}
    lines = render_board(Snapshot(lay, frozenset(closed)), walls=True)
    assert lines == ["board 3x3 with wall switches (o piece, w wall, W both)",
                     " 3 . w .", " 2 . . W", " 1 o . .", "   a b c"]
    stacked = render_board(Snapshot(lay, frozenset(closed)))
    assert stacked[0] == "board 3x3 (stack heights up to 2)" and stacked[2] == " 2 . . 2"


class _GoneReader(io.StringIO):
    """A pipe whose reader leaves after the first screen, as `| head -3` does."""

    def write(self, text: str) -> int:
        if "LED test" in self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_diag_stops_quietly_and_closes_the_table_when_its_reader_goes(monkeypatch):
    opened = []

    def open_and_keep(profile, **options):
        opened.append(open_table(profile, **options))
        return opened[-1]

    monkeypatch.setattr(diag, "open_table", open_and_keep)
    monkeypatch.setattr(sys, "stdout", _GoneReader())
    assert diag.run_diag("sim", seconds=60, refresh_s=0.01) == 0
    devices = opened[0]
    assert not devices.link.alive and not devices.sim.plugged
    assert devices.buttons.buttons["A"].closed


@pytest.mark.processes
def test_obelisk_diag_into_head_ends_cleanly():
    obelisk = Path(sys.executable).parent / "obelisk"
    with subprocess.Popen([str(obelisk), "diag", "--seconds", "60"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        head = [proc.stdout.readline() for _ in range(3)]
        proc.stdout.close()  # `head -3` has what it wanted and goes
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read().decode()
    assert head[0].startswith(b"obelisk diag: profile sim")
    assert "Traceback" not in err and "Broken" not in err, err


def test_diag_shows_a_layout_mismatch_first():
    with open_table(load_profile("sim")) as devices:
        assert devices.link.wait_for(lambda s: True, 30.0) is not None
        devices.link.health.layout_mismatch = "the board has 0 towers, but ... describes 2"
        screen = readout.render(devices).splitlines()
    assert screen[2] == "LAYOUT MISMATCH: the board has 0 towers, but ... describes 2"


def test_the_simulated_board_leaves_nothing_behind_in_tmp():
    """Its pseudo-terminal's link lives in a directory of its own, removed at the end."""
    with open_table(load_profile("sim")) as devices:
        board = devices.sim.board
        where = Path(board.port_path).parent
        assert where.is_dir()
        board.stop()  # unplugged...
        board.start()  # ...and plugged in again: the directory comes back
        assert Path(board.port_path).is_symlink()
    assert not where.exists()


def test_diag_shows_the_boards_own_figures_or_that_none_came_yet():
    with open_table(load_profile("sim")) as devices:
        assert devices.link.wait_for(lambda s: True, 30.0) is not None
        devices.link.health.board_status = None
        assert ("scanner: no figures from the board yet (it sends them with its heartbeat, "
                "each second)") in readout.render(devices).splitlines()
        devices.link.health.board_status = BoardStatus(8412, 25000, 0)
        assert "scanner: a scan every 8.4 ms, load cells every 25 ms" in \
            readout.render(devices).splitlines()
        devices.link.health.board_status = BoardStatus(412, None, 3)
        assert ("scanner: a scan every 0.41 ms, no load cells read; 3 frames dropped since "
                "it started (the Pi did not read)") in readout.render(devices).splitlines()


# ------------------------------------------------------------------ what diag was told


@pytest.mark.processes
def test_diag_does_what_it_was_told_beside_a_running_play(home, tmp_path):
    """``--profile`` opens that profile (it drove the running play's table instead);
    ``--state-dir`` asks the table there or says none runs; with neither, the running table
    is found and named."""
    play = Play("towers", None, logs=tmp_path).started()
    where = home / "play" / "towers"
    try:
        given = _obelisk("diag", "--profile", "sim-maze", "--once", "--no-led-test")
        assert given.returncode == 0, given.stderr
        assert given.stdout.startswith("obelisk diag: profile sim-maze (simulated table)")
        assert "through the table service" not in given.stdout
        assert "profile sim-maze" in given.stderr and "--profile" in given.stderr
        assert str(where) not in given.stdout + given.stderr

        found = _obelisk("diag", "--once", "--no-led-test")
        assert found.returncode == 0, found.stderr
        assert f"through the table service on {where}" in found.stdout
        assert (f"obelisk diag: the table running on {where} (`obelisk play towers`'s table)"
                in found.stderr)

        named = _obelisk("diag", "--state-dir", str(where), "--once", "--no-led-test")
        assert named.returncode == 0, named.stderr
        assert f"through the table service on {where}" in named.stdout
        assert f"the table running on {where}, as --state-dir named it" in named.stderr

        other = _obelisk("diag", "--profile", "sim-maze", "--state-dir", str(where), "--once")
        assert other.returncode == 2 and other.stdout == ""
        assert (f"obelisk diag: the table service on {where} runs profile sim board, not sim-maze"
                in other.stderr)
        assert "Traceback" not in other.stderr

        nobody = tmp_path / "nobody"
        none = _obelisk("diag", "--state-dir", str(nobody), "--once")
        assert none.returncode == 2 and none.stdout == "", none.stdout
        assert f"obelisk diag: no table service answers on {nobody}" in none.stderr
        assert "obelisk run --state-dir" in none.stderr and "--profile" in none.stderr
    finally:
        play.stop()


@pytest.mark.processes
def test_diag_with_nothing_running_says_it_opens_the_simulated_table(home):
    run = _obelisk("diag", "--once", "--no-led-test")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("obelisk diag: profile sim (simulated table)")
    assert "no table is running" in run.stderr and "profile sim" in run.stderr
