"""obelisk demo towers, run as a person runs it: whole games, killed and resumed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.towers.blocks import Colour

OBELISK = str(Path(sys.executable).parent / "obelisk")
SEED = 5
ARGS = ["demo", "towers", "--seed", str(SEED), "--json", "--speed", "50"]


@pytest.fixture(scope="module")
def uninterrupted() -> list[dict]:
    run = subprocess.run([OBELISK, *ARGS], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_a_whole_game_ends_with_the_game_over_line(uninterrupted):
    last = uninterrupted[-1]
    assert list(last) == ["event", "game", "winner", "players"]
    assert last["event"] == "game_over" and last["game"] == "towers"
    assert last["winner"] in ("A", "B", None)
    points = {c.label: c.points for c in Colour}
    for info in last["players"].values():
        assert set(info) == {"score", "blocks", "overflow"}
        assert info["score"] == sum(points[c] for c in info["blocks"]) - info["overflow"]


def test_each_game_has_a_timeout_and_a_corrected_illegal_placement(uninterrupted):
    kinds = [e["event"] for e in uninterrupted]
    assert kinds[0] == "toss"
    assert "timeout" in kinds
    floating = [e for e in uninterrupted if e["event"] == "illegal" and "floats" in e["message"]]
    assert floating, "the planned illegal placement was not refused"
    after = kinds[kinds.index("illegal", uninterrupted.index(floating[0])):]
    assert "repaired" in after and "accepted" in after


def test_a_killed_demo_resumes_and_ends_the_same(uninterrupted, tmp_path):
    state = tmp_path / "state"
    first = subprocess.Popen([OBELISK, *ARGS, "--state-dir", str(state)],
                             stdout=subprocess.PIPE, text=True)
    accepted = 0
    deadline = time.monotonic() + 120
    for line in first.stdout:
        accepted += json.loads(line)["event"] == "accepted"
        if accepted >= 15 or time.monotonic() > deadline:
            break
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert accepted >= 15
    again = subprocess.run([OBELISK, *ARGS, "--state-dir", str(state)],
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    events = [json.loads(line) for line in again.stdout.splitlines()]
    assert events[0]["event"] == "resumed" and events[0]["actions"] >= 15
    assert events[-1] == uninterrupted[-1]


@pytest.mark.parametrize("mode", ["open", "balanced"])
def test_a_stones_demo_plays_to_the_end(mode):
    run = subprocess.run([OBELISK, "demo", "stones", "--seed", "3", "--json", "--speed", "50",
                          "--mode", mode], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    last = events[-1]
    assert list(last) == ["event", "game", "winner", "reason", "plies"]
    assert last["event"] == "game_over" and last["game"] == "stones"
    assert last["reason"] in ("obelisk", "no_legal_moves", "ply_limit")
    accepted = [e for e in events if e["event"] == "accepted"]
    assert len(accepted) == last["plies"]
    kinds = [e["event"] for e in events]
    if "illegal" in kinds:  # the planned wrong move, refused and put right
        assert "repaired" in kinds[kinds.index("illegal"):]


def test_stack_height_sensors_play_the_same_game_without_the_button():
    def play(*extra):
        run = subprocess.run([OBELISK, "demo", "stones", "--seed", "2", "--json", "--speed", "50",
                              *extra], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        return [json.loads(line) for line in run.stdout.splitlines()]

    switches, heights = play(), play("--stack-sensors")
    moves = [[e["move"] for e in events if e["event"] == "accepted"]
             for events in (switches, heights)]
    assert moves[0] == moves[1] and heights[-1] == switches[-1]
    assert any(e["event"] == "choose" for e in switches)      # seed 2 stacks: buttons needed
    assert not any(e["event"] == "choose" for e in heights)


HIGHRISE_QUIET_KEYS = {"event", "game", "first", "pieces_each", "player", "ply", "left",
                       "message", "sizes", "tolerance"}


def test_a_highrise_demo_plays_to_the_end_and_keeps_its_secrets(tmp_path):
    run = subprocess.run([OBELISK, "demo", "highrise", "--seed", "4", "--json", "--speed", "50",
                          "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    last = events[-1]
    assert list(last) == ["event", "game", "winner", "players", "stacks"]
    assert last["event"] == "game_over" and last["game"] == "highrise"
    assert [s["cell"] for s in last["stacks"]] == [c + r for r in "123" for c in "abc"]
    for p in "AB":
        assert last["players"][p]["score"] == sum(s["points"] for s in last["stacks"]
                                                  if s["controller"] == p)
    assert sum(s["pips"]["A"] + s["pips"]["B"] for s in last["stacks"]) == 2 * (5 + 20 + 30)
    assert len([e for e in events if e["event"] == "placed"]) == 50
    kinds = [e["event"] for e in events]
    assert "illegal" in kinds and "repaired" in kinds[kinds.index("illegal"):]
    first_reveal = kinds.index("reveal")
    for event in events[:first_reveal]:          # nothing hidden before the reveal
        assert set(event) <= HIGHRISE_QUIET_KEYS, event
    assert kinds[first_reveal:] == ["reveal"] * 9 + ["game_over"]


def test_the_highrise_screen_shows_no_value_before_the_reveal(tmp_path):
    run = subprocess.run([OBELISK, "demo", "highrise", "--seed", "6", "--speed", "50",
                          "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    before, _, after = run.stdout.partition("--- reveal")
    assert "pieces left" in before and "value" not in before and "pips A" not in before
    assert "value" in after and "GAME OVER" in after


def test_calibrate_highrise_on_the_simulated_table(tmp_path):
    run = subprocess.run([OBELISK, "calibrate", "highrise", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Take every piece off the board" in run.stdout
    saved = json.loads((tmp_path / "highrise-calibration.json").read_text())
    assert 0 < saved["sizes"][0] < saved["sizes"][1] < saved["sizes"][2]
    assert saved["tolerance"] * 3 <= min(saved["sizes"][0], saved["sizes"][1] - saved["sizes"][0])
    run = subprocess.run([OBELISK, "run", "--game", "highrise", "--size", "5x5",
                          "--state-dir", str(tmp_path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2 and "has 9 load cells" in run.stderr


@pytest.mark.parametrize("turns", [15, 25])
def test_a_maze_demo_plays_to_the_end(turns):
    run = subprocess.run([OBELISK, "demo", "maze", "--seed", "2", "--json", "--speed", "50",
                          "--turns", str(turns)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    last = events[-1]
    assert list(last) == ["event", "game", "winner", "claimed", "turns_used", "walls_used"]
    assert last["event"] == "game_over" and last["game"] == "maze"
    moves = [e for e in events if e["event"] == "move"]
    walls = [e for e in events if e["event"] == "wall"]
    assert len(moves) == last["turns_used"] <= turns and len(walls) == last["walls_used"]
    assert last["claimed"] == 1 + sum(e["new_claim"] for e in moves)
    assert last["winner"] == ("architect" if last["claimed"] == 5 else "maze_master")
    kinds = [e["event"] for e in events]          # the sealing wall, refused and taken off
    assert "illegal" in kinds and "repaired" in kinds[kinds.index("illegal"):]
