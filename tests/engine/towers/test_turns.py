"""The towers turn flow, end of game and scoring, step by step."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from engine.errors import (
    BlockNotAvailableError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OverhangError,
    WrongPhaseError,
)
from engine.players import Player
from engine.towers.actions import Choose, Decline, Place, PutBack, Take, Timeout
from engine.towers.blocks import Colour
from engine.towers.game import TowersState
from engine.towers.tower import LEVELS, Tower, resting_placements
from engine.towers.turns import EndReason, Phase
from tests.support.towers import (
    COLUMN_A,
    COLUMN_B,
    build_tower,
    cells,
    column,
    pack_tower,
    position,
)

A, B = Player.A, Player.B


def low(state: TowersState, tower: Player, block_id: str) -> Place:
    """The lowest placement of a block: a predictable move for tests."""
    fits = resting_placements(state.tower(tower), state.block(block_id))
    return Place(tower, block_id, min(fits, key=lambda p: (max(z for *_, z in p), sorted(p))))


def play_turn(state: TowersState, mine: str, theirs: str) -> TowersState:
    """Active chooses both, passive takes ``theirs``, both place low."""
    state = state.apply_action(Choose(mine)).apply_action(Choose(theirs))
    state = state.apply_action(Take(theirs))
    state = state.apply_action(low(state, state.active, mine))
    return state.apply_action(low(state, state.passive, theirs))


def refused(state: TowersState, action, error=IllegalActionError, match=None) -> str:
    """Apply an illegal action: it raises, and the state is left exactly as it was."""
    before = (state, hash(state.towers), state.pile, state.zone, state.hands)
    with pytest.raises(error, match=match) as err:
        state.apply_action(action)
    assert (state, hash(state.towers), state.pile, state.zone, state.hands) == before
    return str(err.value)


def test_a_first_turn(game):
    s = game.new_initial_state(first=A)
    assert s.phase is Phase.CHOOSE and s.to_move() == (A,)
    assert len(s.pile) == 35 and len(s.blacks) == 4
    s = s.apply_action(Choose("B01"))
    assert s.zone == ("B01",) and s.phase is Phase.CHOOSE
    s = s.apply_action(Choose("R01"))
    assert s.phase is Phase.TAKE and s.to_move() == (B,)
    s = s.apply_action(Take("R01"))
    assert s.hands == ("B01", "R01") and s.phase is Phase.PLACE
    assert set(s.to_move()) == {A, B}
    s = s.apply_action(low(s, B, "R01"))     # the passive player may place first
    assert s.to_move() == (A,)
    s = s.apply_action(low(s, A, "B01"))
    assert s.phase is Phase.CHOOSE and s.active is B and s.turn == 2
    assert s.scores() == (3, 1)
    assert len(s.pile) == 33


def test_put_back_before_the_second_block(game):
    s = game.new_initial_state(first=A).apply_action(Choose("G01")).apply_action(PutBack("G01"))
    assert s.zone == () and "G01" in s.pile and s.phase is Phase.CHOOSE
    full = s.apply_action(Choose("G01")).apply_action(Choose("G02"))
    message = refused(full, PutBack("G01"), WrongPhaseError)
    assert "only the passive player may handle them" in message


def test_timeout_loses_the_turn_and_returns_the_zone(game):
    s = game.new_initial_state(first=A).apply_action(Choose("B05"))
    s = s.apply_action(Timeout())
    assert s.active is B and s.turn == 2 and s.zone == () and "B05" in s.pile
    assert s.phase is Phase.CHOOSE and s.tower(A) == Tower() and s.tower(B) == Tower()
    taking = play_turn(s, "G01", "G02").apply_action(Choose("G03")).apply_action(Choose("G04"))
    assert "only the active player's choice is timed" in refused(taking, Timeout())


def test_the_passive_placing_from_the_zone_counts_as_the_take(game):
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    s = s.apply_action(low(s, B, "R01"))
    assert s.hands == ("B01", None) and s.phase is Phase.PLACE
    s = s.apply_action(low(s, A, "B01"))
    assert s.phase is Phase.CHOOSE and s.turn == 2


def test_the_passive_player_chooses_first(game, block_set):
    """Nobody places until the passive player has taken one of the two zone blocks."""
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    assert s.available_blocks(A) == () and set(s.available_blocks(B)) == {"B01", "R01"}
    assert {s.actor(a) for a in s.legal_actions()} == {B}
    place = Place(A, "R01", next(iter(resting_placements(s.tower(A), block_set["R01"]))))
    assert "player B chooses first" in refused(s, place, NotYourTurnError)
    taken = s.apply_action(Take("B01"))                   # now the active may place first
    assert taken.apply_action(place).hands == (None, "B01")


def test_illegal_actions_say_why_and_change_nothing(game):
    s = game.new_initial_state(first=A)
    assert "black blocks stay out of the common pile" in refused(s, Choose("K01"))
    assert "not in this set" in refused(s, Choose("Z9"), BlockNotAvailableError)
    assert "passive player takes" in refused(s, Take("B01"), WrongPhaseError)
    assert "no block can be placed" in refused(s, low(s, A, "B01"), WrongPhaseError)
    zone = s.apply_action(Choose("B01")).apply_action(Choose("R01"))
    assert "in the common pile" in refused(zone, Take("G05"), BlockNotAvailableError)
    message = refused(zone, Choose("G05"), WrongPhaseError)
    assert message.endswith("now player B is taking one of the two blocks in the building zone")
    dealt = zone.apply_action(Take("R01"))
    message = refused(dealt, low(dealt, A, "R01"), BlockNotAvailableError)
    assert message == ("player A must place the blue block now, not the red block")
    overhang = Place(A, "B01", frozenset({(1, 0, 0), (2, 0, 0), (1, 1, 0), (2, 1, 0), (3, 0, 0)}))
    assert "overhangs" in refused(dealt, overhang, IllegalActionError)
    placed = dealt.apply_action(low(dealt, A, "B01"))
    assert "already placed a block this turn" in refused(
        placed, low(dealt, A, "B01"), NotYourTurnError)
    assert "no black block to decline" in refused(placed, Decline(B), WrongPhaseError)


def test_a_zone_block_cannot_be_chosen_twice(game):
    s = game.new_initial_state(first=A).apply_action(Choose("B01"))
    message = refused(s, Choose("B01"), BlockNotAvailableError)
    assert message == "the blue block cannot be chosen: it is in the building zone"


# ----------------------------------------------------------------------------- scoring


WORKED_EXAMPLE = ["K01", "Y01", "R01", "R02", "G01", "G02", "G03", "G04", "G05", "G06", "G07",
                  "B01", "B02", "B04", "B05", "B06"]


def _worked_example_tower(block_set) -> Tower:
    """1 black, 1 yellow, 2 red, 7 green and 5 blue blocks on one legal tower."""
    tower = pack_tower(block_set, WORKED_EXAMPLE)
    assert tower is not None and tower.overflow == 0
    counts = {c: sum(1 for pb in tower.blocks if pb.block.colour is c) for c in Colour}
    assert counts == {Colour.BLACK: 1, Colour.YELLOW: 1, Colour.RED: 2,
                      Colour.GREEN: 7, Colour.BLUE: 5}
    return tower


def test_the_seeds_worked_example_scores_29(game, block_set):
    tower = _worked_example_tower(block_set)
    assert tower.points == 29
    s = position(game.new_initial_state(first=A), tower_a=tower)
    assert s.scores()[0] == 29


def test_the_worked_example_three_cubes_over_scores_26(game, block_set):
    tower = _worked_example_tower(block_set)
    s = position(game.new_initial_state(first=A), tower_a=tower)
    # Find a pile block and a placement of it with exactly three cubes over the top.
    over3 = None
    for block_id in s.pile:
        for p in resting_placements(tower, block_set[block_id]):
            if sum(1 for c in p if c[2] >= LEVELS) == 3:
                over3 = (block_id, p)
                break
        if over3:
            break
    assert over3, "the test tower is too low to go three cubes over"
    mine, where = over3
    theirs = next(b for b in s.pile if b != mine)
    s = s.apply_action(Choose(mine)).apply_action(Choose(theirs)).apply_action(Take(theirs))
    s = s.apply_action(Place(A, mine, where))
    assert not s.is_terminal()                      # the turn finishes first
    s = s.apply_action(low(s, B, theirs))
    assert s.is_terminal() and s.end is EndReason.OVER_THE_TOP
    assert s.scores()[0] == 26
    assert mine in s.removed and all(pb.block.id != mine for pb in s.tower(A).blocks)
    assert s.over_the_top == (A,)
    outcome = s.outcome()
    assert outcome.winner is A and outcome.scores == s.scores()
    assert s.returns() == (1.0, -1.0)
    assert "game is over" in refused(s, Choose(theirs), GameOverError)


# ----------------------------------------------------------------------------- flats


P_BLOCK = cells("a1:1", "b1:1", "a2:1", "b2:1", "a3:1")
L_BLOCK = cells("c1:1", "c2:1", "c3:1", "b3:1")


def _flat_next_turn(game, block_set, blacks=None) -> TowersState:
    """A's tower holds B01 at level 1; this turn A fills the rest with G05: flat."""
    s = position(game.new_initial_state(first=A),
                 tower_a=build_tower(block_set, ("B01", P_BLOCK)))
    if blacks is not None:
        s = position(s, blacks=blacks)
    s = s.apply_action(Choose("G05")).apply_action(Choose("R01")).apply_action(Take("R01"))
    s = s.apply_action(Place(A, "G05", L_BLOCK))
    return s.apply_action(low(s, B, "R01"))


