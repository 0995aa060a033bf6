"""One act clears the simulated table, one sets it up for a new game (issue 32, point 7).

With no table there is no sweeping the board with an arm: ``clear`` puts every
piece back (the pile, beside the board, the box) and ``setup`` sets them out
as the game's table expects before a new game. Both are acts of the hands like
any other: they change only the simulated sensors, and the table learns of
them through its sensors. Each game's ``clear`` is checked on the board's own
sensors, through the hands' socket; each game's ``setup`` on the table itself,
through ``obelisk play``: the table says it is ready, and one press starts. Those tables
are played ahead, two at a time, from the module's first test (``tests.support.ahead``): each
mostly waits on its table.
"""

from __future__ import annotations

import contextlib
import json
import os
from functools import partial
from pathlib import Path

import pytest

from engine.stones.game import StonesGame, StonesOptions
from firmware.games import GAMES
from firmware.readers.web.hands import malformed
from firmware.sim.hands_board import hands_for
from hardware.sim.board import SimBoard
from hardware.sim.line_socket import ask
from tests.support import ROOT
from tests.support.ahead import started, wanted
from tests.support.play import Play
from tests.support.processes import until
from tests.support.toy import registered

SETTLE_S = 60.0
"""How long the table may take to see what the hands did, on a busy machine."""

