"""Playing alone: the demo's hands read the computer's move off the LEDs, and nowhere else.

Each game's ``read`` (``firmware/<game>/solo.py``) turns an LED frame back
into the move it shows. Every legal move of many positions is lit as the
table lights it and read back; and a hand shown a frame lighting another
move than the one the table asked makes the one lit (so it cannot be reading
the table's own record of the move).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import types

import pytest

from engine.core import ChanceStream, play_chance, seeded_start
from engine.players import Player
from engine.towers.actions import Choose, Place, Take
from engine.towers.turns import Phase
from firmware.core import palette
from firmware.games import GAMES
from firmware.seats.far_seat import movers, rules_for
from firmware.seats.solo import SAME_LIGHT, pixels_of
from firmware.sim.far_hands import SoloPlayers

A, B = Player.A, Player.B


class FrameLeds(dict):
    """A frame standing in for the simulated strip: what the hands look at."""

    def __init__(self, frame: dict, parts: list) -> None:
        super().__init__(frame)
        self._parts = parts

    def parts(self) -> list:
        return self._parts


def _positions(game_id: str, seed: int, every: int = 1):
    """Positions of a random game (chance resolved), each with who is to act."""
    spec = GAMES[game_id]
    stream = ChanceStream(seed)
    state, _ = seeded_start(spec.make(spec.options()), seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state
        state = play_chance(state.apply_action(rng.choice(state.legal_actions())), stream)
        n += 1


def _table(pos, **more):
    return types.SimpleNamespace(position=pos, **more)


def _lit(rules, table, actions, seat) -> dict:
    frame: dict = {}
    rules.lights(table, frame, actions, seat, asked=True)
    return frame


def test_every_stones_move_lit_is_read_back():
    """On the reference table's 8-wide board, whose pixels run row by row as its switches do
    (a 6x4 game in its corner)."""
    rules = rules_for("stones")
    checked = 0
    for pos in itertools.islice(_positions("stones", 4), 60):
        for move in pos.legal_actions():
            frame = _lit(rules, _table(pos, board_cols=8), (move,), pos.to_play)
            assert rules.read(pixels_of(frame), pos, 8) == (move,)
            checked += 1
    assert checked > 200
    assert rules.read(pixels_of({}), pos) == ()  # nothing lit: nothing asked


def test_every_high_rise_pyramid_lit_is_read_back():
    rules = rules_for("highrise")
    ring = 16
    for pos in _positions("highrise", 5):
        seat = pos.current_player()
        cols = pos.options.cols
        for place in pos.legal_actions():
            frame = {("ring", seat.value, i): palette.OFF for i in range(ring)}
            rules.lights(_table(pos, board_cols=cols), frame, (place,), seat, asked=True)
            assert rules.read(pixels_of(frame), pos, seat.value, ring, cols) == (place,)


def test_every_maze_move_lit_is_read_back():
    rules = rules_for("maze")
    checked = 0
    for pos in itertools.islice(_positions("maze", 6, every=3), 40):
        for action in pos.legal_actions():
            if rules.hands_free(action) or not rules.asks(pos):
                continue
            frame = _lit(rules, _table(pos), (action,), pos.to_play.player)
            assert rules.read(pixels_of(frame), pos) == (action,), action
            checked += 1
    assert checked > 500


def _at_hand(rules, pos, pads=(None, None), held=None):
    return rules.AtHand(tuple(pads), held, tuple(pos.pile), tuple(
        pos.tower(p).heights for p in (A, B)))


def _same(rules, pos, made, wanted) -> bool:
    return len(made) == len(wanted) and all(
        rules.same(pos, w, m) for w, m in zip(wanted, made, strict=True))


def test_every_towers_move_lit_is_read_back():
    """Blocks wanted in the zone, the one to take, and every placement's rods, shaded so
    that the block's orientation shows too (a standing piece, a cube hanging a level up)."""
    rules = rules_for("towers")
    kinds = {Phase.CHOOSE: 0, Phase.TAKE: 0, Phase.PLACE: 0, Phase.BONUS: 0}
    for seed in (7, 8):
        positions = list(_positions("towers", seed))
        flat = next(p for p in positions[20:] if p.phase is Phase.CHOOSE and not any(p.zone))
        # a flat tower's black block (random play rarely builds one): its earner gives it
        positions.append(dataclasses.replace(flat, phase=Phase.BONUS, bonus=(flat.active,)))
        for pos in positions:
            seat = pos.current_player()
            if pos.phase is Phase.CHOOSE and not any(pos.zone):
                pair = tuple(Choose(b) for b in pos.pile[:1] + pos.pile[-1:])
                table = _table(pos, decided=types.SimpleNamespace(zone=(None, None)))
                frame = _lit(rules, table, pair, seat)
                made = rules.read(pixels_of(frame), pos, _at_hand(rules, pos))
                assert _same(rules, pos, made, pair)
                kinds[pos.phase] += 1
            elif pos.phase is Phase.TAKE:
                zone = tuple(pos.block(b).colour for b in pos.zone)
                table = _table(pos, decided=types.SimpleNamespace(zone=zone))
                for take in pos.legal_actions():
                    after = pos.apply_action(take)
                    for place in after.legal_actions()[:40]:
                        if not isinstance(place, Place) or place.tower is not seat:
                            continue
                        frame = _lit(rules, table, (take, place), seat)
                        made = rules.read(pixels_of(frame), pos,
                                          _at_hand(rules, pos, pads=pos.zone))
                        assert _same(rules, pos, made, (take, place)), (take, place, made)
                        kinds[pos.phase] += 1
            elif pos.phase in (Phase.PLACE, Phase.BONUS):
                table = _table(pos, decided=types.SimpleNamespace(zone=(None, None)))
                for place in pos.legal_actions():
                    if not isinstance(place, Place):
                        continue
                    frame = _lit(rules, table, (place,), seat)
                    held = place.block if pos.phase is Phase.PLACE else None
                    made = rules.read(pixels_of(frame), pos, _at_hand(rules, pos, held=held))
                    assert _same(rules, pos, made, (place,)), (place, made)
                    kinds[pos.phase] += 1
    assert all(kinds.values()), kinds


