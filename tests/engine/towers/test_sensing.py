"""From sensor readings to the one legal placement, or a reason why not."""

from __future__ import annotations

import pytest

from engine.errors import (
    AmbiguousPlacementError,
    BlockNotAvailableError,
    InferenceError,
    NothingPlacedError,
    NotOneBlockError,
    NotRestingError,
    NotYourTurnError,
    UnknownShapeError,
    WrongPhaseError,
)
from engine.players import Player
from engine.reading import Reading, Takeback
from engine.towers.actions import Choose, Place, PutBack, Take, Timeout
from engine.towers.blocks import Colour
from engine.towers.placement import (
    find_placement,
    handover_placement,
    over_the_top_placements,
)
from engine.towers.sensing import (
    UNKNOWN,
    TowersView,
    expected_towers,
    next_fix,
    read_view,
)
from engine.towers.tower import LEVELS, resting_placements
from engine.towers.turns import Phase
from tests.support.towers import COLUMN_A, COLUMN_B, cells, column, position

A, B = Player.A, Player.B


@pytest.fixture
def dealt(game):
    """A holds the blue B01, B holds the red R01, both towers empty."""
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    return s.apply_action(Take("R01"))


def test_every_legal_placement_is_recognised_from_its_cells(dealt):
    for p in resting_placements(dealt.tower(A), dealt.block("B01")):
        assert find_placement(dealt, A, p) == Place(A, "B01", p)


def test_the_passive_players_placement_also_tells_the_take(game):
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    assert s.phase is Phase.TAKE
    bar = cells("a1:1", "b1:1", "c1:1")
    place = find_placement(s, B, bar)        # the passive player chose the red bar
    assert place == Place(B, "R01", bar)
    assert s.apply_action(place).hands == ("B01", None)
    with pytest.raises(NotYourTurnError, match="player B chooses first"):
        find_placement(s, A, bar)            # the active player may not go first


def test_a_block_handed_over_tells_the_take_by_its_shape(game):
    """Both pads empty: B chose; the block on A's tower is the other, so B took B01."""
    s = game.new_initial_state(first=A).apply_action(Choose("B01")).apply_action(Choose("R01"))
    bar = cells("a1:1", "b1:1", "c1:1")
    take, place = handover_placement(s, bar)
    assert (take, place) == (Take("B01"), Place(A, "R01", bar))
    assert s.apply_action(take).apply_action(place).hands == (None, "B01")


def test_cubes_that_do_not_touch_are_not_one_block(dealt):
    with pytest.raises(NotOneBlockError, match=r"a1 level 1, c3 level 1.*not one block"):
        find_placement(dealt, A, cells("a1:1", "c3:1"))


def test_a_shape_nobody_has(dealt):
    with pytest.raises(UnknownShapeError, match="no block of the set has the shape"):
        find_placement(dealt, A, cells("a1:1", "a1:2", "a1:3", "a1:4"))


def test_a_real_block_that_is_not_this_players_now(dealt):
    square = cells("a1:1", "b1:1", "a2:1", "b2:1")
    with pytest.raises(BlockNotAvailableError) as err:
        find_placement(dealt, A, square)
    assert str(err.value) == (
        "that is the shape of a green block in the common pile; "
        "player A's tower takes the blue block now"
    )
    # The red bar is B's block: on A's tower it is refused the same way.
    with pytest.raises(BlockNotAvailableError, match="a red block in player B's hand"):
        find_placement(dealt, A, cells("a1:1", "b1:1", "c1:1"))


def test_a_floating_block_is_not_resting(dealt):
    high_p = cells("a1:3", "b1:3", "a2:3", "b2:3", "a3:3")
    with pytest.raises(NotRestingError, match="the blue block would not stay there"):
        find_placement(dealt, A, high_p)


def test_nothing_new_and_nothing_expected(game, dealt):
    with pytest.raises(NothingPlacedError):
        find_placement(dealt, A, frozenset())
    with pytest.raises(WrongPhaseError, match="is choosing blocks"):
        find_placement(game.new_initial_state(first=A), A, cells("a1:1"))
    placed = dealt.apply_action(Place(B, "R01", cells("a1:1", "b1:1", "c1:1")))
    with pytest.raises(InferenceError, match="already occupied"):
        find_placement(placed, B, cells("a1:1"))


def test_an_over_the_top_block_is_known_by_its_part_on_the_rods(game, block_set):
    s = position(game.new_initial_state(first=A), tower_a=column(block_set, COLUMN_A))
    s = s.apply_action(Choose("B09")).apply_action(Choose("G03")).apply_action(Take("G03"))
    # The square of B09 on level 9, its post above the rods over one of four corners:
    # the sensors cannot tell which corner, and it does not matter.
    seen = cells("a1:9", "b1:9", "a2:9", "b2:9")
    place = find_placement(s, A, seen)
    assert place.block == "B09" and seen < place.cells
    assert sum(1 for c in place.cells if c[2] >= LEVELS) == 1


def test_an_ambiguous_over_the_top_asks_the_player(game, block_set):
    s = position(game.new_initial_state(first=A),
                 tower_b=column(block_set, COLUMN_B, owner=B))
    s = s.apply_action(Choose("Y04")).apply_action(Choose("R04"))
    # Only a1 level 9 shows: the standing pair (1 cube over) or the corner upside
    # down (2 over). They score differently, so the table must ask.
    with pytest.raises(AmbiguousPlacementError) as err:
        find_placement(s, B, cells("a1:9"))
    over = {p.block: sum(1 for c in p.cells if c[2] >= LEVELS) for p in err.value.candidates}
    assert over == {"Y04": 1, "R04": 2} and len(err.value.candidates) == 2
    # The zone pads tell which colour was taken, and that settles it.
    assert find_placement(s, B, cells("a1:9"), Colour.YELLOW).block == "Y04"
    assert find_placement(s, B, cells("a1:9"), Colour.RED).block == "R04"