def test_a_flat_earns_a_black_block_for_the_opponent(game, block_set):
    s = _flat_next_turn(game, block_set)
    assert s.tower(A).is_flat and s.phase is Phase.BONUS and s.bonus == (A,)
    wrong = low(s, A, "K01")  # on the flat tower itself
    assert "goes on the opponent's tower" in refused(s, wrong, NotYourTurnError)
    not_black = Place(B, "G01", low(s, B, "K01").cells)
    assert "only a black block" in refused(s, not_black, BlockNotAvailableError)
    before = s.scores()[1]
    s = s.apply_action(low(s, B, "K01"))
    assert s.phase is Phase.CHOOSE and s.active is B and len(s.blacks) == 3
    assert s.scores()[1] == before + Colour.BLACK.points
    black = next(pb for pb in s.tower(B).blocks if pb.block.id == "K01")
    assert black.placed_by is A


def test_a_flat_bonus_may_be_declined(game, block_set):
    s = _flat_next_turn(game, block_set)
    assert "player B has no flat bonus" in refused(s, Decline(B), NotYourTurnError)
    s = s.apply_action(Decline(A))
    assert s.phase is Phase.CHOOSE and len(s.blacks) == 4


def test_no_bonus_once_black_blocks_are_gone(game, block_set):
    s = _flat_next_turn(game, block_set, blacks=())
    assert s.tower(A).is_flat and s.phase is Phase.CHOOSE and s.bonus == ()


