"""A towers game's turns, step by step: the phases, the actions each allows, what they do.

A turn: the active player puts two blocks from the common pile into the
building zone within the hourglass time; the passive player takes one; the
active player gets the other; each places on their own tower, in either
order. The passive player chooses first: until they have taken, nothing
goes on the active player's tower. The passive player placing a zone block
on their own tower also counts as the take, because that is all the
table's sensors can see of it. The table weighs the blocks
in the zone, which tells their colour but not their shape: a block placed
from the zone may turn out to be another block of the same colour from the
pile, and the record is corrected to the block that really was there. After the turn, a block over
level 9 ends the game; otherwise a flat tower earns a black block for the
opponent's tower. The game also ends when the pile cannot supply two blocks.

``P.legal_actions``, ``actor`` and ``apply_action`` are these
functions; ``apply_action`` returns a new state or raises a specific
``IllegalActionError``, leaving the old state as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import Field, replace
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar

from engine.errors import (
    BlockNotAvailableError,
    GameOverError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.players import PLAYERS, Player
from engine.towers.actions import Action, Choose, Decline, Place, PutBack, Take, Timeout, Toss
from engine.towers.blocks import Block, BlockSet, Colour, one_per_kind
from engine.towers.tower import PlacedBlock, Tower, check_placement, resting_placements


class Phase(Enum):
    """Where in the turn the game stands."""

    TOSS = "toss"  # chance: a coin decides who is active first
    CHOOSE = "choose"  # the active player fills the building zone
    TAKE = "take"  # the passive player picks one of the two zone blocks
    PLACE = "place"  # both players place their block, in either order
    BONUS = "bonus"  # flat towers earn a black block for the opponent's tower
    OVER = "over"


class EndReason(Enum):
    OVER_THE_TOP = "over_the_top"
    BLACK_OVER_THE_TOP = "black_over_the_top"
    PILE_EMPTY = "pile_empty"

    @property
    def said(self) -> str:
        """How the game ended, in the words of the rules sheet (``engine.towers.rules``)."""
        return {"over_the_top": "over the top",
                "black_over_the_top": "a black block over the top",
                "pile_empty": "too few blocks in the pile"}[self.value]


class _Rules(Protocol):
    """What these functions need of the game: its block set."""

    @property
    def block_set(self) -> BlockSet: ...


class Position(Protocol):
    """A towers position as these functions see it: ``engine.towers.game.P``,
    whose methods call them, described here rather than imported, so that the two
    modules form no circle (tests/project/test_layers.py counts a type checker's imports
    too). It is a frozen dataclass: a step returns ``replace(pos, ...)``, a position of
    the same class."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def game(self) -> _Rules: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def active(self) -> Player: ...
    @property
    def passive(self) -> Player: ...
    @property
    def turn(self) -> int: ...
    @property
    def towers(self) -> tuple[Tower, Tower]: ...
    @property
    def pile(self) -> tuple[str, ...]: ...
    @property
    def blacks(self) -> tuple[str, ...]: ...
    @property
    def zone(self) -> tuple[str, ...]: ...
    @property
    def hands(self) -> tuple[str | None, str | None]: ...
    @property
    def bonus(self) -> tuple[Player, ...]: ...
    @property
    def penalties(self) -> tuple[int, int]: ...
    @property
    def removed(self) -> tuple[str, ...]: ...

    def tower(self, player: Player) -> Tower: ...

    def block(self, block_id: str) -> Block: ...

    def to_move(self) -> tuple[Player, ...]: ...

    def actor(self, action: Action) -> Player: ...

    def where_is(self, block_id: str) -> str: ...

    def describe_phase(self) -> str: ...


P = TypeVar("P", bound=Position)
"""The position's own class: a step from a ``P`` is a ``P``."""


def legal_actions(pos: Position, player: Player | None = None) -> list[Action]:
    """Every distinct action the rules allow now, optionally for one player.

    Interchangeable blocks (same colour, same shape) are offered once.
    ``Timeout`` is never listed: the clock sends it, not a player.
    """
    actions = list(_legal_actions(pos))
    if player is None:
        return actions
    return [a for a in actions if pos.actor(a) is player]


def _legal_actions(pos: Position) -> Iterator[Action]:
    block_set = pos.game.block_set
    if pos.phase is Phase.TOSS:
        yield from (Toss(p) for p in PLAYERS)
    elif pos.phase is Phase.CHOOSE:
        yield from (Choose(b) for b in one_per_kind(block_set, pos.pile))
        yield from (PutBack(b) for b in one_per_kind(block_set, pos.zone))
    elif pos.phase is Phase.TAKE:
        yield from (Take(b) for b in one_per_kind(block_set, pos.zone))
    elif pos.phase is Phase.PLACE:
        for p in pos.to_move():
            hand = pos.hands[p.index]
            assert hand is not None
            for cells in resting_placements(pos.tower(p), pos.block(hand)):
                yield Place(p, hand, cells)
    elif pos.phase is Phase.BONUS:
        for p in pos.bonus:
            black = pos.blacks[0]
            for cells in resting_placements(pos.tower(p.other), pos.block(black)):
                yield Place(p.other, black, cells)
            yield Decline(p)


