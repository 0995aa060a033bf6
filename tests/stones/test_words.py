"""Each stones edition speaks only its own words, in every message it can give.

The classic wording says cornerstone, keystone, vault and pillar; the second
says base, pedestal, jump and Ra's Revenge. Same rules, other words: a
player of the second edition must never read a classic word, nor the other
way round. The messages come from everywhere a player reads them: the rules
sheet, the moves as the table announces them, every refusal of every move
from many positions of random games, and what the sensors' inference says.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from engine.errors import ObeliskError
from engine.stones.game import Edition, Mode, Move, StonesGame, StonesOptions
from engine.stones.rules import rules_text
from engine.stones.sensing import BoardView, candidate_moves, sight
from tests.support.service import Pressed
from tests.support.tables import StonesHarness

WORDS = {
    Edition.CLASSIC: ("cornerstone", "keystone", "vault", "pillar"),
    Edition.SECOND: ("base", "pedestal", "jump", "ra's revenge"),
}


def _messages(edition: Edition, games: int = 12) -> list[str]:
    """Every kind of message a player of ``edition`` can read."""
    out = []
    for mode in Mode:
        out.append(rules_text(StonesGame(StonesOptions(edition=edition, mode=mode))))
    game = StonesGame(StonesOptions(edition=edition, ply_limit=80))
    squares = [(r, c) for r in range(6) for c in range(4)]
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(str(state))
            for move in state.legal_actions():
                out.append(state.move_to_string(move))
            for frm, to in itertools.product(squares, repeat=2):
                if frm != to and rng.random() < 0.05:
                    try:
                        state.apply_action(Move(frm, to))
                    except ObeliskError as exc:
                        out.append(str(exc))
            wrong = BoardView.of([((0, 0), 1), ((5, 3), 1)])
            try:
                candidate_moves(state, wrong)
            except ObeliskError as exc:
                out.append(str(exc))
            out.append(str(sight(state)))
            state = state.apply_action(rng.choice(state.legal_actions()))
        try:
            state.apply_action(Move((0, 0), (1, 1)))
        except ObeliskError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize("edition", list(Edition))
def test_every_message_speaks_its_editions_words_only(edition):
    others = WORDS[Edition.SECOND if edition is Edition.CLASSIC else Edition.CLASSIC]
    mine = WORDS[edition]
    seen_mine = set()
    for message in _messages(edition):
        text = message.lower()
        for word in others:
            assert not re.search(rf"\b{re.escape(word)}\b", text), (word, message)
        seen_mine |= {w for w in mine if re.search(rf"\b{re.escape(w)}\b", text)}
    assert seen_mine == set(mine), "the messages never used some of the edition's words"


def test_the_stones_setup_claims_no_symmetry_before_a_game_is_under_way(tmp_path):
    """Player A's card said "symmetry: colour ✓, ..." while the stones were still being
    set out: the setup's board (what the page draws then) holds no symmetry yet, since the
    rules check it after each move; the start of the game shows the start's."""
    from engine.stones.game import StonesGame
    from firmware.stones.table import StonesTable
    from firmware.store.journal import Journal

    table = StonesTable(StonesGame(), Journal(tmp_path), seed=1)
    table.start(0.0)
    assert table.state == "setup"
    assert table.setup_seen(None)["symmetry"] == {}
    assert table.position.observation()["symmetry"]["A"] == [True, False]


def test_pausing_stones_says_nothing_of_an_hourglass(tmp_path):
    """"paused: the hourglass is stopped" on a stones table, which has none."""
    stones = Pressed(StonesHarness(tmp_path).started())
    said = stones.do("pause")["message"]
    assert "paused" in said and "hourglass" not in said, said
