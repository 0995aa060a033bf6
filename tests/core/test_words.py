"""The words every game's table says alike: each class of wrong word, tried on all four.

The moves list says what happened, the seat by the game's name for it; a game
ends in its rules' words; the options are named in the rules' words; a move made
for the computer but not asked is refused naming the asked one; and a finished
game's replay says each move as the live moves list did. Each game's own words
are in its folder (``tests/towers/test_words.py`` and the others).
"""

from __future__ import annotations

import random

import pytest

from engine.core import seeded_start
from firmware.games import GAMES
from firmware.readers.terminal.screen import headline, seat_names
from firmware.readers.web.records import listing, replay_steps
from tests.support.tables import CAL, harness

PAST = {"chose", "put", "took", "placed", "ran", "declined", "moved", "stood", "passed"}
"""The verbs a moves list entry begins with: each says what a player did."""


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_every_entry_of_the_moves_list_says_what_a_player_did(game_id, tmp_path):
    """'A choose the green block G01': the moves list (the page's, and the terminal's
    lines) reads as what happened: the seat by its name, then what it did."""
    played = harness(game_id, tmp_path, start=False, seed=3)
    played.play_random(40)
    table = played.table
    names = seat_names(game_id)
    moves = table.public_state()["moves"]
    assert len(moves) >= 10
    for move in moves:
        first = move["text"].split()[0]
        assert first in PAST, move
        said = headline({"event": "accepted", "player": move["player"], "action": "",
                         "text": move["text"], "observation": {}}, names)
        who = names.get(move["player"], f"player {move['player']}")
        assert said == f"{who} {move['text']}", said


def _ends(game_id: str) -> list:
    """A finished position for every way ``game_id`` can end."""
    from dataclasses import replace

    spec = GAMES[game_id]
    start = seeded_start(spec.make(spec.options()), 3)[0]
    if game_id == "towers":
        from engine.towers.turns import EndReason, Phase
        return [replace(start, phase=Phase.OVER, end=end) for end in EndReason]
    if game_id == "stones":
        from engine.players import Player
        from engine.stones.game import EndReason
        return [replace(start, end=end, winner=Player.A) for end in EndReason]
    if game_id == "maze":
        from engine.maze.game import Phase
        return [replace(start, phase=Phase.OVER, claimed=n) for n in (5, 2)]
    pos, rng = start, random.Random(1)
    while not pos.is_terminal():
        pos = pos.apply_action(rng.choice(pos.legal_actions()))
    return [pos]


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_a_game_ends_in_the_words_of_its_rules(game_id):
    """'(the game ended: ply limit)' where the rules say "move limit": how a game ended is
    said as its rules sheet (``obelisk rules``) says it; the record keeps its own word."""
    spec = GAMES[game_id]
    sheet = " ".join(spec.rules_text(spec.make(spec.options())).split()).lower()
    ends = _ends(game_id)
    assert len({pos.outcome().termination for pos in ends}) == len(ends)
    for pos in ends:
        outcome = pos.outcome()
        said = outcome.words()
        how = said.partition("(the game ended: ")[2].removesuffix(")")
        assert how and how.lower() in sheet, (outcome.termination, said)
        assert outcome.to_dict()["termination"] == outcome.termination  # kept as it was


@pytest.mark.parametrize("typed", ["0", "10001"])
def test_a_move_limit_out_of_range_is_refused_in_the_rules_words(typed):
    """The rules sheet calls it the move limit (``--ply-limit`` sets it): so does its
    refusal, on the command line and the page's form."""
    import argparse

    flag = next(f for f in GAMES["stones"].flags if f.name == "--ply-limit")
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        flag.type(typed)
    assert str(refused.value).startswith(f"the move limit is 1 to 10000 moves, not {typed}")


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_the_new_game_form_names_each_option_in_the_rules_words(game_id):
    """The page's form labels each option as a person reads it: the stones' "move limit"
    (its rules' word), never the flag's "ply limit"; every label is in the game's rules
    sheet or its own help."""
    from firmware.service.game_choices import games

    spec = GAMES[game_id]
    sheet = " ".join(spec.rules_text(spec.make(spec.options())).split()).lower()
    for option in games()[game_id]["options"]:
        assert "ply" not in option["label"], option
        assert option["label"] in sheet or option["label"] in option["help"].lower() \
            or option["label"] in option["flag"].replace("-", " "), option


def test_the_stones_options_refuse_a_move_limit_below_one_in_the_rules_words():
    from engine.stones.game import StonesOptions

    with pytest.raises(ValueError, match=r"^a move limit must be at least 1, not 0$"):
        StonesOptions(ply_limit=0)


@pytest.mark.parametrize("game_id", ["towers", "stones", "maze"])
def test_a_move_made_for_the_computer_but_not_asked_is_refused_naming_the_move_made(game_id):
    """The refusal names the move made as an ask would say it (the maze's "a wall on c5
    blocking its north and east sides", not its notation; a towers block by its colour), and
    not the asked move again: the turn line above it says that (issue 48: a towers refusal
    said the whole turn line again under it). Once named "..._naming_the_asked_one"."""
    spec = GAMES[game_id]
    rules = spec.solo_rules()
    pos, rng = seeded_start(spec.make(spec.options()), 3)[0], random.Random(2)
    wanted = "wall" if game_id == "maze" else ""
    while wanted not in getattr(pos, "phase", type("", (), {"value": ""})).value \
            or len(pos.legal_actions()) < 2:
        pos = pos.apply_action(rng.choice(pos.legal_actions()))
    hands = [a for a in pos.legal_actions() if not rules.hands_free(a)]  # (a pass: none)
    asked, made = hands[0], hands[-1]
    said = rules.differs(pos, (asked,), made)
    assert rules.words(pos, (asked,)) not in said, said
    named = pos.block(made.block).colour.label if game_id == "towers" \
        else rules.words(pos, (made,))
    assert named in said, said


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_the_replay_says_each_move_as_the_live_moves_list_did(game_id, tmp_path):
    played = harness(game_id, tmp_path, start=False, seed=3)
    played.play_random(30)
    table = played.table
    if game_id == "highrise":  # what the load cells read: sealed in the journal with each move
        table.accepted = table.reading = CAL.zero
    journal = table.journal
    journal.append(table.starter.entry(table.history[0]))
    for n, action in enumerate(table.actions, 1):
        journal.append({"t": "action", "n": n, **table._entry_of(action)})
    journal.append({"t": "over", "result": {"words": "stopped by hand", "winner": None}})
    [game] = listing(tmp_path)["games"]
    steps = replay_steps(tmp_path, game["id"])["steps"][1:]
    live = table.public_state()["moves"]
    assert len(steps) == len(live) >= 10
    assert [(s["player"], s["text"]) for s in steps] == [(m["player"], m["text"]) for m in live]
