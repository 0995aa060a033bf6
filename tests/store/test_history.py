"""Game history: `obelisk games` lists the games played, `obelisk export` writes one."""

from __future__ import annotations

import io
import json
import time

import pytest

from engine.record import Record, options_from_dict, replay_record
from engine.stones.game import Move, StonesGame
from engine.stones.record import action_to_dict
from firmware.cli import main
from firmware.games import GAMES
from firmware.store.journal import Journal
from tests.support.toy import GAME_ID, registered


def _obelisk(monkeypatch, *argv) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    status = main(list(argv))
    return status, out.getvalue()


@pytest.fixture
def two_games(tmp_path, monkeypatch):
    """Two toy games played on the simulated board; the first is archived by the second."""
    registered()
    for seed in ("4", "5"):
        status, _ = _obelisk(monkeypatch, "demo", GAME_ID, "--json", "--speed", "20", "--seed",
                             seed, "--state-dir", str(tmp_path), "--new-game")
        assert status == 0
    return tmp_path


def test_games_lists_each_finished_game_on_a_line_beginning_with_its_id(two_games, monkeypatch):
    status, out = _obelisk(monkeypatch, "games", "--state-dir", str(two_games))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2 and len({line.split()[0] for line in lines}) == 2
    for line in lines:
        assert GAME_ID in line and ("wins" in line or "draw" in line)


def test_a_json_export_replays_to_the_result_it_lists(two_games, monkeypatch):
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(two_games))
    for line in listing.splitlines():
        game_id = line.split()[0]
        status, out = _obelisk(monkeypatch, "export", game_id[:5], "--format", "json",
                               "--state-dir", str(two_games))
        assert status == 0
        data = json.loads(out)
        record = Record.from_dict(data)
        spec = GAMES[record.game]
        game = spec.make(options_from_dict(spec.options, record.options))
        states = replay_record(game, record, spec.codec()[1])
        assert states[-1].is_terminal()
        assert states[-1].outcome().words() in line and data["id"] == game_id


def test_a_text_export_reads_like_a_score_sheet(two_games, monkeypatch):
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(two_games))
    game_id = listing.split()[0]
    _, out = _obelisk(monkeypatch, "export", game_id, "--state-dir", str(two_games))
    _, as_json = _obelisk(monkeypatch, "export", game_id, "--format", "json",
                          "--state-dir", str(two_games))
    lines = out.splitlines()
    assert lines[0] == f'[Game "{GAME_ID}"]' and f'[Id "{game_id}"]' in lines
    numbered = [line for line in lines if line[:1].isdigit()]
    actions = json.loads(as_json)["actions"]
    assert [line.split(".")[0] for line in numbered] == [str(n + 1)
                                                          for n in range(len(actions))]
    assert numbered[0].split()[1] == "A"  # player A begins


def test_taken_back_actions_are_not_in_the_record(tmp_path, monkeypatch):
    journal = Journal(tmp_path)
    first = StonesGame().new_initial_state()
    moves = first.legal_actions()
    journal.append({"t": "start", "game": "stones", "options": {}, "seed": 0})
    journal.append({"t": "action", "n": 1, "action": action_to_dict(moves[0])})
    journal.append({"t": "takeback", "to": 0})
    journal.append({"t": "action", "n": 1, "action": action_to_dict(moves[1])})
    journal.append({"t": "over", "result": {"words": "stopped by hand", "winner": None}})
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    status, out = _obelisk(monkeypatch, "export", listing.split()[0], "--format", "json",
                           "--state-dir", str(tmp_path))
    assert status == 0
    assert [Move(tuple(a["from"]), tuple(a["to"])) for a in json.loads(out)["actions"]] == \
        [moves[1]]


def test_a_damaged_archive_is_named_and_the_other_games_still_listed(two_games, monkeypatch,
                                                                   capsys):
    archive = next(two_games.glob("journal-*.jsonl"))
    archive.write_bytes(b"{not json\n" + archive.read_bytes())
    status, out = _obelisk(monkeypatch, "games", "--state-dir", str(two_games))
    assert status == 0 and len(out.splitlines()) == 1
    assert f"{archive} line 1 is damaged" in capsys.readouterr().err


