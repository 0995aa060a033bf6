"""One table of a remote match, in-process: the other table's seat as it reaches the table core.

The stones table with the person in seat A and the other table in seat B: the
other table's actions come as the link hands them (``MatchSeat.offered``, then the
table asks), are lit and said, and count once the sensors see them made.
"""

from __future__ import annotations

import pytest

from engine.players import Player
from engine.stones.sensing import sight
from firmware.match.seat import Match, MatchError, MatchSeat, match_seed
from tests.support.tables import StonesHarness

A, B = Player.A, Player.B


def _match(tmp_path) -> StonesHarness:
    t = StonesHarness(tmp_path)
    t.table.solo = MatchSeat(Match("derby", A), "stones")
    t.started()
    return t


def _person_moves(t: StonesHarness):
    move = t.table.position.legal_actions()[0]
    t.see(sight(t.table.position.apply_action(move)))
    assert t.table.actions == [move]
    return move


def _offer(t: StonesHarness, n: int, action) -> str:
    said = t.table.solo.offered(t.table, n - 1, action)
    if said.startswith("lit for"):
        t.table.ask_far_seat()
    return said


def test_the_other_tables_move_is_asked_in_its_words_and_counts_once_made_here(tmp_path):
    t = _match(tmp_path)
    _person_moves(t)
    theirs = t.table.position.legal_actions()[0]
    assert not [e for e in t.events if e["event"] == "asked"]  # nothing came yet
    assert _offer(t, 2, theirs) == "lit for the person here to make"
    assert _offer(t, 2, theirs) == "lit already"  # a repeat changes nothing
    asked = [e for e in t.events if e["event"] == "asked"]
    assert len(asked) == 1 and asked[0]["by"] == "the other table" and asked[0]["player"] == "B"
    turn = [e for e in t.events if e["event"] == "turn"][-1]
    assert turn["player"] == "B" and turn["doing"].startswith("make the other table's move: ")
    assert t.table.actions == [t.table.actions[0]]  # not recorded before it is made
    t.see(sight(t.table.position.apply_action(theirs)))
    assert t.table.actions[-1] == theirs
    assert [e["action"] for e in t.table.journal.read().entries if e.get("t") == "action"][-1] \
        == t.table.record.action_to_dict(theirs)
    assert _offer(t, 2, theirs) == "already recorded"


def test_a_move_for_the_other_table_before_it_came_is_refused_and_not_recorded(tmp_path):
    t = _match(tmp_path)
    _person_moves(t)
    guess = t.table.position.legal_actions()[0]
    t.see(sight(t.table.position.apply_action(guess)))
    refused = [e for e in t.events if e["event"] == "refused"][-1]
    assert "comes from the other table" in refused["message"]
    assert len(t.table.actions) == 1


def test_the_two_tables_disagreeing_stops_the_match_with_where(tmp_path):
    t = _match(tmp_path)
    mine = _person_moves(t)
    other = next(a for a in t.table.history[0].legal_actions() if a != mine)
    with pytest.raises(MatchError, match="disagree at action 1"):
        _offer(t, 1, other)  # the other table recorded another first move
    with pytest.raises(MatchError, match="the rules here refuse"):
        _offer(t, 2, mine)  # A's own first move again, as B's: no rule allows it
    assert _offer(t, 5, mine).startswith("waiting")  # too early: kept by the link


def test_both_tables_start_from_the_matchs_seed(tmp_path):
    from engine.stones.game import StonesGame
    from firmware.stones.table import StonesTable
    from firmware.store.journal import Journal

    for seat in (A, B):
        table = StonesTable(StonesGame(), Journal(tmp_path / seat.value), seed=7,
                            solo=MatchSeat(Match("derby", seat), "stones"))
        assert table.seed == match_seed("derby")
    assert MatchSeat(Match("derby", B), "stones").first_seed(12345) == match_seed("derby")
    assert match_seed("derby") != match_seed("derbyx")


def test_the_tables_public_state_names_its_match_and_the_clubs_state_keeps_it(tmp_path):
    from firmware.readers.club.state import empty, fold

    t = _match(tmp_path)
    told = t.table.public_state()
    assert told["match"] == {"match": "derby", "seat": "A"}
    state = fold(empty("east"), told)
    assert state["match"] == {"match": "derby", "seat": "A"}
    assert fold(state, {"event": "turn", "player": "B", "doing": "x"})["match"] == state["match"]
    alone = StonesHarness(tmp_path / "alone").table.public_state()
    assert "match" not in alone and fold(state, alone)["match"] is None  # a game alone after


