"""The simulated board keeps its pieces, as the wooden set does (issue 32, point 1).

What the hands put on the simulated table is written to the state directory
after every act and put back when a board starts there again: a restarted
``obelisk play`` finds the table as it was and plays on, with no repair asked.
A file that is damaged or from another game leaves the board empty, says why
in one line, and is kept aside, never deleted.

The two restarted games are played ahead, side by side, from the module's first test
(``tests.support.ahead``): each mostly waits on its table. Each test checks its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path

import pytest

from firmware.service.command_socket import send
from firmware.sim.hands_board import TABLE_FILE, hands_for
from hardware.sim.board import SimBoard
from hardware.sim.line_socket import ask
from tests.support.ahead import played_ahead
from tests.support.person import Follow, plan
from tests.support.play import Play
from tests.support.processes import children

ACT_S = 60.0
"""How long the table may take to accept an act on a busy machine."""

ACTS = {
    "towers": ("sim", [
        {"act": "take", "seat": "A", "block": "G01"},
        {"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]},
        {"act": "take", "seat": "A", "block": "B01"},
        {"act": "set", "seat": "A", "pad": 1},
        {"act": "take", "seat": "B", "block": "G03"},
        {"act": "lower", "seat": "B", "tower": 1, "at": [0, 0]},
        {"act": "knock", "tower": 1},  # G03 lies on the table
        {"act": "take", "seat": "B", "block": "G02"},
        {"act": "turn", "seat": "B"},
        {"act": "hover", "seat": "B", "tower": 0, "at": [1, 1]},  # a hand over tower 0
    ]),
    "stones": ("sim", [
        {"act": "take", "seat": "A", "piece": "A corner"},
        {"act": "put", "seat": "A", "square": "c1"},
        {"act": "take", "seat": "A", "piece": "A key"},
        {"act": "put", "seat": "A", "square": "c1"},  # a stack of two
        {"act": "take", "seat": "B", "piece": "B cap"},  # held
    ]),
    "highrise": ("sim", [
        {"act": "cover", "square": "b1"},
        {"act": "set", "seat": "A", "square": "b1", "size": "medium"},
        {"act": "set", "seat": "B", "square": "b1", "size": "small"},
        {"act": "lean", "seat": "B", "square": "a2", "other": "b2", "size": "large"},
    ]),
    "maze": ("sim-maze", [
        {"act": "take", "seat": "A", "piece": "obelisk"},
        {"act": "put", "seat": "A", "square": "a1"},
        {"act": "take", "seat": "B", "piece": "segment 2"},
        {"act": "put", "seat": "B", "square": "a3"},
        {"act": "lift", "seat": "A", "square": "a1"},
        {"act": "put", "seat": "A", "square": "a3"},  # the obelisk on its segment
        {"act": "stand", "square": "c3"},
        {"act": "stand", "square": "h8"},
        {"act": "take", "seat": "B", "piece": "segment 4"},  # held
    ]),
}


def _truth(board: SimBoard) -> tuple:
    """What the scanner code reads off the simulated table: every sensor's physical cause."""
    sim = board.sim
    return sim.cubes, sim.stacks, sim.grams, sim.walls, sim.hovering, sim.load_counts()


@pytest.mark.processes
@pytest.mark.parametrize("game", list(ACTS))
def test_a_board_started_again_on_its_directory_has_the_same_pieces(tmp_path, game):
    profile, acts = ACTS[game]
    with SimBoard(tmp_path, profile, hands_for(game)) as board:
        empty = _truth(board)
        for act in acts:
            answer = board.answer(act)
            assert answer["ok"], answer
        truth, look = _truth(board), board.answer({"act": "look"})["table"]
    assert truth != empty
    with SimBoard(tmp_path, profile, hands_for(game)) as again:
        assert _truth(again) == truth  # the same sensors
        assert again.answer({"act": "look"})["table"] == look  # the same pieces, and hands
        assert again.hands.said == ""
    fresh = SimBoard(tmp_path / "other", profile, hands_for(game))
    assert _truth(fresh) == empty  # another directory's board starts empty


def test_the_kept_pieces_play_on_the_hands_know_which_block_is_which(tmp_path):
    """The restored hands are the hands: the block on the tower lifts off, the held one
    lowers, the knocked one is picked up off the table."""
    with SimBoard(tmp_path, "sim", hands_for("towers")) as board:
        for act in ACTS["towers"][1]:
            assert board.answer(act)["ok"]
    with SimBoard(tmp_path, "sim", hands_for("towers")) as board:
        for act in ({"act": "lower", "seat": "B", "tower": 0, "at": [1, 1]},
                    {"act": "take", "seat": "B", "block": "G03"},
                    {"act": "lift", "seat": "A", "tower": 0, "block": "G02"}):
            answer = board.answer(act)
            assert answer["ok"], (act, answer)
        look = board.answer({"act": "look"})["table"]
    assert [p["id"] for p in look["towers"][0]] == ["G01"]
    assert look["held"]["A"]["id"] == "G02" and look["held"]["B"]["id"] == "G03"
    assert "G03" not in {b["id"] for b in look["pile"]} and look["fallen"] == []


