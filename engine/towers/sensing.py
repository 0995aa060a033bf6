"""The whole reading of a settled towers table, pure.

A ``TowersView`` (the cubes the rods see and the colours the zone pads
weigh) is what the accepted game should look like (``expected_towers``,
``zone_fits``), or what it means (``read_view``, an ``engine.reading.Reading``:
actions, a takeback of the last placements, or placements for a player to
choose among), or an error saying what is wrong. Which placement the new
cubes on a tower are is worked out in ``engine.towers.placement``. The
firmware only turns a hardware snapshot into the view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import (
    AmbiguousPlacementError,
    BlockNotAvailableError,
    InferenceError,
    ObeliskError,
    PutBackFirst,
    WrongPhaseError,
)
from engine.players import PLAYERS, Player
from engine.reading import Reading, Takeback
from engine.towers.actions import Action, Choose, Place, PutBack, Take
from engine.towers.blocks import Cell, Colour
from engine.towers.game import TowersState
from engine.towers.placement import (
    find_placement,
    handover_placement,
    over_the_top_placements,
    visible,
)
from engine.towers.tower import cells_text
from engine.towers.turns import Phase

UNKNOWN = "unknown"
"""A zone pad that weighs something no block of the set weighs."""
LOST_TURN = "the hourglass ran out: put the zone blocks back in the pile"
"""What the table asks after a lost turn, until the zone pads are empty."""

TAKEBACK_WINDOW = 2
"""How many of the last actions lifting blocks off may take back (placements only)."""


@dataclass(frozen=True)
class TowersView:
    """What the towers table's sensors read, or should read for an accepted position.

    ``towers`` holds the cube positions the rod switches see on each tower
    (levels 1-9), ``zone`` the colour each building-zone pad weighs (None for
    an empty pad, ``UNKNOWN`` for a weight no block has).
    """

    towers: tuple[frozenset[Cell], frozenset[Cell]]
    zone: tuple[Colour | str | None, ...]

    def zone_colours(self) -> Counter[Colour | str]:
        return Counter(c for c in self.zone if c is not None)


def expected_towers(state: TowersState) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The cube positions the rod switches should see for an accepted state."""
    a, b = (visible(state.tower(p).occupied) for p in PLAYERS)
    return (a, b)


def zone_fits(state: TowersState, zone: Counter[Colour | str]) -> bool:
    """Can these colours be on the zone pads in this state?

    While choosing, the pads hold exactly the zone. Once taken, blocks are
    in hands or still on the pads: any part of what is still to be placed.
    """
    colours: Counter[Colour | str] = Counter(state.block(b).colour for b in state.zone)
    if state.phase is Phase.CHOOSE:
        return zone == colours
    if state.phase is Phase.TAKE:
        return not zone - colours
    if state.phase is Phase.PLACE:
        held: Counter[Colour | str] = Counter(state.block(h).colour for h in state.hands
                                              if h is not None)
        return not zone - held
    return not zone


def taken_colour(state: TowersState, view: TowersView | None) -> Colour | None:
    """While taking: the colour of the one zone block no longer on its pad."""
    if state.phase is not Phase.TAKE or view is None:
        return None
    zone: Counter[Colour | str] = Counter(state.block(b).colour for b in state.zone)
    # what is left are colours of the zone's blocks (the filter only tells mypy so)
    taken = [c for c in zone - view.zone_colours() if isinstance(c, Colour)]
    return taken[0] if len(taken) == 1 else None


def handed_over(state: TowersState, view: TowersView | None) -> bool:
    """During the take, both pads empty: the passive player has chosen and handed over."""
    return state.phase is Phase.TAKE and view is not None and not view.zone_colours()


def next_fix(state: TowersState, view: TowersView) -> tuple[Player, Cell, bool] | None:
    """The one difference to put right next: (tower, cube position, True if it is extra).

    Extra cubes come off first (from the top), then missing ones go back
    (from the bottom), so the players are guided one fix at a time.
    """
    expect = expected_towers(state)
    for p in PLAYERS:
        extra = view.towers[p.index] - expect[p.index]
        if extra:
            return p, max(extra, key=lambda c: (c[2], c[1], c[0])), True
    for p in PLAYERS:
        missing = expect[p.index] - view.towers[p.index]
        if missing:
            return p, min(missing, key=lambda c: (c[2], c[1], c[0])), False
    return None


def takeback_of(history: Sequence[TowersState], actions: Sequence[Action],
                towers: tuple[frozenset[Cell], frozenset[Cell]]) -> Takeback | None:
    """The towers as they were before the last placements (at most ``TAKEBACK_WINDOW``).

    Older positions never count, so a knocked-over tower cannot undo a game.
    """
    n = len(actions)
    for k in range(n - 1, max(-1, n - 1 - TAKEBACK_WINDOW), -1):
        undone = actions[k:]
        if all(isinstance(a, Place) for a in undone) and expected_towers(history[k]) == towers:
            return Takeback(k, frozenset(history[i].actor(a) for i, a in enumerate(undone, k)))
    return None