def test_an_unknown_id_says_where_to_look(tmp_path, monkeypatch, capsys):
    status, _ = _obelisk(monkeypatch, "export", "ffff", "--state-dir", str(tmp_path))
    assert status == 2
    assert "`obelisk games` lists them" in capsys.readouterr().err


def test_a_sealed_high_rise_game_exports_with_its_key_and_says_so_without(tmp_path,
                                                                          monkeypatch, capsys):
    from engine.highrise.game import Size
    from tests.support.tables import HighriseHarness

    t = HighriseHarness(tmp_path, seed=11).covers()
    sizes = [Size.SMALL] * 10 + [Size.MEDIUM] * 20 + [Size.LARGE] * 20
    for ply in range(50):
        t.put(ply % 9, sizes[ply])
    assert t.table.state == "over"
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    game_id = listing.split()[0]
    assert t.table.position.outcome().words() in listing
    status, out = _obelisk(monkeypatch, "export", game_id, "--format", "json",
                           "--state-dir", str(tmp_path))
    assert status == 0 and json.loads(out)["seed"] == 11
    record = Record.from_dict(json.loads(out))
    spec = GAMES["highrise"]
    states = replay_record(spec.make(spec.options()), record, spec.codec()[1])
    assert states[-1].outcome() == t.table.position.outcome()
    (tmp_path / "seal.key").rename(tmp_path / "elsewhere.key")
    status, _ = _obelisk(monkeypatch, "export", game_id, "--state-dir", str(tmp_path))
    assert status == 2 and "seal.key is missing" in capsys.readouterr().err


def _one_move_game(state_dir, solo: dict | None) -> None:
    """A stones game of one move, stopped by hand; ``solo``: its start's computer seat."""
    journal = Journal(state_dir)
    move = StonesGame().new_initial_state().legal_actions()[0]
    start = {"t": "start", "game": "stones", "options": {}, "seed": 0}
    journal.append(start if solo is None else {**start, "solo": solo})
    journal.append({"t": "action", "n": 1, "action": action_to_dict(move)})
    journal.append({"t": "over", "result": {"words": "stopped by hand", "winner": None}})


def test_a_solo_games_export_says_who_the_computer_was_and_at_which_level(tmp_path,
                                                                          monkeypatch):
    _one_move_game(tmp_path, {"seat": "B", "level": 3})
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    assert "computer: player B, level 3" in listing
    game_id = listing.split()[0]
    status, text = _obelisk(monkeypatch, "export", game_id, "--state-dir", str(tmp_path))
    assert status == 0 and '[Computer "player B, level 3"]' in text.splitlines()
    status, out = _obelisk(monkeypatch, "export", game_id, "--format", "json",
                           "--state-dir", str(tmp_path))
    assert status == 0 and json.loads(out)["solo"] == {"seat": "B", "level": 3}
    assert Record.from_dict(json.loads(out)).game == "stones"  # replay reads it still


def test_a_record_of_two_people_or_from_before_the_solo_field_exports_as_before(tmp_path,
                                                                                monkeypatch):
    _one_move_game(tmp_path, None)
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    assert "computer" not in listing
    game_id = listing.split()[0]
    status, text = _obelisk(monkeypatch, "export", game_id, "--state-dir", str(tmp_path))
    assert status == 0 and "Computer" not in text
    status, out = _obelisk(monkeypatch, "export", game_id, "--format", "json",
                           "--state-dir", str(tmp_path))
    assert status == 0 and "solo" not in json.loads(out)


def test_the_pages_replay_of_a_solo_game_marks_the_computers_seat(tmp_path, monkeypatch):
    from firmware.readers.web.records import replay_steps

    _one_move_game(tmp_path, {"seat": "B", "level": 3})
    _, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    replay = replay_steps(tmp_path, listing.split()[0])
    assert replay["players"] == {"A": "player A", "B": "player B (computer, level 3)"}


# ---------------------------------------------------------------------- games not played out


class _Service:
    """A stand-in for the table service: its table, swapped as the ``end`` command swaps it."""

    def __init__(self, table) -> None:
        self.table = table

    def swap_table(self, table, view_of, now: float) -> None:
        self.table = table