def test_the_rod_shades_are_told_apart():
    rules = rules_for("towers")
    for one, other in itertools.combinations(rules.SHADES.values(), 2):
        assert sum((a - b) ** 2 for a, b in zip(one, other, strict=True)) > (2 * SAME_LIGHT) ** 2


# ------------------------------------------------------------------ the hand reads the LEDs


def _hands(game_id, pos, seat, frame, parts, monkeypatch, **physical):
    """SoloPlayers over a table whose own record asks for one move, and a strip showing
    ``frame``: what the hand makes (and whether the bots acted instead)."""
    rules = rules_for(game_id)
    bodily = physical.pop("players", {})
    made: list = []
    monkeypatch.setattr(rules, "hand", lambda players, table, actions: made.append(actions))
    asked = (next(a for a in pos.legal_actions() if not rules.hands_free(a)),)
    table = _table(pos, state="play", chooser=None, candidates=(),
                   solo=types.SimpleNamespace(seat=seat, rules=rules, asked=asked,
                                              first_to_act=lambda pos: seat in movers(pos)),
                   **physical)
    players = types.SimpleNamespace(devices=types.SimpleNamespace(leds=FrameLeds(frame, parts)),
                                    act=lambda: made.append("bots"))
    for name, value in bodily.items():
        setattr(players, name, value)
    SoloPlayers(players, table).act()
    return made, asked


def _other(pos, asked, rules):
    return next(a for a in pos.legal_actions() if a != asked[0] and not rules.hands_free(a)
                and not rules.same(pos, asked[0], a))


@pytest.mark.parametrize("game_id", ["stones", "maze"])
def test_the_hand_makes_the_move_the_board_lights_not_the_one_recorded(game_id, monkeypatch):
    rules = rules_for(game_id)
    pos = next(p for p in itertools.islice(_positions(game_id, 3), 12, None) if rules.asks(p))
    seat = next(iter(movers(pos)))
    asked = (next(a for a in pos.legal_actions() if not rules.hands_free(a)),)
    wrong = _other(pos, asked, rules)
    frame = _lit(rules, _table(pos, board_cols=8), (wrong,), seat)
    made, recorded = _hands(game_id, pos, seat, frame, [], monkeypatch, board_cols=8)
    assert recorded == asked and made == [(wrong,)]  # the lit one, not the table's record
    made, _ = _hands(game_id, pos, seat, {}, [], monkeypatch, board_cols=8)
    assert made == []  # nothing lit yet: the hand waits, and no bot moves for the computer


def test_the_high_rise_hand_reads_the_size_off_the_ring(monkeypatch):
    rules = rules_for("highrise")
    pos = next(_positions("highrise", 3))
    seat = pos.current_player()
    cols = pos.options.cols
    places = pos.legal_actions()
    asked = places[0]
    wrong = next(p for p in places if p.square == asked.square and p.size != asked.size)
    frame = {("ring", seat.value, i): palette.OFF for i in range(12)}
    rules.lights(_table(pos, board_cols=cols), frame, (wrong,), seat, asked=True)
    made, recorded = _hands("highrise", pos, seat, frame, [("ring", seat.value, 12)],
                            monkeypatch, board_cols=cols)
    assert recorded == (asked,) and made == [(wrong,)]


def test_the_towers_hand_turns_the_block_as_the_rods_show(monkeypatch):
    """A standing pair and a flat pair are both yellow: the rods' shades say which way
    the held block goes, whatever the table recorded."""
    rules = rules_for("towers")
    pos = next(p for p in _positions("towers", 9) if p.phase is Phase.PLACE
               and p.block(p.hands[p.current_player().index]).colour.volume >= 2)
    seat = pos.current_player()
    block = pos.hands[seat.index]
    places = [a for a in pos.legal_actions() if isinstance(a, Place) and a.block == block]
    asked, wrong = places[0], next(
        p for p in places if rules.column_levels(p.cells) != rules.column_levels(
            places[0].cells) or p.cells != places[0].cells)
    frame = _lit(rules, _table(pos, decided=None), (wrong,), seat)
    sim = types.SimpleNamespace(cubes=[pos.tower(A).occupied, pos.tower(B).occupied])
    physical = {"pads": [None, None], "held": {seat: block}, "sim": sim,
                "physical_pile": lambda p: list(p.pile)}
    made, _ = _hands("towers", pos, seat, frame, [], monkeypatch, players=physical)
    assert len(made) == 1 and _same(rules, pos, made[0], (wrong,)) and wrong != asked
    assert not isinstance(made[0][0], Take | Choose)