def test_a_zone_block_is_known_by_colour_and_its_shape_tells_which(game):
    # The table weighed a green in the zone and wrote down G01 (a square), but
    # the player had picked G07 (an S): placing it corrects the record.
    s = game.new_initial_state(first=A).apply_action(Choose("G01")).apply_action(Choose("R01"))
    s_shape = cells("a1:1", "b1:1", "b2:1", "c2:1")
    place = find_placement(s, B, s_shape)
    assert place.block in {"G07", "G08"} and place.cells == s_shape
    after = s.apply_action(place)
    assert place.block in {pb.block.id for pb in after.tower(B).blocks}
    assert "G01" in after.pile and place.block not in after.pile
    assert after.hands == ("R01", None)


def test_a_hand_block_is_corrected_the_same_way(dealt):
    # A holds "B01" (a P) as far as the table knows; it was really the plus, B03.
    plus = cells("b1:1", "a2:1", "b2:1", "c2:1", "b3:1")
    place = find_placement(dealt, A, plus)
    assert place.block == "B03"
    after = dealt.apply_action(place)
    assert "B01" in after.pile and after.tower(A).blocks[0].block.id == "B03"
    # Another colour is still refused.
    with pytest.raises(BlockNotAvailableError):
        find_placement(dealt, A, cells("a1:1", "b1:1", "a2:1", "b2:1"))


def test_a_floating_block_of_the_zone_colour_is_told_it_floats(dealt):
    # The table assumed B01 for A's blue; the real block is B03, left floating.
    plus_high = cells("b1:2", "a2:2", "b2:2", "c2:2", "b3:2")
    with pytest.raises(NotRestingError, match="the blue block would not stay there"):
        find_placement(dealt, A, plus_high)


def test_over_the_top_during_the_take_tells_apart_what_the_other_player_gets(game, block_set):
    """Unseen above the rods, the passive player's green could be either zone green: the
    game ends with the turn, but the active player still places the other one."""
    full = [*COLUMN_A, ("K01", "a1:9")]
    s = position(game.new_initial_state(first=B), tower_a=column(block_set, full))
    s = s.apply_action(Choose("G04")).apply_action(Choose("G05"))
    fits = over_the_top_placements(s, A, Colour.GREEN)
    gets = {block_set[s.apply_action(p).hands[B.index]].kind for p in fits}
    assert gets == {block_set["G04"].kind, block_set["G05"].kind}
    assert all(not any(z < LEVELS for *_, z in p.cells) for p in fits)


def test_a_settled_view_reads_as_actions_a_takeback_or_what_is_wrong(game):
    """The table's whole reading is pure: the same history and view, the same answer."""
    s = game.new_initial_state(first=A)
    history, actions = [s], []
    empty = (frozenset(), frozenset())
    green = TowersView(empty, (Colour.GREEN, None))
    assert read_view(history, actions, TowersView(empty, (None, None))) == Reading()
    assert read_view(history, actions, green) == Reading(actions=(Choose("G01"),))
    with pytest.raises(InferenceError, match="zone pad 2 weighs something that is not a block"):
        read_view(history, actions, TowersView(empty, (None, UNKNOWN)))
    with pytest.raises(InferenceError, match="put the zone blocks back in the pile"):
        read_view(history, actions, green, clear_zone=True)
    for action in (Choose("B01"), Choose("R01")):
        actions.append(action)
        history.append(history[-1].apply_action(action))
    bar = cells("a1:1", "b1:1", "c1:1")
    pads = (Colour.BLUE, None)
    (place,) = read_view(history, actions, TowersView((frozenset(), bar), pads)).actions
    assert place == Place(B, "R01", bar)
    actions.append(place)
    history.append(history[-1].apply_action(place))
    assert expected_towers(history[-1]) == (frozenset(), bar)
    assert read_view(history, actions, TowersView(empty, pads)) == Reading(
        takeback=Takeback(2, frozenset({B})))
    with pytest.raises(InferenceError, match="cubes are missing from tower B"):
        read_view(history, actions, TowersView((frozenset(), bar - cells("a1:1")), pads))
    assert next_fix(history[-1], TowersView((frozenset(), bar - cells("a1:1")), pads)) == \
        (B, (0, 0, 0), False)


def test_a_colour_on_a_pad_reads_as_the_sets_first_block_of_it_whatever_went_back(game):
    """The pads weigh colours only, so the table guesses which block of a colour came: the
    set's first in the pile, however blocks went back to it (a block put back, a lost
    turn's). The simulated hands fetch so too; were the guess to follow the order blocks
    went back in, the table's red would be another shape than the hands' one, and the
    computer would ask for a shape that is not on the pads."""
    empty = (frozenset(), frozenset())
    s = game.new_initial_state(first=A)
    back = s.apply_action(Choose("R01")).apply_action(PutBack("R01"))
    assert back.pile[-1] == "R01"  # the pile keeps the order blocks went back in
    red = TowersView(empty, (Colour.RED, None))
    assert read_view([back], [], red) == Reading(actions=(Choose("R01"),))
    lost = s.apply_action(Choose("R01")).apply_action(Timeout())  # (roles swap)
    assert lost.pile[-1] == "R01"
    assert read_view([lost], [], red) == Reading(actions=(Choose("R01"),))
