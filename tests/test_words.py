"""The words a newcomer met in all four games (issue 32, point 8): each class of wrong word.

The moves list says what happened, the seat by the game's name for it; a count
says one thing as one; a game ends in its rules' words; High Rise alone names
the size of the pyramid the computer asks for, beside its ring, while a wrong
one is refused; the High Rise rules count each player's pieces plainly.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.core import play_chance, seeded_start
from engine.highrise.sensing import Calibration
from firmware.games import GAMES
from firmware.service.screen import headline, seat_names
from firmware.store.journal import Journal

CAL = Calibration(zero=(1000,) * 9, sizes=(700, 1300, 1900), tolerance=190)

PAST = {"chose", "put", "took", "placed", "ran", "declined", "moved", "stood", "passed"}
"""The verbs a moves list entry begins with: each says what a player did."""


def _table(game_id: str, state_dir):
    """A table of ``game_id`` on its defaults, before its first game."""
    spec = GAMES[game_id]
    game = spec.make(spec.options())
    extra = (CAL,) if game_id == "highrise" else ()
    return spec.table_class()(game, Journal(state_dir), *extra, seed=3)


def _played(table, n: int, seed: int = 1) -> None:
    """``n`` legal actions (fewer if the game ends), played straight into the table's game
    as the table keeps it: its history and its actions."""
    rng = random.Random(seed)
    pos = seeded_start(table.game, table.seed)[0]
    table.position, table.history, table.actions = pos, [pos], []
    for _ in range(n):
        if pos.is_terminal():
            break
        action = rng.choice(pos.legal_actions())
        pos = play_chance(pos.apply_action(action), _Stream())
        table.actions.append(action)
        table.history.append(pos)
        table.position = pos


class _Stream:
    """Chance in the middle of a game (none of the four has any): the first outcome."""

    def below(self, n: int) -> int:
        return 0


@pytest.mark.parametrize("game_id", ["towers", "stones", "highrise", "maze"])
def test_every_entry_of_the_moves_list_says_what_a_player_did(game_id, tmp_path):
    """'A choose the green block G01': the moves list (the page's, and the terminal's
    lines) reads as what happened: the seat by its name, then what it did."""
    table = _table(game_id, tmp_path)
    _played(table, 40)
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


def _made(table, *actions) -> list[str]:
    """These actions played one after another into the table's game: its moves list read as
    the terminal reads it."""
    names = seat_names(table.game.id)
    for action in actions:
        table.actions.append(action)
        table.position = table.position.apply_action(action)
        table.history.append(table.position)
    return [f"{names.get(m['player'], 'player ' + m['player'])} {m['text']}"
            for m in table.public_state()["moves"]]


def test_the_towers_moves_say_what_each_player_did_the_hourglass_and_a_bonus_too(tmp_path):
    from engine.players import Player
    from engine.towers.actions import Choose, Decline, Place, Take, Timeout

    table = _table("towers", tmp_path)
    active = table.position.active
    green, blue = "G01", "B01"
    said = _made(table, Choose(green), Choose(blue))
    assert said == [f"{active} chose a green block for the building zone",
                    f"{active} chose a blue block for the building zone"]
    taken = table.position.apply_action(Take(green))  # the table reads a take as its place
    take = next(a for a in taken.legal_actions(active.other) if isinstance(a, Place))
    said = _made(table, take)
    assert said[-1].startswith(f"{active.other} placed the green block on tower "
                               f"{active.other.value} at ")
    assert said[-1].endswith(f"; {active} got the blue block"), said[-1]
    place = table.position.legal_actions()[0]
    said = _made(table, place)
    assert said[-1].startswith(f"{active} placed the blue block on tower {active.value} at ")
    said = _made(table, Timeout())
    assert said[-1] == f"{active.other} ran out of time: the turn is lost"
    assert table.position.done_words(Decline(Player.B)) == "declined the black block"


BLOCK_ID = re.compile(r"\b[KYRGB]\d\d\b")
"""A block's id in the set file (G05): the table cannot tell which of a colour's blocks it
sees, so no words a person reads name one."""


def test_the_towers_moves_name_a_block_by_its_colour_when_it_was_another_of_that_colour(
        tmp_path):
    """A newcomer read "chose the blue block B01 for the building zone", then "placed the
    blue block B02": the zone pads weigh a block's colour only, so the table guesses which
    block it is and corrects the record once the rods see its shape. No entry of the moves
    list, no headline and no turn's words name a block by its id, and each block placed is
    the colour that was chosen."""
    from engine.towers.actions import Choose, Place
    from engine.towers.tower import cells_text, resting_placements

    table = _table("towers", tmp_path)
    active = table.position.active
    passive = active.other
    _made(table, Choose("B01"), Choose("G01"))

    def placed(player, block_id):  # the rods see this block's shape, not the one guessed
        pos = table.position
        cells = resting_placements(pos.tower(player), pos.block(block_id))[0]
        return Place(player, block_id, cells)

    blue = placed(passive, "B03")  # another shape than B01's
    _made(table, blue)
    doing = table._doing()  # the turn's words: the active player is to place
    green = placed(active, "G05")  # another shape than G01's
    said = _made(table, green)
    assert said == [f"{active} chose a blue block for the building zone",
                    f"{active} chose a green block for the building zone",
                    f"{passive} placed the blue block on tower {passive.value} at "
                    f"{cells_text(blue.cells)}; {active} got the green block",
                    f"{active} placed the green block on tower {active.value} at "
                    f"{cells_text(green.cells)}"]
    names = seat_names("towers")
    for move in table.public_state()["moves"]:
        line = headline({"event": "accepted", "player": move["player"], "action": "",
                         "text": move["text"], "observation": {}}, names)
        assert not BLOCK_ID.search(line), line
    assert not BLOCK_ID.search(doing) and "green block" in doing, doing


def test_both_zone_blocks_of_one_colour_are_a_block_and_the_other(tmp_path):
    """Two blue blocks in the building zone: the passive player placed "a blue block", and
    the active player got "the other blue block", not the same words for both."""
    from engine.towers.actions import Choose, Place
    from engine.towers.tower import resting_placements

    table = _table("towers", tmp_path)
    active = table.position.active
    pos = table.position.apply_action(Choose("B01")).apply_action(Choose("B03"))
    cells = resting_placements(pos.tower(active.other), pos.block("B03"))[0]
    said = _made(table, Choose("B01"), Choose("B03"), Place(active.other, "B03", cells))
    assert said[-1].startswith(f"{active.other} placed a blue block on tower "), said
    assert said[-1].endswith(f"; {active} got the other blue block"), said


def test_the_towers_terminal_names_each_block_by_its_colour(tmp_path):
    """`obelisk watch` drew "zone: blue block B01, green block G01" and "player A places the
    blue block B01": the terminal says what the table can tell, the blocks' colours."""
    from engine.towers.actions import Choose, Take
    from firmware.towers.screen import draw

    table = _table("towers", tmp_path)
    pos = table.position.apply_action(Choose("B01")).apply_action(Choose("G01"))
    drawn = draw(pos.observation())
    assert "zone: blue block, green block" in drawn, drawn
    dealt = pos.apply_action(Take("G01"))
    drawn += draw(dealt.observation())
    assert f"player {dealt.active.value} places the blue block" in drawn, drawn
    assert f"{dealt.passive.value} holds the green block" in drawn, drawn
    assert not BLOCK_ID.search(drawn), drawn


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
    from firmware.service.commands import games

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