MESS = {
    "towers": [
        {"act": "take", "seat": "A", "block": "G01"},
        {"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]},
        {"act": "take", "seat": "A", "block": "B01"},
        {"act": "set", "seat": "A", "pad": 1},
        {"act": "take", "seat": "B", "block": "G03"},
        {"act": "lower", "seat": "B", "tower": 1, "at": [0, 0]},
        {"act": "knock", "tower": 1},  # G03 lies on the table
        {"act": "take", "seat": "B", "block": "G02"},
        {"act": "hover", "seat": "B", "tower": 0, "at": [1, 1]},  # a hand over tower 0
    ],
    "stones": [
        {"act": "take", "seat": "A", "piece": "A corner"},
        {"act": "put", "seat": "A", "square": "h8"},  # off the game's 6x4 board
        {"act": "take", "seat": "A", "piece": "A key"},
        {"act": "put", "seat": "A", "square": "h8"},
        {"act": "take", "seat": "B", "piece": "B cap"},  # held
    ],
    "highrise": [
        {"act": "cover", "square": "b1"},
        {"act": "set", "seat": "A", "square": "b1", "size": "medium"},
        {"act": "lean", "seat": "B", "square": "a2", "other": "b2", "size": "large"},
    ],
    "maze": [
        {"act": "take", "seat": "A", "piece": "obelisk"},
        {"act": "put", "seat": "A", "square": "a1"},
        {"act": "take", "seat": "B", "piece": "segment 2"},
        {"act": "put", "seat": "B", "square": "a3"},
        {"act": "stand", "square": "c3"},
        {"act": "take", "seat": "B", "piece": "segment 4"},  # held
    ],
    "noughts": [
        {"act": "take", "seat": "A", "piece": "A 1"},
        {"act": "put", "seat": "A", "square": "b2"},
        {"act": "take", "seat": "B", "piece": "B 1"},
    ],
}
"""Pieces everywhere a person leaves them: on the board, off it, in a hand, in the air."""


def _truth(board: SimBoard) -> tuple:
    """What the scanner code reads off the simulated table: every sensor's physical cause."""
    sim = board.sim
    return sim.cubes, sim.stacks, sim.grams, sim.walls, sim.hovering, sim.load_counts()


def _acted(state_dir: Path, act: dict) -> dict:
    answer = ask(state_dir / "hands.sock", act)
    assert answer["ok"], (act, answer)
    return answer["table"]


@pytest.mark.processes
@pytest.mark.parametrize("game", list(MESS))
def test_clear_takes_every_piece_off_the_table_through_its_sensors(tmp_path, game):
    if game == "noughts":
        registered()
    profile = GAMES[game].profile
    with SimBoard(tmp_path / "fresh", profile, hands_for(game)) as fresh:
        empty, untouched = _truth(fresh), fresh.answer({"act": "look"})["table"]
    with SimBoard(tmp_path / "table", profile, hands_for(game)) as board:
        for act in MESS[game]:
            _acted(board.dir, act)
        assert _truth(board) != empty
        look = _acted(board.dir, {"act": "clear"})
        assert _truth(board) == empty  # every sensor as on a table no piece ever touched
        assert look == untouched  # every piece back: the pile, beside the board, the box
        assert _acted(board.dir, {"act": "clear"}) == untouched  # clear again: still clear
    with SimBoard(tmp_path / "table", profile, hands_for(game)) as again:
        assert _truth(again) == empty  # and the board keeps it so


def test_stones_setup_sets_the_stones_for_the_games_options_and_words_wrong_ones(tmp_path):
    """The options as the table's status names them (mode and edition move no stone)."""
    with SimBoard(tmp_path, "sim", hands_for("stones")) as board:
        look = _acted(board.dir, {"act": "setup", "options": {
            "rows": 5, "cols": 7, "mode": "open", "edition": "classic", "ply_limit": None}})
        start = StonesGame(StonesOptions(rows=5, cols=7)).new_initial_state()
        assert board.sim.stacks == {(sq, len(stack)) for sq, stack in start.stacks}
        assert look["squares"] == {"g1": ["A cap"], "f1": ["A corner"], "g2": ["A key"],
                                   "a5": ["B cap"], "b5": ["B corner"], "a4": ["B key"]}
        for wrong, words in (({"options": {"rows": 9, "cols": 4}}, "4 to 8 rows"),
                             ({"options": {"rows": "six", "cols": 4}}, "rows"),
                             ({"options": [5, 5]}, "options")):
            answer = board.answer({"act": "setup", **wrong})
            assert not answer["ok"] and words in answer["error"], answer
            assert "Traceback" not in answer["error"] and answer["table"] == look
        default = StonesGame().new_initial_state()  # no options said: the game's defaults
        _acted(board.dir, {"act": "setup"})
        assert board.sim.stacks == {(sq, len(stack)) for sq, stack in default.stacks}


def test_the_page_server_lets_both_acts_through_and_refuses_options_of_no_shape():
    assert malformed({"act": "clear"}) is None
    assert malformed({"act": "setup"}) is None
    assert malformed({"act": "setup", "options": {"rows": 5, "cols": 5, "mode": "open"}}) \
        is None
    for options in ([5, 5], "5x5", {"rows": {"deep": 1}}, {f"o{n}": n for n in range(30)}):
        words = malformed({"act": "setup", "options": options})
        assert words and "options" in words, options


# ---------------------------------------------------------------------- on the table



@contextlib.contextmanager
def _playing(tmp_path: Path, game: str, *flags: str, env: dict[str, str] | None = None):
    play = Play(game, tmp_path / "table", *flags, env=env, logs=tmp_path).started()
    try:
        yield play
    finally:
        play.stop()
    assert "Traceback" not in (play.dir / "service.log").read_text()


def _table_class(game: str):
    return GAMES[game].table_class()


@pytest.fixture(scope="module", autouse=True)
def tables(request, tmp_path_factory):
    """The tables the module's selected tests set up, played ahead two at a time."""
    if "noughts" in wanted(request, list(MESS)):
        registered()  # the toy game, in this process too (before any thread looks it up)

    def run(name: str):
        home = tmp_path_factory.mktemp(name)
        return partial(_mid_game_setup, home) if name == "mid_game" else \
            partial(_setup_starts, home, name)

    ahead = started(request, run, [*MESS, "mid_game"], timeout=300, at_once=2)
    yield ahead
    ahead.close()


@pytest.mark.processes
@pytest.mark.parametrize("game", list(MESS))
def test_setup_leaves_what_the_table_waits_for_and_one_press_starts(tables, game):
    """The mess of ``MESS`` made on a table in setup, then ``setup``: the table says it is
    ready, and one press starts (``_setup_starts``)."""
    tables.result(game)


def _setup_starts(tmp_path: Path, game: str) -> None:
    env = None
    if game == "noughts":  # the processes play starts know the toy game too
        env = {**os.environ, "OBELISK_GAMES": "tests.support.toy",
               "PYTHONPATH": str(ROOT)}
    table = _table_class(game)
    with _playing(tmp_path, game, env=env) as play:
        play.until_status(lambda s: s["state"] == "setup", "the table in setup")
        for act in MESS[game]:
            _acted(play.dir, act)
        play.until_status(lambda s: s["problem"] not in (table.READY, ""), "the mess seen")
        _acted(play.dir, {"act": "setup", "options": play.status()["options"]})  # as the page does
        if game == "maze":  # the board clear: the Architect's obelisk begins the game
            play.until_status(lambda s: s["problem"] == table.READY, "the board ready")
            _acted(play.dir, {"act": "take", "seat": "A", "piece": "obelisk"})
            _acted(play.dir, {"act": "put", "seat": "A", "square": "d4"})
        else:
            play.until_status(lambda s: s["problem"] == table.READY, "the table ready")
            play.press("A")  # once
        play.until_status(lambda s: s["state"] == "play", "the game started")


@pytest.fixture
def mid_game(tables) -> None:
    return tables.result("mid_game")


@pytest.mark.processes
def test_a_setup_in_the_middle_of_a_game_asks_for_a_repair_and_records_nothing(mid_game):
    """A person sweeping the board mid-game: the table sees a board no move makes, asks for
    it as the game has it, and the journal holds only the moves played (``_mid_game_setup``)."""


def _mid_game_setup(tmp_path: Path) -> None:
    with _playing(tmp_path, "stones", "--size", "5x5") as play:
        play.until_status(lambda s: s["state"] == "setup", "the table in setup")
        _acted(play.dir, {"act": "setup", "options": play.status()["options"]})
        play.until_status(lambda s: s["problem"] == _table_class("stones").READY,
                          "the 5x5 start seen")
        play.press("A")
        play.until_status(lambda s: s["state"] == "play", "the game started")
        move = StonesGame(StonesOptions(rows=5, cols=5)).new_initial_state().legal_actions()[0]
        frm, to = (f"{'abcdefgh'[c]}{r + 1}" for r, c in (move.frm, move.to))
        _acted(play.dir, {"act": "lift", "seat": "A", "square": frm, "count": 1})
        _acted(play.dir, {"act": "put", "seat": "A", "square": to})
        until(lambda: _actions(play.dir) == 1, SETTLE_S, "the move journalled")
        kept = (play.dir / "journal.jsonl").read_text()
        options = play.status()["options"]
        _acted(play.dir, {"act": "setup", "options": options})  # the board swept back to the start
        status = play.until_status(lambda s: s["state"] == "repair", "a repair asked")
        assert status["problem"], status
        assert (play.dir / "journal.jsonl").read_text() == kept  # nothing recorded


def _actions(state_dir: Path) -> int:
    """How many actions the table's journal holds."""
    text = (state_dir / "journal.jsonl").read_text() if (state_dir / "journal.jsonl")\
        .exists() else ""
    return sum(1 for line in text.splitlines() if json.loads(line).get("t") == "action")