def zone_actions(state: TowersState, zone: Counter[Colour | str]) -> tuple[Action, ...]:
    """While choosing: the zone pads' colours as blocks chosen from or put back to the pile."""
    if sum(zone.values()) > 2:
        raise InferenceError("only two blocks go in the building zone: put the extra one back")
    want: dict[Colour | str, list[str]] = {}
    for b in state.zone:
        want.setdefault(state.block(b).colour, []).append(b)
    actions: list[Action] = []
    for colour, ids in want.items():
        actions += [PutBack(b) for b in ids[zone.get(colour, 0):]]
    for colour, n in zone.items():
        for _ in range(n - len(want.get(colour, []))):
            # which block of the colour it is the pads cannot tell: the set's first in the
            # pile (not the order blocks went back in), as the simulated hands fetch
            ordered = state.game.block_set.of_colour(colour) if isinstance(colour, Colour) else ()
            spare = [b.id for b in ordered if b.id in state.pile
                     and all(getattr(a, "block", None) != b.id for a in actions)]
            if not spare and colour is Colour.BLACK:
                raise BlockNotAvailableError(
                    "a black block is never chosen: a flat tower earns the other player "
                    "one; put it back with the black blocks")
            if not spare:
                raise BlockNotAvailableError(
                    f"there is no {colour} block left in the pile: put it back and choose "
                    "another colour")
            actions.append(Choose(spare[0]))
    return tuple(actions)


def read_view(history: Sequence[TowersState], actions: Sequence[Action], view: TowersView,
              *, clear_zone: bool = False) -> Reading:
    """What a settled view of the table means after ``actions`` (``history`` their states).

    The actions it shows (none: the table is as the game says), a takeback
    of the last placements, or placements to choose among; anything else
    raises an ``ObeliskError`` saying what is wrong and how to put it right.
    ``clear_zone``: a lost turn's blocks are still to go back to the pile.
    """
    pos = history[-1]
    zone = _zone_on_pads(view, clear_zone)
    expect = expected_towers(pos)
    added = [view.towers[i] - expect[i] for i in (0, 1)]
    removed = [expect[i] - view.towers[i] for i in (0, 1)]
    if any(removed):
        return Reading(takeback=_taken_off(history, actions, view, removed))
    if not any(added):
        return Reading(actions=_zone_changed(pos, zone))
    if pos.phase is Phase.CHOOSE:
        on = " and ".join(f"tower {p.value}" for p in PLAYERS if added[p.index])
        raise WrongPhaseError(
            f"nothing goes on a tower yet: {pos.active} first puts two blocks from the pile "
            f"in the building zone; take the new block off {on}")
    return _placed(pos, view, added, zone)


def _zone_on_pads(view: TowersView, clear_zone: bool) -> Counter[Colour | str]:
    """The zone pads' colours, once nothing but blocks is on them (and, when a lost turn's
    blocks are to go back, nothing at all)."""
    pads = [i + 1 for i, c in enumerate(view.zone) if c == UNKNOWN]
    if pads:
        raise InferenceError(
            f"zone pad {pads[0]} weighs something that is not a block: take it off")
    zone = view.zone_colours()
    if clear_zone and zone:
        raise PutBackFirst(LOST_TURN)
    return zone


def _taken_off(history: Sequence[TowersState], actions: Sequence[Action], view: TowersView,
               removed: list[frozenset[Cell]]) -> Takeback:
    """Cubes gone from a tower: a takeback of the last placements, or a block to put back."""
    takeback = takeback_of(history, actions, view.towers)
    if takeback is not None:
        return takeback
    t = 0 if removed[0] else 1
    raise InferenceError(f"cubes are missing from tower {'AB'[t]} "
                         f"({cells_text(removed[t])}): put the block back")


def _zone_changed(pos: TowersState, zone: Counter[Colour | str]) -> tuple[Action, ...]:
    """The towers as the game says: while choosing, the zone pads are the choice; later
    they must be as the game has them."""
    if pos.phase is Phase.CHOOSE:
        return zone_actions(pos, zone)
    if zone_fits(pos, zone):
        return ()
    raise InferenceError(
        "the zone pads do not match the game: put the blocks back as they were")


def _placed(pos: TowersState, view: TowersView, added: list[frozenset[Cell]],
            zone: Counter[Colour | str]) -> Reading:
    """The placements the new cubes show, the passive player's first while taking; a
    choice when one of them fits more than one way."""
    found: list[Action] = []
    state = pos
    order = (pos.passive, pos.active) if pos.phase is Phase.TAKE else PLAYERS
    for player in order:
        cells = added[player.index]
        if not cells:
            continue
        try:
            if handed_over(state, view) and player is state.active:
                placed: tuple[Action, ...] = handover_placement(state, cells)
            else:
                placed = (find_placement(state, player, cells, taken_colour(state, view)),)
        except AmbiguousPlacementError as exc:
            fits = tuple(c if isinstance(c, tuple) else (c,) for c in exc.candidates)
            return Reading(choices=tuple((*found, *c) for c in fits), chooser=player)
        for action in placed:
            state = state.apply_action(action)
        found += placed
    if not zone_fits(state, zone):
        raise InferenceError(
            "the zone pads do not match the game: put the blocks back as they were")
    return Reading(actions=tuple(found))


def over_the_top_fits(state: TowersState, player: Player,
                      view: TowersView | None) -> tuple[tuple[Action, ...], ...]:
    """What ``player`` may have placed wholly above the rods, saying so with their button.

    During the take with both pads empty, the passive player has handed the
    active player a block but nothing shows which: each take is a candidate.
    Raises the first reason why nothing fits.
    """
    takes: list[tuple[Action, ...]] = [()]
    if handed_over(state, view) and player is state.active:
        takes = [(Take(kept),) for kept in dict.fromkeys(state.zone)]
    fits: list[tuple[Action, ...]] = []
    errors: list[ObeliskError] = []
    for before in takes:
        try:
            after = state.apply_action(before[0]) if before else state
            fits += [(*before, place) for place in over_the_top_placements(
                after, player, taken_colour(after, view))]
        except ObeliskError as exc:
            errors.append(exc)
    if not fits:
        raise errors[0]
    return tuple(fits)
