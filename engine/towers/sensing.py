"""What a towers placement must have been, from what the sensors saw.

Two kinds of tower sensing are supported:

- a switch per cube position (9 rods x 9 levels): the table knows exactly
  which positions became occupied;
- a height per rod only: the table knows each rod's top level.

Either way the answer is worked out against the placements the rules allow
right now, never against a running tally of events. Cubes above level 9 are
beyond the sensors, so a block that went over the top is recognised by the
part of it that is still on the rods.

The whole reading of a settled table is here too, pure: a ``TowersView``
(the cubes the rods see and the colours the zone pads weigh) is what the
accepted game should look like (``expected_towers``, ``zone_fits``) or
actions (``read_view``), a takeback of the last placements (``Takeback``),
placements for a player to choose among (``Choice``), or an error saying
what is wrong. The firmware only turns a hardware snapshot into the view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

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
from engine.players import PLAYERS, Player
from engine.towers.actions import Action, Choose, Place, PutBack, Take
from engine.towers.blocks import WIDTH, Cell, Colour, is_connected, normalize
from engine.towers.game import TowersState
from engine.towers.tower import (
    LEVELS,
    RODS,
    cell_name,
    cells_text,
    check_placement,
    resting_placements,
    rod_name,
)
from engine.towers.turns import Phase


def _visible(cells: frozenset[Cell]) -> frozenset[Cell]:
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


def _future(state: TowersState, place: Place) -> tuple:
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
    fits: dict[tuple, Place] = {}
    for place in _candidates(state, tower, colour):
        if _visible(place.cells) == appeared:
            fits.setdefault(_future(state, place), place)
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
    allowed = " or ".join(f"the {state.block(b)}" for b in available)
    for block in state.game.block_set.blocks:
        if shape in block.orientations:
            return BlockNotAvailableError(
                f"that is the shape of the {block.colour} block {block.id}, which is "
                f"{state.where_is(block.id)}; {tower}'s tower takes {allowed} now"
            )
    return UnknownShapeError(
        f"no block of the set has the shape that appeared on {tower}'s tower "
        f"({len(appeared)} cube(s): {where}); {tower}'s tower takes {allowed} now"
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
    fits: dict[tuple, Place] = {}
    for place in _candidates(state, tower, colour):
        if not _visible(place.cells):
            fits.setdefault(_future(state, place), place)
    if not fits:
        raise NothingPlacedError(
            f"no block {tower} may place now would land wholly above the rods; "
            "place it on the tower"
        )
    return tuple(fits.values())


@dataclass(frozen=True)
class HeightMatch:
    """Placements that produce a rod height map.

    ``equivalent`` is True when they all have the same future (see
    ``_future``): they differ at most in hidden gaps, or in where the cubes
    above level 9 went. Then the table need not ask which one it was.
    """

    candidates: tuple[Place, ...]
    equivalent: bool


def placements_for_heights(
    state: TowersState, tower: Player, heights: Sequence[int]
) -> HeightMatch:
    """Every legal placement after which ``tower``'s rods read ``heights``.

    ``heights`` lists the nine rods a1 b1 c1 a2 ... c3, each 0 to 9 (a rod
    sensor cannot see above level 9).
    """
    seen = tuple(heights)
    if len(seen) != RODS or not all(type(h) is int and 0 <= h <= LEVELS for h in seen):
        raise InferenceError(
            f"a height map lists {RODS} rods, each 0 to {LEVELS} cubes high; got {list(seen)}"
        )
    before = state.tower(tower)
    now = tuple(min(h, LEVELS) for h in before.heights)
    lower = [i for i in range(RODS) if seen[i] < now[i]]
    if lower:
        i = lower[0]
        raise InferenceError(
            f"rod {rod_name(i % WIDTH, i // WIDTH)} on {tower}'s tower went down from "
            f"{now[i]} to {seen[i]}: a block was lifted off, which is not a placement"
        )
    if seen == now:
        raise NothingPlacedError(f"no rod of {tower}'s tower got higher")
    matches = tuple(
        place for place in _candidates(state, tower)
        if tuple(min(h, LEVELS) for h in before.heights_after(place.cells)) == seen
    )
    if not matches:
        raise UnknownShapeError(
            f"no block that may go on {tower}'s tower now makes those rod heights"
        )
    futures = {_future(state, place) for place in matches}
    return HeightMatch(candidates=matches, equivalent=len(futures) == 1)


# ----------------------------------------------------------------------------- the table

UNKNOWN = "unknown"
"""A zone pad that weighs something no block of the set weighs."""

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

    def zone_colours(self) -> Counter:
        return Counter(c for c in self.zone if c is not None)


@dataclass(frozen=True)
class Takeback:
    """The towers read as they were ``to`` actions in: the last placements came off.

    Only the players who placed them (``owners``) may confirm the takeback.
    """

    to: int
    owners: frozenset[Player]


@dataclass(frozen=True)
class Choice:
    """More than one action fits what the sensors read: ``chooser`` says which."""

    chooser: Player
    candidates: tuple[tuple[Action, ...], ...]


Reading = tuple[Action, ...] | Takeback | Choice


def expected_towers(state: TowersState) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The cube positions the rod switches should see for an accepted state."""
    a, b = (_visible(state.tower(p).occupied) for p in PLAYERS)
    return (a, b)