def _maze_file(tmp_path: Path) -> bytes:
    with SimBoard(tmp_path / "maze", "sim-maze", hands_for("maze")) as board:
        for act in ACTS["maze"][1]:
            board.answer(act)
    return (tmp_path / "maze" / TABLE_FILE).read_bytes()


DAMAGED = {
    "not JSON": (lambda _: b'{"game": "towers", "table": {"tow', "cannot be read"),
    "empty": (lambda _: b"", "cannot be read"),
    "not a table": (lambda _: b"[1, 2, 3]", "cannot be read"),
    "another game's": (_maze_file, "from a game of maze, not towers"),
    "unknown block": (lambda _: json.dumps({"game": "towers", "table": {
        "pads": [None, None], "held": {"A": None, "B": None}, "fallen": [],
        "towers": [[{"block": "Z99", "cells": [[0, 0, 0]]}], []], "hovering": None}}).encode(),
        "cannot be read"),
    "a block twice": (lambda _: json.dumps({"game": "towers", "table": {
        "pads": ["G01", None], "held": {"A": None, "B": {"block": "G01", "turn": 0}},
        "fallen": [], "towers": [[], []], "hovering": None}}).encode(), "cannot be read"),
}


@pytest.mark.parametrize("case", list(DAMAGED))
def test_a_damaged_or_foreign_file_leaves_the_board_empty_says_why_and_is_kept(tmp_path,
                                                                              case):
    make, words = DAMAGED[case]
    data = make(tmp_path)
    state = tmp_path / "table"
    state.mkdir()
    (state / TABLE_FILE).write_bytes(data)
    with SimBoard(state, "sim", hands_for("towers")) as board:
        said = board.hands.said
        assert not any(board.sim.cubes) and not any(board.sim.grams)  # empty
        assert board.answer({"act": "look"})["table"] == \
            SimBoard(tmp_path / "fresh", "sim", hands_for("towers")).hands.look()
    assert len(said.splitlines()) == 1 and words in said, said
    assert "Traceback" not in said and "starts empty" in said, said
    kept = [p for p in state.iterdir() if p.name.startswith("sim-hands") and "aside" in p.name]
    assert [p.read_bytes() for p in kept] == [data]  # kept aside, whole
    assert str(kept[0]) in said and not (state / TABLE_FILE).exists()


def test_a_file_kept_aside_never_replaces_another_kept_aside(tmp_path):
    for n in range(3):
        (tmp_path / TABLE_FILE).write_bytes(b"damaged %d" % n)
        SimBoard(tmp_path, "sim", hands_for("towers"))
    kept = sorted(p.read_bytes() for p in tmp_path.iterdir() if "aside" in p.name)
    assert kept == [b"damaged 0", b"damaged 1", b"damaged 2"]


# ---------------------------------------------------------------------- obelisk play again


