"""The towers game: turn flow, flats and black blocks, the end and the score.

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

States are immutable: ``apply_action`` returns a new state or raises a
specific ``IllegalActionError``, leaving the old state as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import ClassVar

from engine.core import Outcome, returns_of
from engine.errors import (
    BlockNotAvailableError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.players import PLAYERS, Player
from engine.towers.actions import Action, Choose, Decline, Place, PutBack, Take, Timeout, Toss
from engine.towers.blocks import WIDTH, Block, BlockSet, Cell, Colour
from engine.towers.tower import (
    LEVELS,
    PlacedBlock,
    Tower,
    check_placement,
    resting_placements,
    rod_name,
)


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


@dataclass(frozen=True)
class TowersOptions:
    """Table options for towers. The hourglass length is for the firmware's clock."""

    hourglass_s: float = 60.0
    sudden_death: bool = False

    def __post_init__(self) -> None:
        low, high = HOURGLASS_RANGE_S
        if not low <= self.hourglass_s <= high:  # also refuses nan and inf
            raise ValueError(f"the hourglass runs {low:g} to {high:g} seconds, not "
                             f"{self.hourglass_s:g}")


HOURGLASS_RANGE_S = (10.0, 600.0)
"""Shorter turns leave no time to choose; longer ones are no hourglass at all."""


@dataclass(frozen=True)
class TowersGame:
    """The fixed facts of a game: the block set and the options."""

    block_set: BlockSet
    options: TowersOptions = field(default_factory=TowersOptions)

    id: ClassVar[str] = "towers"

    def new_initial_state(self, first: Player | None = None) -> TowersState:
        """Empty towers, every non-black block in the pile, before the coin toss.

        ``first`` plays the toss at once (a test, or a game told by hand).
        """
        blacks = tuple(b.id for b in self.block_set.of_colour(Colour.BLACK))
        pile = tuple(b.id for b in self.block_set.blocks if b.colour is not Colour.BLACK)
        state = TowersState(game=self, phase=Phase.TOSS, active=Player.A, turn=1,
                            towers=(Tower(), Tower()), pile=pile, blacks=blacks)
        return state if first is None else state.apply_action(Toss(first))