def zone_fits(state: TowersState, zone: Counter) -> bool:
    """Can these colours be on the zone pads in this state?

    While choosing, the pads hold exactly the zone. Once taken, blocks are
    in hands or still on the pads: any part of what is still to be placed.
    """
    colours = Counter(state.block(b).colour for b in state.zone)
    if state.phase is Phase.CHOOSE:
        return zone == colours
    if state.phase is Phase.TAKE:
        return not zone - colours
    if state.phase is Phase.PLACE:
        held = Counter(state.block(h).colour for h in state.hands if h is not None)
        return not zone - held
    return not zone


def taken_colour(state: TowersState, view: TowersView | None) -> Colour | None:
    """While taking: the colour of the one zone block no longer on its pad."""
    if state.phase is not Phase.TAKE or view is None:
        return None
    taken = Counter(state.block(b).colour for b in state.zone) - view.zone_colours()
    return next(iter(taken)) if len(taken) == 1 else None


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


def zone_actions(state: TowersState, zone: Counter) -> tuple[Action, ...]:
    """While choosing: the zone pads' colours as blocks chosen from or put back to the pile."""
    if sum(zone.values()) > 2:
        raise InferenceError("only two blocks go in the building zone: put the extra one back")
    want: dict[Colour, list[str]] = {}
    for b in state.zone:
        want.setdefault(state.block(b).colour, []).append(b)
    actions: list[Action] = []
    for colour, ids in want.items():
        actions += [PutBack(b) for b in ids[zone.get(colour, 0):]]
    for colour, n in zone.items():
        for _ in range(n - len(want.get(colour, []))):
            spare = [b for b in state.pile if state.block(b).colour is colour
                     and all(getattr(a, "block", None) != b for a in actions)]
            if not spare:
                raise BlockNotAvailableError(
                    f"there is no {colour} block left in the pile to choose")
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
        return _taken_off(history, actions, view, removed)
    if not any(added):
        return _zone_changed(pos, zone)
    if pos.phase is Phase.CHOOSE:
        raise WrongPhaseError(
            "wait: the passive player takes a block from the zone before anyone places")
    return _placed(pos, view, added, zone)


def _zone_on_pads(view: TowersView, clear_zone: bool) -> Counter:
    """The zone pads' colours, once nothing but blocks is on them (and, when a lost turn's
    blocks are to go back, nothing at all)."""
    pads = [i + 1 for i, c in enumerate(view.zone) if c == UNKNOWN]
    if pads:
        raise InferenceError(
            f"zone pad {pads[0]} weighs something that is not a block: take it off")
    zone = view.zone_colours()
    if clear_zone and zone:
        raise InferenceError("the hourglass ran out: put the zone blocks back in the pile")
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


def _zone_changed(pos: TowersState, zone: Counter) -> tuple[Action, ...]:
    """The towers as the game says: while choosing, the zone pads are the choice; later
    they must be as the game has them."""
    if pos.phase is Phase.CHOOSE:
        return zone_actions(pos, zone)
    if zone_fits(pos, zone):
        return ()
    raise InferenceError(
        "the zone pads do not match the game: put the blocks back as they were")


def _placed(pos: TowersState, view: TowersView, added: list[frozenset[Cell]],
            zone: Counter) -> tuple[Action, ...] | Choice:
    """The placements the new cubes show, the passive player's first while taking; a
    Choice when one of them fits more than one way."""
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
            return Choice(player, tuple((*found, *c) for c in fits))
        for action in placed:
            state = state.apply_action(action)
        found += placed
    if not zone_fits(state, zone):
        raise InferenceError(
            "the zone pads do not match the game: put the blocks back as they were")
    return tuple(found)


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