def test_where_the_sensors_cannot_tell_which_the_other_tables_move_is_the_one_it_asked(
        tmp_path):
    """A reading that may be more than one move (a towers block resting above the rods) for
    the other table's seat: the move that table made is one of them, so it is recorded
    with no one here to pick (no one here may pick for the other player)."""
    from engine.reading import Reading

    t = _match(tmp_path)
    _person_moves(t)
    theirs, other = t.table.position.legal_actions()[:2]
    _offer(t, 2, theirs)
    t.table._reading = lambda view: Reading(choices=((other,), (theirs,)), chooser=B)
    t.see(sight(t.table.position.apply_action(theirs)))
    del t.table._reading
    assert t.table.actions[-1] == theirs and t.table.state == "play"
    assert not [e for e in t.events if e["event"] == "offer" and e["kind"] == "choose"]


def test_a_move_other_than_the_one_the_other_table_made_is_refused_in_its_name(tmp_path):
    t = _match(tmp_path)
    _person_moves(t)
    theirs, other = t.table.position.legal_actions()[:2]
    _offer(t, 2, theirs)
    t.see(sight(t.table.position.apply_action(other)))
    refused = [e for e in t.events if e["event"] == "refused"][-1]["message"]
    assert refused.startswith("the other table asked for ") and "computer" not in refused
    assert len(t.table.actions) == 1


def test_a_table_started_again_tells_its_whole_state_with_every_move_after_the_replay(
        tmp_path):
    """A page that followed the service while it was starting got a state of no moves: the
    replay's end tells the whole state again, the moves so far and the turn in it (the
    trial's maze alone lost its moves list and turn line so)."""
    t = _match(tmp_path)
    _person_moves(t)
    again = StonesHarness(tmp_path)  # the same journal, a new service
    told = [e for e in again.events if e["event"] in ("resumed", "table")]
    assert [e["event"] for e in told][-2:] == ["resumed", "table"]
    assert told[-1]["state"] == "play" and len(told[-1]["moves"]) == 1
    assert told[-1]["moves"][0]["n"] == 1 and told[-1]["doing"]


@pytest.mark.parametrize("secret", ["\udcff", "tu\ud800lip"])
def test_a_secret_word_that_is_no_text_is_refused_in_words(secret):
    """A byte the terminal or the environment passed on that is not UTF-8 arrives as a lone
    surrogate: refused with what to do, never the codec's words."""
    with pytest.raises(MatchError) as refused:
        Match("m", A, secret)
    words = str(refused.value)
    assert "the secret word" in words and "type it again" in words, words
    assert "codec" not in words and "surrogate" not in words, words


def test_a_page_setting_up_a_match_with_a_secret_word_that_is_no_text_is_told_why(tmp_path):
    from firmware.service.commands import CommandRefused
    from tests.support.service import Pressed

    t = StonesHarness(tmp_path)
    with pytest.raises(CommandRefused) as refused:
        Pressed(t).do("new", game="stones", remote="m", seat="A", secret="tu\udcfflip")
    words = str(refused.value)
    assert "the secret word" in words and "codec" not in words, words


@pytest.mark.processes
@pytest.mark.parametrize("how", ["argument", "environment"])
def test_a_secret_word_that_is_no_text_is_refused_in_one_line(tmp_path, how):
    import os
    import subprocess

    from firmware.match.seat import SECRET_ENV
    from tests.support.processes import OBELISK

    command = [os.fsencode(OBELISK), b"demo", b"stones", b"--remote", b"m", b"--seat", b"A",
               b"--state-dir", os.fsencode(tmp_path)]
    env = {**os.environ}
    if how == "argument":
        command += [b"--secret", b"tu\xfflip"]
    else:
        env = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
        env[os.fsencode(SECRET_ENV)] = b"tu\xfflip"
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2, run.stderr
    [line] = run.stderr.splitlines()
    assert line.startswith("obelisk: ") and "the secret word" in line, line
    assert "codec" not in line and "Traceback" not in run.stderr