def test_a_black_block_over_the_top_ends_the_game(game, block_set):
    tall_b = column(block_set, [*COLUMN_B, ("K02", "a1:9")], owner=B)
    s = position(game.new_initial_state(first=A),
                 tower_a=build_tower(block_set, ("B01", P_BLOCK)), tower_b=tall_b)
    s = s.apply_action(Choose("G05")).apply_action(Choose("B05")).apply_action(Take("B05"))
    s = s.apply_action(Place(A, "G05", L_BLOCK))
    s = s.apply_action(low(s, B, "B05"))
    assert s.phase is Phase.BONUS and s.bonus == (A,)
    s = s.apply_action(Place(B, "K01", cells("a1:10")))
    assert s.is_terminal() and s.end is EndReason.BLACK_OVER_THE_TOP
    assert "K01" in s.removed and s.penalties == (0, 1)
    # A: blue B01 + green G05. B: 3 yellow, 3 red, 2 green, the black K02 from
    # before, the blue B05, and one point off for K01 over the top.
    assert s.scores() == (3 + 2, 3 * 0 + 3 * 1 + 2 * 2 - 2 + 3 - 1)


def test_both_towers_flat_both_earn_a_bonus(game, block_set):
    s = position(game.new_initial_state(first=A),
                 tower_a=build_tower(block_set, ("B01", P_BLOCK)),
                 tower_b=build_tower(block_set, ("B02", P_BLOCK), owner=B))
    s = s.apply_action(Choose("G05")).apply_action(Choose("G06")).apply_action(Take("G06"))
    s = s.apply_action(Place(A, "G05", L_BLOCK)).apply_action(Place(B, "G06", L_BLOCK))
    assert s.phase is Phase.BONUS and set(s.bonus) == {A, B}
    s = s.apply_action(low(s, A, "K01"))   # B's bonus goes on A's tower
    assert s.bonus == (A,)
    s = s.apply_action(low(s, B, "K02"))
    assert s.phase is Phase.CHOOSE and len(s.blacks) == 2


