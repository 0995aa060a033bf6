"""obelisk demo towers, run as a person runs it: whole games, killed and resumed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.blocks import Colour

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
