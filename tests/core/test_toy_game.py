"""The fifth game: defined in ``tests/support/toy`` only, played through the same table core.

If a new game needed a change anywhere but its own files, these tests could
not pass with the toy game living only under ``tests/``.
"""

from __future__ import annotations

import io
import json
import subprocess

import pytest

from engine.record import options_from_dict
from engine.search.base import DEFAULT
from engine.stones.sensing import BoardView
from firmware.cli import main
from firmware.core import events
from firmware.store.history import finished_games
from firmware.store.journal import Journal
from firmware.store.resume import replay_journal
from hardware.buttons import ButtonEvent
from tests.support import ROOT
from tests.support.toy import GAME_ID, registered
from tests.support.toy.game import NoughtsGame, NoughtsOptions
from tests.support.toy.record import action_from_dict
from tests.support.toy.table import NoughtsTable


def test_a_whole_game_plays_through_the_command_line_and_the_simulated_board(tmp_path,
                                                                              monkeypatch):
    registered()
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    status = main(["demo", GAME_ID, "--json", "--speed", "20", "--seed", "4",
                   "--state-dir", str(tmp_path)])
    assert status == 0
    said = [json.loads(line) for line in out.getvalue().splitlines()]
    for event in said:
        events.check(event)
    kinds = [e["event"] for e in said]  # what to set out is told until the game starts
    assert set(kinds[:kinds.index("start")]) <= {"setup"} and kinds[-1] == "game_over"
    # The journal the core wrote replays through the rules to the same end.
    games, _ = finished_games(tmp_path)
    finished = games[-1].entries
    game = NoughtsGame(options_from_dict(NoughtsOptions, finished.start["options"]))
    again = replay_journal(finished, game.new_initial_state(),
                           lambda e: action_from_dict(e["action"]))
    assert again.state.is_terminal()
    assert again.state.outcome().to_dict() == said[-1]["outcome"]
    accepted = [e["action"] for e in said if e["event"] == "accepted"]
    assert accepted == [again.state.action_to_string(a) for a in again.actions]


def test_the_computer_plays_the_toy_alone_with_the_generic_search(tmp_path, capsys):
    """The toy declares no tuning: the generic search plays it, its lit square is read off
    the simulated LEDs by the demo's hand, and every move it asked is the one made."""
    game = registered()
    assert game.opponent_tuning() is DEFAULT
    status = main(["demo", GAME_ID, "--solo", "B", "--json", "--speed", "20", "--seed", "5",
                   "--state-dir", str(tmp_path)])
    said = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and said[-1]["event"] == "game_over"
    asked = [e["action"] for e in said if e["event"] == "asked"]
    made_by_b = [e["action"] for e in said if e["event"] == "accepted" and e["player"] == "B"]
    assert asked and asked == made_by_b
    assert not [e for e in said if e["event"] == "refused"]


def _table(tmp_path):
    said: list[dict] = []
    table = NoughtsTable(NoughtsGame(), Journal(tmp_path), emit=said.append, seed=1)
    table.start(0.0)
    now = [0.0]

    def see(*squares):
        table.on_view(BoardView.of(((sq, 1) for sq in squares), 1), now[0])
        now[0] += 0.31
        table.tick(now[0])

    see()
    table.on_button(ButtonEvent("A", "press"), now[0])
    return table, said, see


def test_a_stone_on_a_taken_square_is_refused_and_nothing_is_recorded(tmp_path):
    table, said, see = _table(tmp_path)
    see((0, 0))
    assert table.state == "play" and table.actions == [(0, 0)]
    see((0, 0), (1, 1), (2, 2))  # two stones at once
    assert table.state == "repair" and said[-1]["event"] == "refused"
    assert table.actions == [(0, 0)]
    see((0, 0))
    assert table.state == "play" and said[-1]["event"] == "repaired"


@pytest.mark.processes
def test_the_toy_game_lives_only_in_its_own_files():
    found = subprocess.run(["grep", "-rliI", "--exclude-dir=__pycache__", "noughts", "engine",
                            "firmware", "hardware", "bench"], cwd=ROOT,
                           capture_output=True, text=True)
    assert found.stdout == "", found.stdout