def test_the_last_black_block_serves_only_one_bonus(game, block_set):
    s = position(game.new_initial_state(first=A),
                 tower_a=build_tower(block_set, ("B01", P_BLOCK)),
                 tower_b=build_tower(block_set, ("B02", P_BLOCK), owner=B), blacks=("K04",))
    s = s.apply_action(Choose("G05")).apply_action(Choose("G06")).apply_action(Take("G06"))
    s = s.apply_action(Place(A, "G05", L_BLOCK)).apply_action(Place(B, "G06", L_BLOCK))
    s = s.apply_action(low(s, A, "K04"))
    assert s.phase is Phase.CHOOSE and s.blacks == ()


# ----------------------------------------------------------------------------- endings


def test_the_game_ends_when_the_pile_cannot_supply_two(game):
    s = replace(game.new_initial_state(first=A), pile=("G01", "G02", "G03"))
    s = play_turn(s, "G01", "G02")
    assert s.is_terminal() and s.end is EndReason.PILE_EMPTY
    assert s.outcome().winner is None and s.scores() == (2, 2)


def _over(state: TowersState, tower: Player, block_id: str) -> Place:
    """A placement of the block that goes over the top of the tower."""
    fits = resting_placements(state.tower(tower), state.block(block_id))
    over = [p for p in fits if any(z >= LEVELS for *_, z in p)]
    assert over, f"{block_id} cannot go over the top of {tower}'s tower here"
    return Place(tower, block_id, over[0])


def test_sudden_death_first_over_the_top_loses(sudden_game, block_set):
    s = position(sudden_game.new_initial_state(first=A),
                 tower_b=column(block_set, COLUMN_B, owner=B))
    s = s.apply_action(Choose("G03")).apply_action(Choose("B09")).apply_action(Take("B09"))
    s = s.apply_action(_over(s, B, "B09"))
    assert not s.is_terminal()
    s = s.apply_action(low(s, A, "G03"))
    assert s.is_terminal() and s.over_the_top == (B,)
    assert s.outcome().winner is A and s.scores() == (0, 0)
    assert s.returns() == (1.0, -1.0)


def test_sudden_death_both_over_in_one_turn_is_a_draw(sudden_game, block_set):
    s = position(sudden_game.new_initial_state(first=A),
                 tower_a=column(block_set, COLUMN_A),
                 tower_b=column(block_set, COLUMN_B, owner=B))
    s = s.apply_action(Choose("B09")).apply_action(Choose("B11")).apply_action(Take("B11"))
    s = s.apply_action(_over(s, A, "B09")).apply_action(_over(s, B, "B11"))
    assert s.is_terminal() and set(s.over_the_top) == {A, B}
    assert s.outcome().winner is None and s.returns() == (0.0, 0.0)