@dataclass(frozen=True)
class TowersState:
    """Everything about a game in progress. Build the first with ``TowersGame``."""

    game: TowersGame
    phase: Phase
    active: Player
    turn: int
    towers: tuple[Tower, Tower]
    pile: tuple[str, ...]
    blacks: tuple[str, ...]
    zone: tuple[str, ...] = ()
    hands: tuple[str | None, str | None] = (None, None)
    bonus: tuple[Player, ...] = ()
    penalties: tuple[int, int] = (0, 0)
    removed: tuple[str, ...] = ()
    end: EndReason | None = None
    over_the_top: tuple[Player, ...] = ()

    # ------------------------------------------------------------------ reading

    @property
    def passive(self) -> Player:
        return self.active.other

    def tower(self, player: Player) -> Tower:
        return self.towers[player.index]

    def block(self, block_id: str) -> Block:
        return self.game.block_set[block_id]

    def to_move(self) -> tuple[Player, ...]:
        """The players who may act now (both, while placing)."""
        if self.phase is Phase.CHOOSE:
            return (self.active,)
        if self.phase is Phase.TAKE:
            return (self.passive,)
        if self.phase is Phase.PLACE:
            return tuple(p for p in PLAYERS if self.hands[p.index] is not None)
        if self.phase is Phase.BONUS:
            return self.bonus
        return ()

    def available_blocks(self, tower: Player) -> tuple[str, ...]:
        """Blocks that may be placed on ``tower`` right now, one per interchangeable kind."""
        if self.phase is Phase.TAKE:  # the passive player chooses first
            return _one_per_kind(self.game.block_set, self.zone) if tower is self.passive else ()
        if self.phase is Phase.PLACE:
            hand = self.hands[tower.index]
            return (hand,) if hand is not None else ()
        if self.phase is Phase.BONUS and tower.other in self.bonus and self.blacks:
            return (self.blacks[0],)
        return ()

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def scores(self) -> tuple[int, int]:
        """Points on each tower minus over-the-top penalties (all zero in sudden death)."""
        if self.game.options.sudden_death:
            return (0, 0)
        a, b = (self.towers[i].points - self.penalties[i] for i in (0, 1))
        return (a, b)

    def outcome(self) -> Outcome | None:
        """Why and how the game ended, with each player's blocks and penalty; None before."""
        if self.end is None:
            return None
        scores = self.scores()
        winner: Player | None
        if self.game.options.sudden_death:
            over = self.over_the_top
            winner = over[0].other if len(over) == 1 else None
        elif scores[0] == scores[1]:
            winner = None
        else:
            winner = Player.A if scores[0] > scores[1] else Player.B
        return Outcome(self.end.value, winner, scores, (self._breakdown(Player.A),
                                                       self._breakdown(Player.B)))

    def _breakdown(self, player: Player) -> tuple[str, ...]:
        """A player's tower in points: each colour's count and value, then the penalty."""
        counts: dict[Colour, int] = {}
        for pb in self.tower(player).blocks:
            counts[pb.block.colour] = counts.get(pb.block.colour, 0) + 1
        lines = tuple(f"{n} {c.label}: {n * c.points:+d}" for c, n in
                      sorted(counts.items(), key=lambda item: item[0].volume))
        over = self.penalties[player.index]
        return lines + ((f"{over} cube(s) over the top: {-over:+d}",) if over else ())

    def returns(self) -> tuple[float, float]:
        """+1 for a win, -1 for a loss, 0 for a draw or an unfinished game."""
        return returns_of(self.outcome())

    # ------------------------------------------------------------------ the one game API

    def current_player(self) -> Player | None:
        """Who acts next; while placing both may, and the first of them is named."""
        movers = self.to_move()
        return movers[0] if movers else None

    def is_chance_node(self) -> bool:
        return self.phase is Phase.TOSS

    def chance_outcomes(self) -> list[tuple[Toss, float]]:
        return [(Toss(p), 0.5) for p in PLAYERS] if self.phase is Phase.TOSS else []

    def action_to_string(self, action: Action) -> str:
        """``choose G05``, ``putback G05``, ``take G05``, ``timeout``, ``decline A``,
        ``place G05 A a1:1 b1:1 a2:1 b2:1`` (rod:level, levels from 1), ``toss B``."""
        if isinstance(action, Choose | PutBack | Take):
            return f"{type(action).__name__.lower()} {action.block}"
        if isinstance(action, Timeout):
            return "timeout"
        if isinstance(action, Decline):
            return f"decline {action.player.value}"
        if isinstance(action, Toss):
            return f"toss {action.first.value}"
        cells = " ".join(f"{rod_name(x, y)}:{z + 1}"
                         for x, y, z in sorted(action.cells, key=lambda c: (c[2], c[1], c[0])))
        return f"place {action.block} {action.tower.value} {cells}"

    def string_to_action(self, text: str) -> Action:
        """``action_to_string``'s inverse; ValueError for anything else."""
        words = text.split()
        simple = {"choose": Choose, "putback": PutBack, "take": Take}
        try:
            if len(words) == 2 and words[0] in simple:
                return simple[words[0]](words[1])
            if words == ["timeout"]:
                return Timeout()
            if len(words) == 2 and words[0] == "decline":
                return Decline(Player(words[1]))
            if len(words) == 2 and words[0] == "toss":
                return Toss(Player(words[1]))
            if len(words) >= 4 and words[0] == "place":
                cells = frozenset(_parse_cell(w) for w in words[3:])
                return Place(Player(words[2]), words[1], cells)
        except ValueError:
            pass
        raise ValueError(f"{text!r} is not a towers action (choose G05, place G05 A a1:1 ...)")

    def observation(self) -> dict:
        """Everything in the towers game is in plain view."""
        counts = {colour: 0 for colour in Colour}  # in the colours' own order, always
        for b in self.pile:
            counts[self.block(b).colour] += 1
        pile = {colour.label: n for colour, n in counts.items() if n}

        def blocks(ids) -> list[dict]:
            return [{"id": b, "colour": self.block(b).colour.label} for b in ids]

        return {
            "game": "towers", "width": WIDTH, "levels": LEVELS,
            "phase": self.phase.value, "turn": self.turn,
            "active": self.active.value, "to_move": [p.value for p in self.to_move()],
            "towers": {p.value: [{"id": pb.block.id, "colour": pb.block.colour.label,
                                  "by": pb.placed_by.value,
                                  "cells": sorted([list(c) for c in pb.cells])}
                                 for pb in self.tower(p).blocks] for p in PLAYERS},
            "pile": pile, "zone": blocks(self.zone),
            "hands": {p.value: (blocks((h,))[0] if (h := self.hands[p.index]) else None)
                      for p in PLAYERS},
            "bonus": [p.value for p in self.bonus], "blacks_left": len(self.blacks),
            "scores": dict(zip("AB", self.scores(), strict=True)),
            "penalties": dict(zip("AB", self.penalties, strict=True)),
        }

    def where_is(self, block_id: str) -> str:
        """Where a block is now, in words, for error messages."""
        if block_id in self.pile:
            return "in the common pile"
        if block_id in self.zone:
            return "in the building zone"
        if block_id in self.blacks:
            return "with the black blocks beside the table"
        if block_id in self.removed:
            return "off the table, removed after going over the top"
        for i, hand in enumerate(self.hands):
            if hand == block_id:
                return f"in {PLAYERS[i]}'s hand"
        for p in PLAYERS:
            if any(pb.block.id == block_id for pb in self.tower(p).blocks):
                return f"already on {p}'s tower"
        return "not in this set"

    # ------------------------------------------------------------------ playing

    def legal_actions(self, player: Player | None = None) -> list[Action]:
        """Every distinct action the rules allow now, optionally for one player.

        Interchangeable blocks (same colour, same shape) are offered once.
        ``Timeout`` is never listed: the clock sends it, not a player.
        """
        actions = list(self._legal_actions())
        if player is None:
            return actions
        return [a for a in actions if self.actor(a) is player]

    def _legal_actions(self) -> Iterator[Action]:
        block_set = self.game.block_set
        if self.phase is Phase.TOSS:
            yield from (Toss(p) for p in PLAYERS)
        elif self.phase is Phase.CHOOSE:
            yield from (Choose(b) for b in _one_per_kind(block_set, self.pile))
            yield from (PutBack(b) for b in _one_per_kind(block_set, self.zone))
        elif self.phase is Phase.TAKE:
            yield from (Take(b) for b in _one_per_kind(block_set, self.zone))
        elif self.phase is Phase.PLACE:
            for p in self.to_move():
                hand = self.hands[p.index]
                assert hand is not None
                for cells in resting_placements(self.tower(p), self.block(hand)):
                    yield Place(p, hand, cells)
        elif self.phase is Phase.BONUS:
            for p in self.bonus:
                black = self.blacks[0]
                for cells in resting_placements(self.tower(p.other), self.block(black)):
                    yield Place(p.other, black, cells)
                yield Decline(p)

    def actor(self, action: Action) -> Player:
        """Who performs an action: needed to tell a player it is not their move."""
        if isinstance(action, Toss):
            return action.first
        if isinstance(action, Choose | PutBack | Timeout):
            return self.active
        if isinstance(action, Take):
            return self.passive
        if isinstance(action, Decline):
            return action.player
        if isinstance(action, Place):
            black = action.block in self.game.block_set and \
                self.block(action.block).colour is Colour.BLACK
            return action.tower.other if black else action.tower
        raise TypeError(f"not a towers action: {action!r}")

    def apply_action(self, action: Action) -> TowersState:
        """The state after ``action``, or a specific error naming what is wrong."""
        if self.phase is Phase.OVER:
            raise GameOverError("the game is over; start a new game to play again")
        if isinstance(action, Toss):
            self._expect(Phase.TOSS, "the coin is tossed once, before the first turn")
            return replace(self, phase=Phase.CHOOSE, active=action.first)
        if self.phase is Phase.TOSS:
            raise WrongPhaseError("the coin toss comes first: it says who is active")
        if isinstance(action, Choose):
            return self._choose(action.block)
        if isinstance(action, PutBack):
            return self._put_back(action.block)
        if isinstance(action, Timeout):
            return self._timeout()
        if isinstance(action, Take):
            return self._take(action.block)
        if isinstance(action, Place):
            return self._place(action)
        if isinstance(action, Decline):
            return self._decline(action.player)
        raise TypeError(f"not a towers action: {action!r}")

    def _choose(self, block_id: str) -> TowersState:
        self._expect(Phase.CHOOSE, "blocks go into the building zone only while the "
                     "active player is choosing")
        if block_id not in self.pile:
            if block_id in self.blacks:
                raise BlockNotAvailableError(
                    f"black blocks stay out of the common pile; {block_id} only comes "
                    "into play when a tower is flat"
                )
            raise BlockNotAvailableError(
                f"{self._name(block_id)} cannot be chosen: it is {self.where_is(block_id)}"
            )
        pile = list(self.pile)
        pile.remove(block_id)
        zone = (*self.zone, block_id)
        phase = Phase.TAKE if len(zone) == 2 else Phase.CHOOSE
        return replace(self, pile=tuple(pile), zone=zone, phase=phase)

    def _put_back(self, block_id: str) -> TowersState:
        self._expect(Phase.CHOOSE, "once two blocks are in the building zone only the "
                     "passive player may handle them")
        if block_id not in self.zone:
            raise BlockNotAvailableError(
                f"{self._name(block_id)} is not in the building zone: it is "
                f"{self.where_is(block_id)}"
            )
        zone = list(self.zone)
        zone.remove(block_id)
        return replace(self, zone=tuple(zone), pile=(*self.pile, block_id))

    def _timeout(self) -> TowersState:
        self._expect(Phase.CHOOSE, "only the active player's choice is timed")
        lost = replace(self, pile=self.pile + self.zone, zone=())
        return lost._next_turn()

    def _take(self, block_id: str) -> TowersState:
        self._expect(Phase.TAKE, "the passive player takes a block once two are in the "
                     "building zone")
        return self._deal(self.passive, block_id)

    def _identify(self, block_id: str, held: tuple[str, ...]) -> tuple[TowersState, str | None]:
        """If ``block_id`` is a pile block of the colour of one of ``held``, swap them.

        Returns the corrected state and the held block it replaced (or None).
        """
        if block_id in held or block_id not in self.pile:
            return self, None
        colour = self.block(block_id).colour
        for old in held:
            if self.block(old).colour is colour:
                pile = tuple(old if b == block_id else b for b in self.pile)
                zone = tuple(block_id if b == old else b for b in self.zone)
                hands = tuple(block_id if b == old else b for b in self.hands)
                return replace(self, pile=pile, zone=zone, hands=(hands[0], hands[1])), old
        return self, None

    def _deal(self, player: Player, block_id: str) -> TowersState:
        """``player`` gets ``block_id`` from the zone, the other player the other block."""
        state, _ = self._identify(block_id, self.zone)
        if state is not self:
            return state._deal(player, block_id)
        if block_id not in self.zone:
            raise BlockNotAvailableError(
                f"{self._name(block_id)} is not in the building zone: it is "
                f"{self.where_is(block_id)}"
            )
        rest = list(self.zone)
        rest.remove(block_id)
        hands = [None, None]
        hands[player.index] = block_id
        hands[player.other.index] = rest[0]
        return replace(self, zone=(), hands=(hands[0], hands[1]), phase=Phase.PLACE)

    def _place(self, action: Place) -> TowersState:
        state = self
        if self.phase is Phase.TAKE:
            if action.tower is self.active:
                raise NotYourTurnError(
                    f"{self.passive} chooses first: no block goes on {self.active}'s tower "
                    f"until {self.passive} has taken one of the two in the building zone")
            state = self._deal(action.tower, action.block)
        if state.phase is Phase.PLACE:
            return state._place_own(action)
        if state.phase is Phase.BONUS:
            return state._place_black(action)
        raise WrongPhaseError(
            f"no block can be placed on a tower now: {self.describe_phase()}"
        )

    def _place_own(self, action: Place) -> TowersState:
        p = action.tower
        hand = self.hands[p.index]
        if hand is None:
            raise NotYourTurnError(f"{p} has already placed a block this turn")
        state, old = self._identify(action.block, (hand,))
        if old is not None:
            return state._place_own(action)
        if action.block != hand:
            raise BlockNotAvailableError(
                f"{p} must place the {self.block(hand)} now, not "
                f"{self._name(action.block)}"
            )
        block = self.block(hand)
        check_placement(self.tower(p), block, action.cells)
        tower = self.tower(p).add(PlacedBlock(block, action.cells, p))
        hands = list(self.hands)
        hands[p.index] = None
        state = replace(self, towers=_with(self.towers, p, tower), hands=(hands[0], hands[1]))
        if any(h is not None for h in state.hands):
            return state
        return state._end_turn()

    def _place_black(self, action: Place) -> TowersState:
        owner = action.tower
        earner = owner.other
        if earner not in self.bonus:
            if owner in self.bonus:
                raise NotYourTurnError(
                    f"the black block goes on the opponent's tower: {owner} earned it and "
                    f"places it on {earner}'s tower"
                )
            raise NotYourTurnError(f"{earner} has no flat bonus to use")
        if action.block not in self.blacks:
            raise BlockNotAvailableError(
                f"only a black block may be placed for a flat bonus, and "
                f"{self._name(action.block)} is {self.where_is(action.block)}"
            )
        block = self.block(action.block)
        check_placement(self.tower(owner), block, action.cells)
        tower = self.tower(owner).add(PlacedBlock(block, action.cells, earner))
        blacks = tuple(b for b in self.blacks if b != action.block)
        bonus = tuple(p for p in self.bonus if p is not earner) if blacks else ()
        state = replace(self, towers=_with(self.towers, owner, tower), blacks=blacks, bonus=bonus)
        if tower.overflow:
            return state._over_the_top(EndReason.BLACK_OVER_THE_TOP)
        return state if state.bonus else state._next_turn()

    def _decline(self, player: Player) -> TowersState:
        self._expect(Phase.BONUS, "there is no black block to decline now")
        if player not in self.bonus:
            raise NotYourTurnError(f"{player} has no flat bonus to decline")
        bonus = tuple(p for p in self.bonus if p is not player)
        state = replace(self, bonus=bonus)
        return state if bonus else state._next_turn()

    def _end_turn(self) -> TowersState:
        if any(t.overflow for t in self.towers):
            return self._over_the_top(EndReason.OVER_THE_TOP)
        flat = tuple(p for p in PLAYERS if self.tower(p).is_flat) if self.blacks else ()
        if flat:
            return replace(self, phase=Phase.BONUS, bonus=flat)
        return self._next_turn()

    def _over_the_top(self, reason: EndReason) -> TowersState:
        """End the game: over-the-top blocks leave unscored, each cube over costs a point."""
        towers = list(self.towers)
        penalties = list(self.penalties)
        removed = list(self.removed)
        over = []
        for p in PLAYERS:
            for pb in self.tower(p).blocks:
                if pb.overflow:
                    towers[p.index] = towers[p.index].remove(pb.block.id)
                    penalties[p.index] += pb.overflow
                    removed.append(pb.block.id)
                    over.append(p)
        return replace(
            self, towers=(towers[0], towers[1]), penalties=(penalties[0], penalties[1]),
            removed=tuple(removed), over_the_top=tuple(over), bonus=(),
            phase=Phase.OVER, end=reason,
        )

    def _next_turn(self) -> TowersState:
        state = replace(
            self, phase=Phase.CHOOSE, active=self.passive, turn=self.turn + 1,
            zone=(), hands=(None, None), bonus=(),
        )
        if len(state.pile) < 2:
            return replace(state, phase=Phase.OVER, end=EndReason.PILE_EMPTY)
        return state

    # ------------------------------------------------------------------ words

    def _expect(self, phase: Phase, why: str) -> None:
        if self.phase is not phase:
            raise WrongPhaseError(f"{why}; now {self.describe_phase()}")

    def _name(self, block_id: str) -> str:
        if block_id in self.game.block_set:
            return f"the {self.block(block_id)}"
        return f"block {block_id!r}"

    def describe_phase(self) -> str:
        """What the table is waiting for, in a sentence."""
        if self.phase is Phase.TOSS:
            return "the coin toss decides who goes first"
        if self.phase is Phase.CHOOSE:
            return (f"{self.active} is choosing blocks for the building zone "
                    f"({len(self.zone)} of 2 in)")
        if self.phase is Phase.TAKE:
            return f"{self.passive} is taking one of the two blocks in the building zone"
        if self.phase is Phase.PLACE:
            waiting = [f"{p} places {self.hands[p.index]}" for p in self.to_move()]
            return " and ".join(waiting)
        if self.phase is Phase.BONUS:
            who = " and ".join(str(p) for p in self.bonus)
            return f"{who} may put a black block on the opponent's tower (flat bonus)"
        return "the game is over"

    def __str__(self) -> str:
        block_set = self.game.block_set
        counts = {c: 0 for c in Colour if c is not Colour.BLACK}
        for b in self.pile:
            counts[block_set[b].colour] += 1
        pile = ", ".join(f"{n} {c}" for c, n in counts.items())
        left = str(self.tower(Player.A)).splitlines()
        right = str(self.tower(Player.B)).splitlines()
        pad = max(len(left), len(right))
        left = [""] * (pad - len(left)) + left
        right = [""] * (pad - len(right)) + right
        width = max(len(s) for s in left)
        towers = "\n".join(f"{a:<{width}}   {b}" for a, b in zip(left, right, strict=True))
        scores = self.scores()
        return "\n".join([
            f"turn {self.turn}: {self.describe_phase()}",
            f"pile: {pile}; black blocks left: {len(self.blacks)}",
            f"zone: {', '.join(self.zone) or 'empty'}",
            f"{'tower A':<{width}}   tower B",
            towers,
            f"score A {scores[0]}, B {scores[1]}",
        ])


def _parse_cell(word: str) -> Cell:
    """``a1:3`` -> (0, 0, 2): rod a1, level 3."""
    rod, _, level = word.partition(":")
    if len(rod) != 2 or rod[0] not in "abc" or rod[1] not in "123" or not level.isdigit():
        raise ValueError(f"{word!r} is not a cube like a1:3")
    return ("abc".index(rod[0]), int(rod[1]) - 1, int(level) - 1)


def _with(towers: tuple[Tower, Tower], player: Player, tower: Tower) -> tuple[Tower, Tower]:
    return (tower, towers[1]) if player is Player.A else (towers[0], tower)


def _one_per_kind(block_set: BlockSet, ids: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[object] = set()
    out = []
    for block_id in ids:
        kind = block_set[block_id].kind
        if kind not in seen:
            seen.add(kind)
            out.append(block_id)
    return tuple(out)


__all__ = ["EndReason", "IllegalActionError", "Outcome", "Phase", "TowersGame", "TowersOptions",
           "TowersState"]