@pytest.mark.parametrize(("size", "small", "medium", "large"), [((3, 3), 5, 10, 10),
                                                                 ((5, 5), 20, 25, 25)])
def test_the_high_rise_rules_count_each_players_pieces_by_size(size, small, medium, large):
    """"2 stashes of their own colours with five small pieces set aside: ...; 25 pieces in
    all": the sheet says plainly how many pyramids of each size a player has (as
    docs/playing.md and the set: a stash's small pyramids less one of each colour)."""
    from engine.highrise.game import HighriseGame, HighriseOptions

    game = HighriseGame(HighriseOptions(rows=size[0], cols=size[1]))
    sheet = " ".join(GAMES["highrise"].rules_text(game).split())
    total = small + medium + large
    assert (f"Each player has {total} pyramids in their own colours: {small} small (1 pip), "
            f"{medium} medium (2 pips) and {large} large (3 pips).") in sheet, sheet
    assert "set aside:" not in sheet and "pieces in all" not in sheet


def _high_rise_alone(tmp_path):
    """High Rise against the computer (it plays B), the computer's first pyramid asked."""
    from engine.players import Player
    from firmware.service.solo import Computer, Solo
    from tests.test_highrise_table import Table

    t = Table(tmp_path)
    t.table.solo = Computer(Solo(Player.B, 1), "highrise")
    t.covers()
    if t.table.position.to_play is Player.A:
        t.put(4, t.table.position.legal_actions()[0].size)
    assert t.table.solo.asked
    return t


def test_high_rise_alone_a_wrong_size_is_refused_and_the_asked_size_stays_said(tmp_path):
    """A pyramid of another size on the square the computer asked for is refused; the ring
    keeps showing the size asked for, and the page's line under the ring keeps saying it in
    words ("the ring shows a small pyramid (1 pip)") while the refusal shows.
    The refusal, which every reader of the table gets (the log, a club's broker), names the
    square and how the ring shows the size, never the size: which went where stays hidden."""
    from engine.core import counted, square_name
    from engine.highrise.game import Size
    from firmware.service import palette

    t = _high_rise_alone(tmp_path)
    wanted = t.table.solo.asked[0]
    square = square_name(wanted.square)
    wrong = next(s for s in Size if s is not wanted.size)
    t.put(t.table.position.index(wanted.square), wrong)
    assert t.table.state == "repair"
    refusal = t.events[-1]
    assert refusal["event"] == "refused", refusal
    message = refusal["message"]
    assert "the computer asked for" in message and square in message, message
    legend = "(a third of the ring lit: small, two thirds: medium, all of it: large)"
    assert legend in message, message
    assert not any(s.label in message.replace(legend, "") for s in Size), message
    frame = t.table.led_frame(t.now, 16)
    lit = sum(frame[("ring", "B", i)] == palette.ASK for i in range(16))
    assert lit == -(-16 * wanted.size.value // 3)  # the ring still shows the size asked
    t.table.tell_lights(frame)
    ring = next(s for s in t.events[-1]["strips"] if s["strip"] == "ring" and s["owner"] == "B")
    size = wanted.size
    assert ring.get("says") == (f"the ring shows a {size.label} pyramid "
                                f"({counted(size.value, 'pip')})")


@pytest.mark.parametrize("game_id", ["towers", "stones", "maze"])
def test_a_move_made_for_the_computer_but_not_asked_is_refused_naming_the_asked_one(game_id):
    """The refusal names the computer's asked move as its ask said it (the maze's "a wall on
    c5 blocking its north and east sides", not its notation), and the move made."""
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
    assert rules.words(pos, (asked,)) in said, said