def actor(pos: Position, action: Action) -> Player:
    """Who performs an action: needed to tell a player it is not their move."""
    if isinstance(action, Toss):
        return action.first
    if isinstance(action, Choose | PutBack | Timeout):
        return pos.active
    if isinstance(action, Take):
        return pos.passive
    if isinstance(action, Decline):
        return action.player
    if isinstance(action, Place):
        black = action.block in pos.game.block_set and \
            pos.block(action.block).colour is Colour.BLACK
        return action.tower.other if black else action.tower
    raise TypeError(f"not a towers action: {action!r}")


def apply_action(pos: P, action: Action) -> P:
    """The state after ``action``, or a specific error naming what is wrong."""
    if pos.phase is Phase.OVER:
        raise GameOverError("the game is over; start a new game to play again")
    if isinstance(action, Toss):
        _expect(pos, Phase.TOSS, "the coin is tossed once, before the first turn")
        return replace(pos, phase=Phase.CHOOSE, active=action.first)
    if pos.phase is Phase.TOSS:
        raise WrongPhaseError("the coin toss comes first: it says who is active")
    if isinstance(action, Choose):
        return _choose(pos, action.block)
    if isinstance(action, PutBack):
        return _put_back(pos, action.block)
    if isinstance(action, Timeout):
        return _timeout(pos)
    if isinstance(action, Take):
        return _take(pos, action.block)
    if isinstance(action, Place):
        return _place(pos, action)
    if isinstance(action, Decline):
        return _decline(pos, action.player)
    raise TypeError(f"not a towers action: {action!r}")


def _choose(pos: P, block_id: str) -> P:
    _expect(pos, Phase.CHOOSE, "blocks go into the building zone only while the "
            "active player is choosing")
    if block_id not in pos.pile:
        if block_id in pos.blacks:
            raise BlockNotAvailableError(
                f"black blocks stay out of the common pile; {_name(pos, block_id)} only comes "
                "into play when a tower is flat"
            )
        raise BlockNotAvailableError(
            f"{_name(pos, block_id)} cannot be chosen: it is {pos.where_is(block_id)}"
        )
    pile = list(pos.pile)
    pile.remove(block_id)
    zone = (*pos.zone, block_id)
    phase = Phase.TAKE if len(zone) == 2 else Phase.CHOOSE
    return replace(pos, pile=tuple(pile), zone=zone, phase=phase)


def _put_back(pos: P, block_id: str) -> P:
    _expect(pos, Phase.CHOOSE, "once two blocks are in the building zone only the "
            "passive player may handle them")
    if block_id not in pos.zone:
        raise BlockNotAvailableError(
            f"{_name(pos, block_id)} is not in the building zone: it is "
            f"{pos.where_is(block_id)}"
        )
    zone = list(pos.zone)
    zone.remove(block_id)
    return replace(pos, zone=tuple(zone), pile=(*pos.pile, block_id))


def _timeout(pos: P) -> P:
    _expect(pos, Phase.CHOOSE, "only the active player's choice is timed")
    lost = replace(pos, pile=pos.pile + pos.zone, zone=())
    return _next_turn(lost)


def _take(pos: P, block_id: str) -> P:
    _expect(pos, Phase.TAKE, "the passive player takes a block once two are in the "
            "building zone")
    return _deal(pos, pos.passive, block_id)


def _identify(pos: P, block_id: str,
              held: tuple[str, ...]) -> tuple[P, str | None]:
    """If ``block_id`` is a pile block of the colour of one of ``held``, swap them.

    Returns the corrected state and the held block it replaced (or None).
    """
    if block_id in held or block_id not in pos.pile:
        return pos, None
    colour = pos.block(block_id).colour
    for old in held:
        if pos.block(old).colour is colour:
            pile = tuple(old if b == block_id else b for b in pos.pile)
            zone = tuple(block_id if b == old else b for b in pos.zone)
            hands = tuple(block_id if b == old else b for b in pos.hands)
            return replace(pos, pile=pile, zone=zone, hands=(hands[0], hands[1])), old
    return pos, None


def _deal(pos: P, player: Player, block_id: str) -> P:
    """``player`` gets ``block_id`` from the zone, the other player the other block."""
    state, _ = _identify(pos, block_id, pos.zone)
    if state is not pos:
        return _deal(state, player, block_id)
    if block_id not in pos.zone:
        raise BlockNotAvailableError(
            f"{_name(pos, block_id)} is not in the building zone: it is "
            f"{pos.where_is(block_id)}"
        )
    rest = list(pos.zone)
    rest.remove(block_id)
    hands: list[str | None] = [None, None]
    hands[player.index] = block_id
    hands[player.other.index] = rest[0]
    return replace(pos, zone=(), hands=(hands[0], hands[1]), phase=Phase.PLACE)


