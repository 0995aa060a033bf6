"""What a towers placement must have been, from what the sensors saw.

Two kinds of tower sensing are supported:

- a switch per cube position (9 rods x 9 levels): the table knows exactly
  which positions became occupied;
- a height per rod only: the table knows each rod's top level.

Either way the answer is worked out against the placements the rules allow
right now, never against a running tally of events. Cubes above level 9 are
beyond the sensors, so a block that went over the top is recognised by the
part of it that is still on the rods. ``engine.towers.sensing`` reads the
whole table with these.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.core import counted
from engine.errors import (
    AmbiguousPlacementError,
    BlockNotAvailableError,
    InferenceError,
    NothingPlacedError,
    NotOneBlockError,
    NotYourTurnError,
    ObeliskError,
    PlacementError,
    UnknownShapeError,
    WrongPhaseError,
)
from engine.players import Player
from engine.towers.actions import Place, Take
from engine.towers.blocks import Cell, Colour, is_connected, normalize
from engine.towers.game import TowersState
from engine.towers.tower import (
    LEVELS,
    cell_name,
    cells_text,
    check_placement,
    resting_placements,
)
from engine.towers.turns import Phase


def visible(cells: frozenset[Cell]) -> frozenset[Cell]:
    """The cube positions the rod switches can see: those up to level 9."""
    return frozenset(c for c in cells if c[2] < LEVELS)


def _blocks_for(state: TowersState, tower: Player) -> list[str]:
    """The blocks that may go on ``tower`` now, one per kind.

    A zone or hand block is known by colour only, so every pile block of
    that colour may be the one (the engine corrects the record).
    """
    held = state.available_blocks(tower)
    if state.phase is Phase.TAKE and tower is state.active:
        raise NotYourTurnError(
            f"{state.passive} chooses first: nothing goes on {tower}'s tower until "
            f"{state.passive} has taken one of the two blocks in the building zone")
    if not held:
        raise WrongPhaseError(
            f"no block may go on {tower}'s tower now: {state.describe_phase()}"
        )
    blocks = list(held)
    if state.phase is not Phase.BONUS:
        colours = {state.block(b).colour for b in held}
        kinds = {state.block(b).kind for b in blocks}
        for b in state.pile:
            block = state.block(b)
            if block.colour in colours and block.kind not in kinds:
                kinds.add(block.kind)
                blocks.append(b)
    return blocks


def _candidates(state: TowersState, tower: Player,
                colour: Colour | None = None) -> list[Place]:
    """Every placement the rules allow on ``tower`` now (of one colour, if given)."""
    blocks = [b for b in _blocks_for(state, tower)
              if colour is None or state.block(b).colour is colour]
    return [
        Place(tower, block_id, cells)
        for block_id in blocks
        for cells in resting_placements(state.tower(tower), state.block(block_id))
    ]


def future(state: TowersState, place: Place) -> Hashable:
    """What a placement means for the rest of the game.

    Two placements with the same future need no question to the players:
    the same kind of block and the same rod heights afterwards (they differ
    only in hidden gaps), or, over the top, the same number of cubes above
    level 9 (the game ends with that turn, the block comes off, and only that
    count is scored). A passive player's placement during the take is also
    their take, so over the top it must also leave the active player the
    same kind of block: that block is still to be placed.
    """
    over = sum(1 for c in place.cells if c[2] >= LEVELS)
    if over and state.phase is Phase.TAKE:
        after = state.apply_action(place)
        left = after.hands[state.active.index]
        return ("over", over, None if left is None else after.block(left).kind)
    if over:
        return ("over", over)
    kind = state.block(place.block).kind
    return (kind, "heights", state.tower(place.tower).heights_after(place.cells))


def find_placement(state: TowersState, tower: Player, appeared: frozenset[Cell],
                   colour: Colour | None = None) -> Place:
    """The one legal placement that fills exactly the cube positions that appeared.

    ``colour`` narrows the candidates when the table knows it (the zone pad
    the block was taken from).

    Raises ``NotOneBlockError``, ``BlockNotAvailableError``, ``UnknownShapeError``
    or a ``NotRestingError`` saying why the cubes cannot be a legal placement,
    and ``AmbiguousPlacementError`` (with the candidates) when the part of an
    over-the-top block still on the rods fits more than one placement.
    """
    if not appeared:
        raise NothingPlacedError(f"no new cube on {tower}'s tower")
    occupied = state.tower(tower).occupied
    clash = sorted(appeared & occupied)
    if clash:
        raise InferenceError(
            f"{cell_name(clash[0])} on {tower}'s tower was already occupied; "
            "the sensors disagree with the table"
        )
    fits: dict[Hashable, Place] = {}
    for place in _candidates(state, tower, colour):
        if visible(place.cells) == appeared:
            fits.setdefault(future(state, place), place)
    if len(fits) == 1:
        return next(iter(fits.values()))
    if fits:
        choices = tuple(fits.values())
        raise AmbiguousPlacementError(
            f"{len(choices)} different placements on {tower}'s tower fit what the sensors "
            "see; say which block it was",
            choices,
        )
    raise _why_not(state, tower, appeared)


def handover_placement(state: TowersState, appeared: frozenset[Cell]) -> tuple[Take, Place]:
    """During the take, both zone pads empty, a block on the active player's tower.

    Emptying both pads is the passive player choosing: they took one block
    and handed the other to the active player, who placed it. Its shape says
    which it was, so the take is the other one. Errors as ``find_placement``
    (the first for the zone block of the volume that appeared).
    """
    if state.phase is not Phase.TAKE:
        raise WrongPhaseError(f"nothing was handed over: {state.describe_phase()}")
    by_fit = sorted(state.zone, key=lambda b: state.block(b).colour.volume != len(appeared))
    errors: list[ObeliskError] = []
    for given in by_fit:
        take = Take(next(b for b in state.zone if b != given))
        try:
            return take, find_placement(state.apply_action(take), state.active, appeared)
        except AmbiguousPlacementError as exc:
            raise AmbiguousPlacementError(str(exc), tuple(
                (take, place) for place in exc.candidates)) from None
        except ObeliskError as exc:
            errors.append(exc)
    raise errors[0]


def _why_not(state: TowersState, tower: Player, appeared: frozenset[Cell]) -> Exception:
    where = cells_text(appeared)
    if not is_connected(appeared):
        return NotOneBlockError(
            f"the new cubes on {tower}'s tower ({where}) do not touch each other, "
            "so they are not one block"
        )
    shape = normalize(appeared)
    available = state.available_blocks(tower)
    for block_id in _blocks_for(state, tower):
        block = state.block(block_id)
        if shape in block.orientations:
            try:
                check_placement(state.tower(tower), block, appeared)
            except PlacementError as exc:
                return exc
    allowed = " or ".join(dict.fromkeys(f"the {state.block(b)}" for b in available))
    blocks = state.game.block_set.blocks
    for block in blocks:
        if shape in block.orientations:  # the blocks of its kind: where they are
            places = dict.fromkeys(state.where_is(b.id) for b in blocks if b.kind == block.kind)
            return BlockNotAvailableError(
                f"that is the shape of a {block} {' or '.join(places)}; {tower}'s tower "
                f"takes {allowed} now"
            )
    return UnknownShapeError(
        f"no block of the set has the shape that appeared on {tower}'s tower "
        f"({counted(len(appeared), 'cube')}: {where}); {tower}'s tower takes {allowed} now"
    )


def over_the_top_placements(state: TowersState, tower: Player,
                            colour: Colour | None = None) -> tuple[Place, ...]:
    """The placements of a block that landed wholly above the rods, one per future.

    No rod switch sees such a block, so the player says so with their button.
    ``colour`` narrows the candidates when the table knows which zone block
    was taken (from the zone pads). Only the number of cubes over the top
    matters then, so different blocks with the same count are equivalent;
    more than one left means the player must say which it was.
    """
    fits: dict[Hashable, Place] = {}
    for place in _candidates(state, tower, colour):
        if not visible(place.cells):
            fits.setdefault(future(state, place), place)
    if not fits:
        raise NothingPlacedError(
            f"no block {tower} may place now would land wholly above the rods; "
            "place it on the tower"
        )
    return tuple(fits.values())