def test_a_game_ended_from_the_page_is_listed_and_exported_with_how_it_ended(tmp_path,
                                                                            monkeypatch):
    from engine.stones.sensing import sight
    from firmware.readers.web.records import listing as pages_history
    from firmware.service.command_runner import CommandRunner
    from firmware.service.commands import parse
    from firmware.service.table_maker import TableMaker
    from hardware.profile import load_profile
    from tests.support.tables import StonesHarness

    t = StonesHarness(tmp_path).started()
    move = t.table.position.legal_actions()[0]
    t.see(sight(t.table.position.apply_action(move)))
    controls = CommandRunner(_Service(t.table), TableMaker(load_profile("sim"), t.journal))
    said = controls.carry_out(parse(json.dumps({"command": "end"})), t.now)
    assert said["ok"] and list(tmp_path.glob("journal-*.jsonl"))
    status, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    assert status == 0
    (line,) = listing.splitlines()
    assert "stones" in line and line.endswith("ended unfinished (End the game), 1 action in")
    game_id = line.split()[0]
    status, text = _obelisk(monkeypatch, "export", game_id, "--state-dir", str(tmp_path))
    assert status == 0
    assert '[Result "ended unfinished (End the game), 1 action in"]' in text.splitlines()
    assert f"1. A {StonesGame().new_initial_state().action_to_string(move)}" in text
    status, out = _obelisk(monkeypatch, "export", game_id, "--format", "json",
                           "--state-dir", str(tmp_path))
    data = json.loads(out)
    assert status == 0 and data["ended"] == "ended unfinished (End the game), 1 action in"
    assert [Move(tuple(a["from"]), tuple(a["to"])) for a in data["actions"]] == [move]
    (shown,) = pages_history(tmp_path)["games"]  # the page's history says it as games does
    assert shown["id"] == game_id and shown["result"] == data["ended"]


def _unfinished_stones(journal: Journal, moves: int = 2) -> None:
    state = StonesGame().new_initial_state()
    journal.append({"t": "start", "game": "stones", "options": {}, "seed": 0})
    for n in range(1, moves + 1):
        move = state.legal_actions()[0]
        journal.append({"t": "action", "n": n, "action": action_to_dict(move)})
        state = state.apply_action(move)


def test_a_game_set_aside_by_new_game_or_kept_from_before_is_listed_the_one_on_is_not(
        tmp_path, monkeypatch):
    from firmware.store.resume import resolve

    journal = Journal(tmp_path)
    _unfinished_stones(journal)
    old = journal.archive()  # as a table before this one left an ended game: no end said
    _unfinished_stones(journal, 3)
    resolve(journal, "stones", lambda game: {}, new_game=True)  # `--new-game`
    _unfinished_stones(journal, 1)  # the game on now: not over, so not listed
    status, listing = _obelisk(monkeypatch, "games", "--state-dir", str(tmp_path))
    assert status == 0
    lines = listing.splitlines()
    assert len(lines) == 2, listing
    assert lines[0].endswith("left unfinished, 2 actions in")
    assert lines[1].endswith("left unfinished for a new game (--new-game), 3 actions in")
    for line in lines:
        status, _ = _obelisk(monkeypatch, "export", line.split()[0], "--state-dir",
                             str(tmp_path))
        assert status == 0
    assert old.exists() and journal.unfinished()  # nothing moved, the game on goes on


def test_games_stay_in_the_order_played_when_the_wall_clock_stepped_back(tmp_path,
                                                                          monkeypatch):
    """A Pi with no real-time clock boots with the time it last saved: an archive made then
    was named earlier than the one made before it, and the history listed the newer game
    first. Archives are named so that each sorts after the ones already there."""
    from firmware.store import history

    journal = Journal(tmp_path)
    days = iter([time.strftime("%Y%m%d-%H%M%S", time.strptime(day, "%Y-%m-%d %H:%M"))
                 for day in ("2026-12-01 20:00", "2026-11-03 09:00", "2026-11-03 09:00",
                             "2027-01-05 10:00")])  # the wall clock as the archives read it
    monkeypatch.setattr(time, "strftime", lambda form, *rest: next(days))
    for game in range(4):
        journal.append({"t": "start", "game": "towers", "n": game})
        journal.append({"t": "over", "result": {}})
        journal.archive()
    order = [Journal(tmp_path).read(path).entries[0]["n"]
             for path in history.journals(tmp_path) if path.exists()]
    assert order == [0, 1, 2, 3]