class Playing:
    """``obelisk play GAME`` on ``tmp_path/table`` (its ``run``-th start), a person's hands on
    its table and its events followed."""

    def __init__(self, tmp_path: Path, game: str, run: int) -> None:
        self.play = Play(game, tmp_path / "table", logs=tmp_path, name=f"play{run}").started()
        self.dir, self.game, self.process = self.play.dir, game, self.play.process
        self.out, self.err = self.play.out, self.play.err
        self.follow = Follow(self.dir)

    def ask(self, act: dict) -> dict:
        answer = ask(self.dir / "hands.sock", act)
        assert answer["ok"], (act, answer)
        return answer["table"]

    def look(self) -> dict:
        return self.ask({"act": "look"})

    def press(self, button: str) -> None:
        ask(self.dir / "buttons.sock", {"button": button})

    def acted(self, acts: list[dict], what: str) -> None:
        """Do ``acts`` with the hands and wait for the table to accept one more action."""
        before = self.follow.accepted()
        for act in acts:
            if act["act"] == "press":
                self.press(act["seat"])
            else:
                self.ask(act)
        self.follow.until(lambda: self.follow.accepted() > before, ACT_S, what)

    def stop(self, signum: int = signal.SIGINT) -> int:
        self.follow.close()
        self.process.send_signal(signum)
        return self.process.wait(30)

    def kill_child(self, word: str) -> int:
        """SIGKILL the one process of this play whose command has ``word``; play's exit
        code."""
        self.follow.close()
        (pid,) = [pid for pid in children(self.process.pid)
                  if word.encode() in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
        os.kill(pid, signal.SIGKILL)
        return self.process.wait(30)

    def close(self) -> None:
        self.follow.close()
        self.play.close()



@contextlib.contextmanager
def _playing(tmp_path: Path, game: str, run: int):
    play = Playing(tmp_path, game, run)
    try:
        yield play
    finally:
        play.close()


def _picks_up_where_it_was(play: Playing, actions: int, look: dict, next_acts: list[dict],
                           what: str) -> None:
    """The table resumed with ``actions`` accepted, the board as ``look``, and it takes the
    next act with no repair asked on the way."""
    follow = play.follow
    first = follow.until(lambda: next((e for e in follow.events if e["event"] == "table"),
                                      None), 30, "the table's state")
    assert first["actions"] == actions and first["state"] == "play", first
    assert play.look() == look  # the same pieces on the page's hands
    status = send(play.dir, {"command": "status"})
    assert status["state"] == "play" and status["problem"] == "", status
    play.acted(next_acts, what)  # the table read the board as the game has it
    troubles = [e for e in follow.events if e["event"] == "refused"
                or e.get("state") == "repair"]
    assert not troubles, troubles
    status = send(play.dir, {"command": "status"})
    assert status["state"] == "play" and status["problem"] == "", status


@pytest.fixture(scope="module", autouse=True)
def restarts(request, tmp_path_factory):
    """The restarted games the module's selected tests check, played ahead."""
    plays = {"towers_restarted": _towers_restarted, "maze_restarted": _maze_restarted}
    ahead = played_ahead(request, tmp_path_factory, plays, timeout=300)
    yield ahead
    ahead.close()


@pytest.fixture
def towers_restarted(restarts) -> None:
    return restarts.result("towers_restarted")


@pytest.fixture
def maze_restarted(restarts) -> None:
    return restarts.result("maze_restarted")


@pytest.mark.processes
def test_towers_after_ctrl_c_picks_up_where_it_was(towers_restarted):
    """Towers started on another game's kept board (it starts empty), three actions played,
    Ctrl-C, the same command again: the same position and board, and the placement taken
    (``_towers_restarted``)."""


def _towers_restarted(tmp_path: Path) -> None:
    (tmp_path / "table").mkdir()
    (tmp_path / "table" / TABLE_FILE).write_bytes(_maze_file(tmp_path))  # another game's
    with _playing(tmp_path, "towers", 1) as play:
        said = play.err.read_text()
        assert "from a game of maze" in said and "Traceback" not in said, said
        assert not any(play.look()["towers"])  # the board starts empty
        play.follow.start_game(lambda: play.press("A"))
        for n in range(3):  # both choices, then the passive player's take
            play.acted(plan(play.follow.obs, play.look()), f"action {n + 1}")
        look, obs = play.look(), play.follow.obs
        assert play.stop() == 130
    with _playing(tmp_path, "towers", 2) as play:
        assert "from a game of" not in play.err.read_text()
        play.follow.until(lambda: play.follow.obs, 30, "the table's position")
        assert play.follow.obs == obs
        _picks_up_where_it_was(play, 3, look, plan(obs, look), "the placement")
        assert play.stop() == 130
    assert "Traceback" not in (tmp_path / "table" / "service.log").read_text()


MAZE = [[{"act": "take", "seat": "A", "piece": "obelisk"},
         {"act": "put", "seat": "A", "square": "b2"}],
        *([{"act": "take", "seat": "B", "piece": f"segment {n}"},
           {"act": "put", "seat": "B", "square": square}]
          for n, square in zip(range(2, 6), ("b5", "e5", "e2", "g7"), strict=True))]
"""The Architect's obelisk, then the Maze Master's four segments: one action each."""


def _started(play: Playing) -> None:
    follow = play.follow
    follow.until(lambda: follow.state in ("setup", "play"), 30, "the maze table")
    for _ in range(30):  # press until the game starts, as a person would
        if follow.state == "play":
            return
        play.press("A")
        with contextlib.suppress(AssertionError):
            follow.until(lambda: follow.state == "play", 1.0, "the game to start")
    raise AssertionError(f"the maze did not start: {follow.problem!r}")


@pytest.mark.processes
def test_the_maze_after_any_of_its_processes_is_killed_picks_up_where_it_was(maze_restarted):
    """The board killed (SIGKILL), then the service, then Ctrl-C: each time play stops the
    rest, and the same command again plays on from the same position (``_maze_restarted``)."""


def _maze_restarted(tmp_path: Path) -> None:
    with _playing(tmp_path, "maze", 1) as play:
        _started(play)
        for n, acts in enumerate(MAZE[:2]):
            play.acted(acts, f"action {n + 1}")
        look = play.look()
        code = play.kill_child("firmware.sim.hands_board")  # play sees it die, stops the rest
        said = play.err.read_text()
        assert code == 2 and "simulated board stopped: it was killed" in said, said
        assert "goes on from where it was" in said and "Traceback" not in said, said
    for run, kill in ((2, "run"), (3, None), (4, None)):  # run: the table service's process
        with _playing(tmp_path, "maze", run) as play:  # `run` actions accepted before it
            _picks_up_where_it_was(play, run, look, MAZE[run], f"action {run + 1}")
            look = play.look()
            if kill is None:
                assert play.stop() == 130
                continue
            code = play.kill_child(kill)
            said = play.err.read_text()
            assert code == 2 and "table service stopped" in said, said
    assert "Traceback" not in (tmp_path / "table" / "service.log").read_text()
