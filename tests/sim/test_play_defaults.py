"""Where a person's games are when no --state-dir is typed (issue 32 point 10).

`obelisk play GAME` keeps its table in a directory of its own under the
default state directory, the same each time: typed again, it resumes. `games`
and `export` look there and in the default directory together; `pin` and
`watch` find the table that is running and say where, or what to type when
none runs.

Each test sets XDG_STATE_HOME to a directory of its own, so the default
directory is the test's; every process is stopped by its own handle.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from engine.core import square_name
from engine.stones.game import StonesGame
from engine.stones.record import action_to_dict
from firmware.cli import main
from firmware.service.pin import read_pin
from firmware.store.journal import Journal
from hardware.sim.line_socket import ask
from tests.support.person import Follow
from tests.support.play import START_S, Play
from tests.support.processes import OBELISK, until


def _obelisk(monkeypatch, *argv) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    status = main(list(argv))
    return status, out.getvalue()


def _finished_stones(where: Path, solo: dict | None = None) -> None:
    journal = Journal(where)
    move = StonesGame().new_initial_state().legal_actions()[0]
    start = {"t": "start", "game": "stones", "options": {}, "seed": 0}
    journal.append(start if solo is None else {**start, "solo": solo})
    journal.append({"t": "action", "n": 1, "action": action_to_dict(move)})
    journal.append({"t": "over", "result": {"words": "stopped by hand", "winner": None}})


def test_games_and_export_find_the_games_of_play_beside_the_default_directorys(
        home, monkeypatch, capsys):
    _finished_stones(home)
    played = home / "play" / "stones"
    played.mkdir(parents=True)
    _finished_stones(played, {"seat": "B", "level": 2})
    status, listing = _obelisk(monkeypatch, "games")
    assert status == 0
    lines = listing.splitlines()
    ids = [line.split()[0] for line in lines if "stones" in line.split()[2:3]]
    assert len(ids) == 2, listing
    # each game is listed under the directory it is kept in, in words
    assert any(str(played) in line and "obelisk play stones" in line for line in lines)
    assert any(str(home) in line and "play" not in line.replace(str(home), "")
               for line in lines)
    heading = next(i for i, line in enumerate(lines) if str(played) in line)
    assert "computer: player B, level 2" in lines[heading + 1]
    for game_id in ids:  # what games lists, export finds
        status, text = _obelisk(monkeypatch, "export", game_id)
        assert status == 0 and f'[Id "{game_id}"]' in text
    status, _ = _obelisk(monkeypatch, "export", "ffff")
    assert status == 2
    said = capsys.readouterr().err
    assert str(played) in said and "`obelisk games` lists them" in said


def test_with_nothing_anywhere_games_says_where_it_looked(home, monkeypatch, capsys):
    status, listing = _obelisk(monkeypatch, "games")
    assert status == 0 and listing == ""
    said = capsys.readouterr().err
    assert "no games played" in said and str(home) in said and "Traceback" not in said


def test_pin_and_watch_with_no_table_running_say_what_to_type(home, monkeypatch, capsys):
    kept = home / "play" / "stones"  # as a play stopped leaves it: its lock, its PIN
    kept.mkdir(parents=True)
    (kept / "lock").write_text("")
    (kept / "pin").write_text("1234\n")
    for command in ("pin", "watch"):
        status, _ = _obelisk(monkeypatch, command)
        said = capsys.readouterr().err
        assert status == 2, said
        assert "no table is running" in said and f"obelisk {command} --state-dir" in said
        assert str(home / "play" / "stones") in said  # where a table was kept


def test_with_two_tables_running_pin_takes_the_first_and_names_the_other(
        home, monkeypatch, capsys):
    first, second = home / "play" / "stones", home / "play" / "towers"
    for where, pin in ((first, "1111"), (second, "2222")):
        where.mkdir(parents=True)
        (where / "pin").write_text(pin + "\n")
    monkeypatch.setattr("firmware.service.command_socket.running_tables",
                        lambda places, ask=None: iter([first, second]))
    status, out = _obelisk(monkeypatch, "pin")
    said = capsys.readouterr().err
    assert status == 0 and "the table PIN is 1111" in out
    assert f"the table running on {first}" in said
    assert f"another runs on {second} (obelisk pin --state-dir {second})" in said




def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([OBELISK, *argv], capture_output=True, text=True, timeout=60,
                          env=os.environ.copy())


@pytest.mark.processes
def test_play_keeps_its_table_where_pin_watch_and_the_next_play_find_it(home, tmp_path):
    where = home / "play" / "stones"
    play = Play("stones", None, logs=tmp_path, name="first").started()
    follow = None
    try:
        said = until(lambda: "PIN" in play.out.read_text() and play.out.read_text(), START_S,
                     "obelisk play to say its table's PIN")
        assert f"the table on {where}" in said
        follow = Follow(where)
        follow.until(lambda: follow.state == "setup", 60, "the table waiting in setup")
        for square, stack in StonesGame().new_initial_state().stacks:  # set the stones out
            seat, kind = stack[0].owner.value, stack[0].kind.value
            ask(where / "hands.sock", {"act": "take", "seat": seat, "piece": f"{seat} {kind}"})
            ask(where / "hands.sock", {"act": "put", "seat": seat,
                                       "square": square_name(square)})
        for _ in range(30):  # pressed until the table has settled its view and starts
            ask(where / "buttons.sock", {"button": "A", "hold": False})
            with contextlib.suppress(AssertionError):
                follow.until(lambda: follow.state == "play", 1.0, "the game to start")
                break
        assert follow.state == "play"
        pin = _run("pin")
        assert pin.returncode == 0, pin.stderr
        assert read_pin(where) in pin.stdout and str(where) in pin.stdout + pin.stderr
        watch = subprocess.Popen([OBELISK, "watch", "--json"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            first = json.loads(watch.stdout.readline())
            assert first["event"] == "table" and first["game"] == "stones"
        finally:
            watch.kill()
            _, said = watch.communicate(timeout=10)
        assert str(where) in said
        web = subprocess.Popen([OBELISK, "web", "--address", "127.0.0.1", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert f"(the table on {where})" in web.stdout.readline()
        finally:
            web.kill()
            web.wait(10)
    finally:
        if follow is not None:
            follow.close()
        play.stop()
    again = Play("stones", None, logs=tmp_path, name="again").started()
    try:
        said = until(lambda: "PIN" in again.out.read_text() and again.out.read_text(), START_S,
                     "obelisk play to say its table's PIN")
        assert f"the table on {where}" in said and "resumes" in said
        follow = Follow(where)
        follow.until(lambda: follow.state, 60, "the table's state")
        assert follow.state != "setup", "the game begun before did not resume"
    finally:
        follow.close()
        again.stop()


def test_a_resumed_game_counts_the_actions_its_takebacks_left_standing(tmp_path):
    """The terminal's "resumes, N actions in" counts as the page's moves list does: a
    takeback undoes the actions after it (the count once took every action line)."""
    from firmware.sim.play import Play
    from tests.support.tables import StonesHarness

    t = StonesHarness(tmp_path).started()  # its start journalled
    t.play_random(3)
    for n, action in enumerate(t.table.actions, 1):
        t.table.journal.append({"t": "action", "n": n, **t.table._entry_of(action)})
    t.table.journal.append({"t": "takeback", "to": 2, "agreed": True})  # one taken back
    play = Play("stones", tmp_path, chosen={})
    play._unfinished()
    assert play.resumes == 2