def test_the_same_turn_over_the_top_scores_both_penalties(game, block_set):
    s = position(game.new_initial_state(first=A),
                 tower_a=column(block_set, COLUMN_A),
                 tower_b=column(block_set, COLUMN_B, owner=B))
    s = s.apply_action(Choose("B09")).apply_action(Choose("B11")).apply_action(Take("B11"))
    mine, theirs = _over(s, A, "B09"), _over(s, B, "B11")
    s = s.apply_action(mine).apply_action(theirs)
    over = [sum(1 for *_, z in p.cells if z >= LEVELS) for p in (mine, theirs)]
    assert s.penalties == (over[0], over[1])
    assert set(s.removed) == {"B09", "B11"}
    # A keeps Y04, R04, G12, G09; B keeps 3 yellow, 3 red and 2 green.
    assert s.scores() == (0 + 1 + 2 + 2 - over[0], 0 + 3 + 4 - over[1])


def test_legal_actions_offer_interchangeable_blocks_once(game):
    s = game.new_initial_state(first=A)
    chooses = [a.block for a in s.legal_actions()]
    assert "G01" in chooses and "G02" not in chooses        # two identical squares
    assert len(chooses) == len({s.block(b).kind for b in s.pile})
    assert s.legal_actions(B) == []
    dealt = s.apply_action(Choose("G01")).apply_action(Choose("G02"))
    assert dealt.legal_actions() == [Take("G01")]


def test_actions_read_as_words(game):
    s = game.new_initial_state(first=A).apply_action(Choose("R01")).apply_action(Choose("G01"))
    s = s.apply_action(Take("R01"))
    assert str(Place(B, "R01", cells("a1:1", "b1:1", "c1:1"))) == \
        "place R01 on tower B at a1 level 1, b1 level 1, c1 level 1"
    assert "player A places the green block and player B places the red block" in str(s)
    assert s.action_words(Place(B, "R01", cells("a1:1"))) == \
        "place the red block on tower B at a1 level 1"


def test_an_overhang_through_the_engine_names_the_block(game):
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    s = s.apply_action(Take("R01"))
    bad = Place(B, "R01", frozenset({(1, 0, 0), (2, 0, 0), (3, 0, 0)}))
    assert refused(s, bad, OverhangError) == \
        "the red block overhangs the tower beyond column c: every cube needs a rod"


BLOCK_ID = re.compile(r"\b[KYRGB]\d\d\b")


def test_no_refusal_names_a_block_by_its_id(game):
    """The table cannot tell which of a colour's blocks it sees (the wooden blocks carry no
    labels): each refusal a random game meets, of the engine or of the rods' reading, names
    a block by its colour and where it is, never by its id in the set file."""
    from engine.errors import ObeliskError
    from engine.towers.placement import find_placement

    rng = random.Random(7)
    ids = [b.id for b in game.block_set.blocks]
    s = game.new_initial_state(first=A)
    said: list[str] = []
    while not s.is_terminal():
        for block in rng.sample(ids, 3):
            tries = [Choose(block), PutBack(block), Take(block)]
            for tower in (A, B):
                fits = resting_placements(s.tower(tower), s.block(block))
                tries += [Place(tower, block, fits[0])] if fits else []
            for action in tries:
                try:
                    s.apply_action(action)
                except ObeliskError as exc:
                    said.append(str(exc))
                else:
                    continue
                if isinstance(action, Place) and s.phase in (Phase.TAKE, Phase.PLACE):
                    try:
                        find_placement(s, action.tower, action.cells)
                    except ObeliskError as exc:
                        said.append(str(exc))
        s = s.apply_action(rng.choice(s.legal_actions()))
    assert len(said) > 100
    assert not [m for m in said if BLOCK_ID.search(m)], [m for m in said if BLOCK_ID.search(m)]
