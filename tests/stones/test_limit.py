"""Every stones game ends: the repetition rule and the move limit, as a person meets them.

The engine's side (the loop drawn on its third time round) is in test_stones.py;
here the rules sheet says both rules, the command line and the page's form change
the limit and refuse nonsense in words, the table and the terminal name the end,
records from before the rules replay as they were played, and the demo plays the
game's own rules instead of a safety net of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.record import Record, options_from_dict, options_to_dict, replay_record
from engine.stones.game import DEFAULT_PLY_LIMIT, EndReason, StonesGame, StonesOptions
from engine.stones.record import action_from_dict, action_to_dict
from engine.stones.sensing import sight_after
from firmware.cli import main
from firmware.games import GAMES
from firmware.readers.terminal.screen import ending
from firmware.service.commands import CommandRefused
from firmware.service.game_choices import options_of
from tests.support.stones import LOOP, mv
from tests.support.tables import StonesHarness as Table

OBELISK = str(Path(sys.executable).parent / "obelisk")
STONES = GAMES["stones"]


def _sheet(capsys, *flags: str) -> str:
    assert main(["rules", "stones", *flags]) == 0
    return " ".join(capsys.readouterr().out.split())


# ----------------------------------------------------------------- the rules sheet


def test_the_sheet_states_both_ways_a_game_is_drawn(capsys):
    sheet = _sheet(capsys)
    assert "when the same position comes round a third time with the same player to " \
           "move" in sheet and "the game is a draw" in sheet
    assert f"a game still going after {DEFAULT_PLY_LIMIT} moves in all" in sheet
    assert f"--ply-limit N|none: the move limit, or none; {DEFAULT_PLY_LIMIT} unless " \
           "chosen" in sheet


def test_the_sheet_follows_the_chosen_limit(capsys):
    assert "a game still going after 60 moves in all" in _sheet(capsys, "--ply-limit", "60")
    unlimited = _sheet(capsys, "--ply-limit", "none")
    assert "No move limit in this game: the repetition rule ends any game" in unlimited
    assert "moves in all (both" not in unlimited and "(now none)" in unlimited


# ----------------------------------------------------------------- changing the limit


@pytest.mark.parametrize(("typed", "limit"), [("60", 60), ("none", None), ("None", None)])
def test_the_flag_sets_the_limit(typed, limit):
    flag = next(f for f in STONES.flags if f.name == "--ply-limit")
    assert STONES.options_with(flag.values(flag.type(typed))).ply_limit == limit


@pytest.mark.processes
@pytest.mark.parametrize(("typed", "words"), [
    ("0", "the move limit is 1 to 10000 moves, not 0 (or none: no limit)"),
    ("10001", "the move limit is 1 to 10000 moves, not 10001"),
    ("lots", "'lots' is not a whole number of moves (or none: no limit)"),
])
def test_a_bad_limit_is_refused_in_words(typed, words):
    for command in (["rules", "stones"], ["play", "stones"], ["run", "--game", "stones"]):
        run = subprocess.run([OBELISK, *command, "--ply-limit", typed], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2 and words in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
    with pytest.raises(CommandRefused, match=words.replace("(", r"\(").replace(")", r"\)")):
        options_of(STONES, (("ply_limit", typed),))  # the page's new-game form


def test_the_page_form_takes_none():
    assert options_of(STONES, (("ply_limit", "none"),)).ply_limit is None


def test_no_limit_reaches_the_service_obelisk_play_starts():
    """``obelisk play`` hands its service the options as flags (``describe``): no limit
    must be typed there too, or the service would play the default."""
    unlimited = StonesOptions(ply_limit=None)
    assert STONES.describe(unlimited) == "--ply-limit none"
    assert STONES.describe(StonesOptions()) == ""
    flag = next(f for f in STONES.flags if f.name == "--ply-limit")
    assert flag.type(STONES.describe(unlimited).split()[1]) is None


# ----------------------------------------------------------------- the table and the terminal


def test_the_table_draws_a_loop_and_says_why(tmp_path):
    t = Table(tmp_path, game=StonesGame(StonesOptions(ply_limit=None))).started()
    for ply in range(12):
        t.see(sight_after(t.table.position, mv(*LOOP[ply % len(LOOP)])))
    assert t.table.state == "over"
    (over,) = [e for e in t.events if e["event"] == "game_over"]
    outcome = over["outcome"]
    assert outcome["termination"] == EndReason.REPETITION.value and outcome["winner"] is None
    assert outcome["words"] == "a draw (the game ended: repetition)"
    shown = ending(outcome)  # what the terminal prints
    assert shown.startswith("GAME OVER: a draw (the game ended: repetition)")
    assert "the same position, player A to move, a third time after 12 moves" in shown


def test_a_resumed_game_still_counts_the_positions_before(tmp_path):
    t = Table(tmp_path, game=StonesGame(StonesOptions(ply_limit=None))).started()
    for ply in range(11):
        t.see(sight_after(t.table.position, mv(*LOOP[ply % len(LOOP)])))
    again = Table(tmp_path)  # the power came back
    assert again.table.state == "play"
    again.see(sight_after(again.table.position, mv(*LOOP[11 % len(LOOP)])))
    assert again.table.state == "over"
    assert again.table.position.end is EndReason.REPETITION


# ----------------------------------------------------------------- records from before


OLD_OPTIONS = {"rows": 6, "cols": 4, "mode": "open", "edition": "classic", "ply_limit": None}
"""A stones game's options as journals wrote them before the repetition rule."""


def test_a_record_from_before_the_rules_replays_as_it_was_played():
    moves = [mv(*LOOP[ply % len(LOOP)]) for ply in range(13)]  # a third time round, and on
    record = Record("stones", OLD_OPTIONS, 0, tuple(action_to_dict(m) for m in moves))
    options = options_from_dict(StonesOptions, record.options)
    assert options.ply_limit is None and not options.repetition
    states = replay_record(StonesGame(options), record, action_from_dict)
    assert len(states) == 14 and not states[-1].is_terminal()


def test_options_left_out_of_a_record_keep_their_old_meaning():
    assert options_from_dict(StonesOptions, {}) == StonesOptions(ply_limit=None,
                                                                 repetition=False)


def test_a_new_record_keeps_the_new_rules():
    for options in (StonesOptions(), StonesOptions(ply_limit=None), StonesOptions(ply_limit=9)):
        assert options_from_dict(StonesOptions, options_to_dict(options)) == options


def test_an_old_unfinished_journal_resumes_without_the_rule(tmp_path):
    t = Table(tmp_path, game=StonesGame(StonesOptions(ply_limit=None, repetition=False)))
    t.started()
    for ply in range(13):
        t.see(sight_after(t.table.position, mv(*LOOP[ply % len(LOOP)])))
    assert t.table.state == "play"
    lines = (tmp_path / "journal.jsonl").read_text("utf-8").splitlines()
    start = json.loads(lines[0])
    start["options"] = OLD_OPTIONS  # as a journal from before the rule holds them
    (tmp_path / "journal.jsonl").write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n",
                                            "utf-8")
    again = Table(tmp_path)
    assert again.table.state == "play" and again.table.position.plies == 13
    assert not again.table.game.options.repetition


# ----------------------------------------------------------------- the demo
