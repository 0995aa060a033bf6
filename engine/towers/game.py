"""The towers game: its options, the game and its immutable states.

A state reads out everything about a game in progress: whose move it is,
the blocks each tower may take, the score and its breakdown, the public
observation and the position in words. How a turn goes, and what each
action does, is in ``engine.towers.turns``; the actions themselves are in
``engine.towers.actions``.

States are immutable: ``apply_action`` returns a new state or raises a
specific ``IllegalActionError``, leaving the old state as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core import Outcome, Turns, counted, returns_of
from engine.players import PLAYERS, Player
from engine.towers import turns
from engine.towers.actions import Action, Choose, Decline, Place, PutBack, Take, Timeout, Toss
from engine.towers.blocks import WIDTH, Block, BlockSet, Cell, Colour, one_per_kind
from engine.towers.tower import LEVELS, Tower, cells_text, rod_name
from engine.towers.turns import EndReason, Phase


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
class TowersState(Turns):
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
            return one_per_kind(self.game.block_set, self.zone) if tower is self.passive else ()
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
                                                       self._breakdown(Player.B)),
                       ended=self.end.said)

    def _breakdown(self, player: Player) -> tuple[str, ...]:
        """A player's tower in points: each colour's count and value, then the penalty."""
        counts: dict[Colour, int] = {}
        for pb in self.tower(player).blocks:
            counts[pb.block.colour] = counts.get(pb.block.colour, 0) + 1
        lines = tuple(f"{n} {c.label}: {n * c.points:+d}" for c, n in
                      sorted(counts.items(), key=lambda item: item[0].volume))
        over = self.penalties[player.index]
        return lines + ((f"{counted(over, 'cube')} over the top: {-over:+d}",) if over else ())

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
        simple: dict[str, type[Choose | PutBack | Take]] = {"choose": Choose,
                                                            "putback": PutBack, "take": Take}
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

    def observation(self) -> dict[str, Any]:
        """Everything in the towers game is in plain view."""
        counts = {colour: 0 for colour in Colour}  # in the colours' own order, always
        for b in self.pile:
            counts[self.block(b).colour] += 1
        pile = {colour.label: n for colour, n in counts.items() if n}

        def blocks(ids: Iterable[str]) -> list[dict[str, str]]:
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

    def action_words(self, action: Action) -> str:
        """An action in a player's words, its block named as the table can tell it (``choose
        a green block for the building zone``; its notation names the block's id)."""
        named = self.named(action)
        if isinstance(action, Choose):
            return f"choose {named} for the building zone"
        if isinstance(action, PutBack):
            return f"put {named} back in the common pile"
        if isinstance(action, Take):
            return f"take {named} from the building zone"
        if isinstance(action, Place):
            return f"place {named} on tower {action.tower.value} at {cells_text(action.cells)}"
        return str(action)

    def done_words(self, action: Action) -> str:
        """An action as something its player did, in the words that follow their name in the
        moves list (``chose a green block for the building zone``)."""
        named = self.named(action)
        if isinstance(action, Choose):
            return f"chose {named} for the building zone"
        if isinstance(action, PutBack):
            return f"put {named} back in the common pile"
        if isinstance(action, Take):
            return f"took {named} from the building zone"
        if isinstance(action, Place):
            return f"placed {named} on tower {action.tower.value} at {cells_text(action.cells)}"
        if isinstance(action, Timeout):
            return "ran out of time: the turn is lost"
        if isinstance(action, Decline):
            return "declined the black block"
        return str(action)

    def named(self, action: Action) -> str:
        """The block of ``action`` as the table and the players can tell it: by its colour.

        The zone pads weigh a block's colour and the rods see its shape; neither says which
        of the blocks of a colour it is, and the wooden blocks carry no labels. So it is "a
        green block" from the pile, "the green block" a player holds, or the only one of its
        colour in the building zone ("a green block" when both there are green).
        """
        block = action.block if isinstance(action, Choose | PutBack | Take | Place) else None
        if block is None or block not in self.game.block_set:
            return f"block {block!r}"
        colour = self.block(block).colour
        if isinstance(action, Choose) or colour is Colour.BLACK:
            return f"a {colour} block"
        from_zone = isinstance(action, PutBack | Take) or (
            isinstance(action, Place) and self.phase is Phase.TAKE)
        if from_zone and sum(self.block(b).colour is colour for b in self.zone) > 1:
            return f"a {colour} block"
        return f"the {colour} block"

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

    # ------------------------------------------------------------------ playing (see turns)

    def legal_actions(self, player: Player | None = None) -> list[Action]:
        """Every distinct action the rules allow now, optionally for one player."""
        return turns.legal_actions(self, player)

    def actor(self, action: Action) -> Player:
        """Who performs an action: needed to tell a player it is not their move."""
        return turns.actor(self, action)

    def apply_action(self, action: Action) -> TowersState:
        """The state after ``action``, or a specific error naming what is wrong."""
        return turns.apply_action(self, action)

    # ------------------------------------------------------------------ words

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
            waiting = [f"{p} places the {self.block(hand)}" for p in self.to_move()
                       if (hand := self.hands[p.index]) is not None]  # all who are to move
            return " and ".join(waiting)
        if self.phase is Phase.BONUS:
            who = " and ".join(str(p) for p in self.bonus)
            return f"{who} may put a black block on the opponent's tower (flat bonus)"
        return "the game is over"

    def __str__(self) -> str:
        block_set = self.game.block_set
        counts: dict[Colour, int] = {c: 0 for c in Colour if c is not Colour.BLACK}
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
            f"zone: {', '.join(str(block_set[b].colour) for b in self.zone) or 'empty'}",
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