def _place(pos: P, action: Place) -> P:
    state = pos
    if pos.phase is Phase.TAKE:
        if action.tower is pos.active:
            raise NotYourTurnError(
                f"{pos.passive} chooses first: no block goes on {pos.active}'s tower "
                f"until {pos.passive} has taken one of the two in the building zone")
        state = _deal(pos, action.tower, action.block)
    if state.phase is Phase.PLACE:
        return _place_own(state, action)
    if state.phase is Phase.BONUS:
        return _place_black(state, action)
    raise WrongPhaseError(
        f"no block can be placed on a tower now: {pos.describe_phase()}"
    )


def _place_own(pos: P, action: Place) -> P:
    p = action.tower
    hand = pos.hands[p.index]
    if hand is None:
        raise NotYourTurnError(f"{p} has already placed a block this turn")
    state, old = _identify(pos, action.block, (hand,))
    if old is not None:
        return _place_own(state, action)
    if action.block != hand:
        other = _name(pos, action.block)
        if other == f"the {pos.block(hand)}":  # a block of its colour, of another shape
            other = f"a {pos.block(hand)} of another shape"
        raise BlockNotAvailableError(f"{p} must place the {pos.block(hand)} now, not {other}")
    block = pos.block(hand)
    check_placement(pos.tower(p), block, action.cells)
    tower = pos.tower(p).add(PlacedBlock(block, action.cells, p))
    hands = list(pos.hands)
    hands[p.index] = None
    state = replace(pos, towers=_with(pos.towers, p, tower), hands=(hands[0], hands[1]))
    if any(h is not None for h in state.hands):
        return state
    return _end_turn(state)


def _place_black(pos: P, action: Place) -> P:
    owner = action.tower
    earner = owner.other
    if earner not in pos.bonus:
        if owner in pos.bonus:
            raise NotYourTurnError(
                f"the black block goes on the opponent's tower: {owner} earned it and "
                f"places it on {earner}'s tower"
            )
        raise NotYourTurnError(f"{earner} has no flat bonus to use")
    if action.block not in pos.blacks:
        raise BlockNotAvailableError(
            f"only a black block may be placed for a flat bonus, and "
            f"{_name(pos, action.block)} is {pos.where_is(action.block)}"
        )
    block = pos.block(action.block)
    check_placement(pos.tower(owner), block, action.cells)
    tower = pos.tower(owner).add(PlacedBlock(block, action.cells, earner))
    blacks = tuple(b for b in pos.blacks if b != action.block)
    bonus = tuple(p for p in pos.bonus if p is not earner) if blacks else ()
    state = replace(pos, towers=_with(pos.towers, owner, tower), blacks=blacks, bonus=bonus)
    if tower.overflow:
        return _over_the_top(state, EndReason.BLACK_OVER_THE_TOP)
    return state if state.bonus else _next_turn(state)


def _decline(pos: P, player: Player) -> P:
    _expect(pos, Phase.BONUS, "there is no black block to decline now")
    if player not in pos.bonus:
        raise NotYourTurnError(f"{player} has no flat bonus to decline")
    bonus = tuple(p for p in pos.bonus if p is not player)
    state = replace(pos, bonus=bonus)
    return state if bonus else _next_turn(state)


def _end_turn(pos: P) -> P:
    if any(t.overflow for t in pos.towers):
        return _over_the_top(pos, EndReason.OVER_THE_TOP)
    flat = tuple(p for p in PLAYERS if pos.tower(p).is_flat) if pos.blacks else ()
    if flat:
        return replace(pos, phase=Phase.BONUS, bonus=flat)
    return _next_turn(pos)


def _over_the_top(pos: P, reason: EndReason) -> P:
    """End the game: over-the-top blocks leave unscored, each cube over costs a point."""
    towers = list(pos.towers)
    penalties = list(pos.penalties)
    removed = list(pos.removed)
    over = []
    for p in PLAYERS:
        for pb in pos.tower(p).blocks:
            if pb.overflow:
                towers[p.index] = towers[p.index].remove(pb.block.id)
                penalties[p.index] += pb.overflow
                removed.append(pb.block.id)
                over.append(p)
    return replace(
        pos, towers=(towers[0], towers[1]), penalties=(penalties[0], penalties[1]),
        removed=tuple(removed), over_the_top=tuple(over), bonus=(),
        phase=Phase.OVER, end=reason,
    )


def _next_turn(pos: P) -> P:
    state = replace(
        pos, phase=Phase.CHOOSE, active=pos.passive, turn=pos.turn + 1,
        zone=(), hands=(None, None), bonus=(),
    )
    if len(state.pile) < 2:
        return replace(state, phase=Phase.OVER, end=EndReason.PILE_EMPTY)
    return state


def _expect(pos: Position, phase: Phase, why: str) -> None:
    if pos.phase is not phase:
        raise WrongPhaseError(f"{why}; now {pos.describe_phase()}")


def _name(pos: Position, block_id: str) -> str:
    if block_id in pos.game.block_set:
        return f"the {pos.block(block_id)}"
    return f"block {block_id!r}"


def _with(towers: tuple[Tower, Tower], player: Player, tower: Tower) -> tuple[Tower, Tower]:
    return (tower, towers[1]) if player is Player.A else (towers[0], tower)
