"""A person's hands on the simulated towers table: blocks from the pile, pads, rods.

The simulated board process (``firmware.sim.hands_board``) keeps one
``TowersHands`` beside its ``SimTable`` and hands it the acts a page sends:
take a block from the pile, set it on a zone pad (the pad's load cell weighs
it), turn it, lower it onto a tower at a chosen corner (the tower's own fall,
``engine.towers.tower.drop``, decides where it rests), lift a block off,
hover over a tower, knock a tower; ``clear`` (or ``setup``, the same for
towers: both towers and the zone empty) puts every block back into the pile,
the knocked ones and those in a hand too. Each act changes only the simulated
sensors; the table learns of it through the scanner code, the link and its
settling, exactly as from the wooden set. The hands know which block is
which (a person sees the blocks); the table knows only what its sensors see.

What the hands know is plain data too (``physical``), which the board keeps in
its state directory after every act and gives back to new hands when it
starts again (``restore``): the wooden set does not forget where its blocks are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import ObeliskError
from engine.towers.blocks import BlockSet, Cell, Colour
from engine.towers.tower import LEVELS, drop, heights_of
from firmware.sim.hands import SEATS, HandsError, Sweeps
from firmware.towers.sets import load_block_set
from firmware.towers.view import ZONE_PADS, ZoneScale
from hardware.sim.table import SimTable


@dataclass(frozen=True)
class Held:
    """A block in a hand, and which of its orientations the hand holds it in."""

    block: str
    turn: int = 0


@dataclass(frozen=True)
class Placed:
    """A block threaded onto a tower's rods, and the cube positions it fills."""

    block: str
    cells: frozenset[Cell]


class TowersHands(Sweeps):
    """Both seats' hands on the simulated towers table; every act goes through ``act``."""

    def __init__(self, sim: SimTable, block_set: BlockSet | None = None) -> None:
        self.sim = sim
        self.set = block_set or load_block_set()
        self.scale = ZoneScale()
        self.pads: list[str | None] = [None] * len(ZONE_PADS)
        self.held: dict[str, Held | None] = {seat: None for seat in SEATS}
        self.towers: list[tuple[Placed, ...]] = [(), ()]
        self.fallen: tuple[str, ...] = ()  # knocked off a tower, lying on the table
        self.hovering: tuple[int, frozenset[Cell]] | None = None

    # ------------------------------------------------------------ what is where

    def _elsewhere(self) -> set[str]:
        used = {b for b in self.pads if b} | {h.block for h in self.held.values() if h}
        used |= {p.block for tower in self.towers for p in tower} | set(self.fallen)
        return used

    def pile(self) -> list[str]:
        """The blocks lying in the common pile (black blocks included)."""
        used = self._elsewhere()
        return [b.id for b in self.set.blocks if b.id not in used]

    def _block(self, block_id: str) -> dict:
        block = self.set[block_id]
        return {"id": block.id, "colour": block.colour.label,
                "cells": sorted([list(c) for c in block.cells])}

    def look(self) -> dict:
        """The physical table as plain data, for a page to draw and act on."""
        held: dict[str, dict | None] = {}
        for seat, h in self.held.items():
            if h is None:
                held[seat] = None
                continue
            shape = self.set[h.block].orientations[h.turn]
            held[seat] = {**self._block(h.block), "turn": h.turn,
                          "turns": len(self.set[h.block].orientations),
                          "shape": sorted([list(c) for c in shape]),
                          "spots": [list(s) for s in self.spots(seat)]}
        return {
            "width": 3, "levels": LEVELS,
            "pile": [self._block(b) for b in self.pile()],
            "fallen": [self._block(b) for b in self.fallen],
            "pads": [self._block(b) if b else None for b in self.pads],
            "held": held,
            "towers": [[{**self._block(p.block), "at": sorted([list(c) for c in p.cells]),
                         "free": self._free(t, p)} for p in tower]
                       for t, tower in enumerate(self.towers)],
            "hovering": None if self.hovering is None else self.hovering[0],
        }

    def spots(self, seat: str) -> list[tuple[int, int]]:
        """The rods a held block's corner may go on, in the orientation it is held."""
        h = self.held[seat]
        if h is None:
            return []
        shape = self.set[h.block].orientations[h.turn]
        span_x = max(c[0] for c in shape) + 1
        span_y = max(c[1] for c in shape) + 1
        return [(x, y) for y in range(4 - span_y) for x in range(4 - span_x)]

    def _free(self, tower: int, placed: Placed) -> bool:
        """Nothing rests on the block: no cube of another sits above it on a rod it fills."""
        tops: dict[tuple[int, int], int] = {}
        for x, y, z in placed.cells:
            tops[(x, y)] = max(z, tops.get((x, y), z))
        return not any(other is not placed and (x, y) in tops and z > tops[(x, y)]
                       for other in self.towers[tower] for x, y, z in other.cells)

    # ------------------------------------------------------------ kept across restarts

    def physical(self) -> dict:
        """Where every block is and how each hand holds its own, as plain data."""
        return {"pads": list(self.pads),
                "held": {seat: None if h is None else {"block": h.block, "turn": h.turn}
                         for seat, h in self.held.items()},
                "towers": [[{"block": p.block, "cells": sorted(map(list, p.cells))}
                            for p in tower] for tower in self.towers],
                "fallen": list(self.fallen),
                "hovering": None if self.hovering is None else {
                    "tower": self.hovering[0], "cells": sorted(map(list, self.hovering[1]))}}

    def restore(self, data: dict) -> None:
        """Put back what ``physical`` gave, sensors included; HandsError (nothing changed)
        when it cannot be this set's blocks on this table."""
        pads = [None if b is None else self._known(b) for b in data["pads"]]
        if len(pads) != len(ZONE_PADS):
            raise HandsError(f"{len(pads)} zone pads, not {len(ZONE_PADS)}")
        held = {seat: self._held_from(data["held"][seat]) for seat in SEATS}
        towers = [tuple(self._placed_from(p) for p in tower) for tower in data["towers"]]
        if len(towers) != 2 or any(self._overlap(tower) for tower in towers):
            raise HandsError("the towers' blocks do not fit on two towers")
        fallen = tuple(self._known(b) for b in data["fallen"])
        hovering = data["hovering"]
        if hovering is not None:
            hovering = (self._tower(hovering), frozenset(self._cells(hovering["cells"])))
        everywhere = [*filter(None, pads), *(h.block for h in held.values() if h), *fallen,
                      *(p.block for tower in towers for p in tower)]
        if len(set(everywhere)) != len(everywhere):
            raise HandsError("a block is in two places at once")
        self.pads, self.held, self.towers, self.fallen = pads, held, towers, fallen
        self.hovering = hovering
        self._show_all()

    def cleared(self) -> dict:
        """Every block in the pile: no tower, pad, hand or table holds one."""
        return {"pads": [None] * len(ZONE_PADS), "held": {seat: None for seat in SEATS},
                "towers": [[], []], "fallen": [], "hovering": None}

    def _known(self, block: object) -> str:
        if not isinstance(block, str) or block not in self.set:
            raise HandsError(f"there is no block {str(block)[:20]!r} in the set")
        return block

    def _held_from(self, data: dict | None) -> Held | None:
        if data is None:
            return None
        block, turn = self._known(data["block"]), data["turn"]
        if type(turn) is not int or turn not in range(len(self.set[block].orientations)):
            raise HandsError(f"the {self.set[block]} cannot be held turned {turn!r} times")
        return Held(block, turn)

    @staticmethod
    def _cells(cells: list) -> list[Cell]:
        found = [tuple(c) for c in cells]
        if not all(len(c) == 3 and all(type(v) is int for v in c) and 0 <= c[0] < 3
                   and 0 <= c[1] < 3 and c[2] >= 0 for c in found):
            raise HandsError("a cube off the tower's rods")
        return found

    def _placed_from(self, data: dict) -> Placed:
        block, cells = self._known(data["block"]), self._cells(data["cells"])
        low = tuple(min(c[i] for c in cells) for i in range(3))
        shape = frozenset((x - low[0], y - low[1], z - low[2]) for x, y, z in cells)
        if len(cells) != len(shape) or shape not in self.set[block].orientations:
            raise HandsError(f"the {self.set[block]} has no such shape")
        return Placed(block, frozenset(cells))

    @staticmethod
    def _overlap(tower: tuple[Placed, ...]) -> bool:
        return sum(len(p.cells) for p in tower) != len({c for p in tower for c in p.cells})

    def _show_all(self) -> None:
        """Tell the simulated sensors everything the hands hold the table to be."""
        for t, tower in enumerate(self.towers):
            self.sim.lift(t, self.sim.cubes[t])
            self.sim.place(t, {c for p in tower for c in p.cells})
        for pad, block in enumerate(self.pads):
            self._weigh(pad, block)
        if self.hovering is None:
            self.sim.hand_away()
        else:
            self.sim.hover(*self.hovering)

    # ------------------------------------------------------------ acting

    def act(self, request: dict) -> None:
        """Do one act (``request["act"]`` names it); HandsError says why it cannot be done."""
        name = request.get("act")
        known = {"take": self._take, "set": self._set, "turn": self._turn,
                 "lower": self._lower, "lift": self._lift, "back": self._back,
                 "hover": self._hover, "away": self._away, "knock": self._knock,
                 **self.sweeps()}
        doing = known.get(name)
        if doing is None:
            raise HandsError(f"the hands cannot {name!r}: they {', '.join(known)}")
        doing(request)

    def _seat(self, request: dict) -> str:
        seat = request.get("seat")
        if seat not in SEATS:
            raise HandsError(f"whose hand? say seat A or B, not {seat!r}")
        return seat

    def _holding(self, request: dict) -> tuple[str, Held]:
        seat = self._seat(request)
        held = self.held[seat]
        if held is None:
            raise HandsError(f"player {seat}'s hand is empty: take a block first")
        return seat, held

    def _empty_hand(self, request: dict) -> str:
        seat = self._seat(request)
        held = self.held[seat]
        if held is not None:
            raise HandsError(f"player {seat} already holds the {self.set[held.block]}"
                             ": set it down first")
        return seat

    def _tower(self, request: dict) -> int:
        tower = request.get("tower")
        if tower not in (0, 1):
            raise HandsError(f"which tower? 0 (player A's) or 1 (player B's), not {tower!r}")
        return tower

    def _take(self, request: dict) -> None:
        """Into an empty hand: a block from the pile, from the table, or off a zone pad."""
        seat = self._empty_hand(request)
        if "pad" in request:
            pad = request["pad"]
            if pad not in range(len(self.pads)) or self.pads[pad] is None:
                raise HandsError(f"zone pad {_pad_name(pad)} holds no block")
            self.held[seat] = Held(self.pads[pad])
            self._weigh(pad, None)
            return
        block = request.get("block")
        if block in self.fallen:
            self.fallen = tuple(b for b in self.fallen if b != block)
        elif block not in self.pile():
            raise HandsError(f"{self._named(block)} is not in the pile or lying on the table")
        self.held[seat] = Held(block)

    def _set(self, request: dict) -> None:
        """The held block onto a free zone pad: the pad's load cell weighs it."""
        seat, held = self._holding(request)
        pad = request.get("pad")
        if not isinstance(pad, int) or pad not in range(len(self.pads)):
            raise HandsError(f"there is no zone pad {pad!r}: the pads are 0 and 1")
        on_pad = self.pads[pad]
        if on_pad is not None:
            raise HandsError(f"zone pad {_pad_name(pad)} already holds the {self.set[on_pad]}")
        self.held[seat] = None
        self._weigh(pad, held.block)

    def _back(self, request: dict) -> None:
        """The held block back into the pile."""
        seat, _ = self._holding(request)
        self.held[seat] = None

    def _turn(self, request: dict) -> None:
        """The held block turned to its next orientation (those the rules allow)."""
        seat, held = self._holding(request)
        turns = len(self.set[held.block].orientations)
        self.held[seat] = replace(held, turn=(held.turn + int(request.get("by", 1))) % turns)

    def _corner(self, request: dict) -> tuple[int, int]:
        at = request.get("at")
        if not (isinstance(at, list | tuple) and len(at) == 2
                and all(isinstance(v, int) for v in at)):
            raise HandsError("where on the tower? give the corner rod as [x, y], 0 to 2")
        return at[0], at[1]

    def _resting(self, request: dict) -> tuple[str, Held, int, frozenset[Cell]]:
        seat, held = self._holding(request)
        tower = self._tower(request)
        shape = self.set[held.block].orientations[held.turn]
        on = frozenset(c for p in self.towers[tower] for c in p.cells)
        try:
            cells = drop(heights_of(on), shape, self._corner(request))
        except ObeliskError as exc:
            raise HandsError(str(exc)) from None
        return seat, held, tower, cells

    def _lower(self, request: dict) -> None:
        """Thread the held block onto a tower at a corner rod; it falls until it rests."""
        seat, held, tower, cells = self._resting(request)
        self._away({})
        self.held[seat] = None
        self.towers[tower] = (*self.towers[tower], Placed(held.block, cells))
        self.sim.place(tower, cells)

    def _hover(self, request: dict) -> None:
        """Hold the block just above where it would rest: its magnets reach the rods' switches."""
        _, _, tower, cells = self._resting(request)
        above = frozenset((x, y, z + 1) for x, y, z in cells)
        self.hovering = (tower, above)
        self.sim.hover(tower, above)

    def _away(self, request: dict) -> None:
        """The hand moves away from the towers."""
        self.hovering = None
        self.sim.hand_away()

    def _lift(self, request: dict) -> None:
        """A block with nothing on it, lifted off a tower into an empty hand."""
        seat = self._empty_hand(request)
        tower = self._tower(request)
        block = request.get("block")
        placed = next((p for p in self.towers[tower] if p.block == block), None)
        if placed is None:
            raise HandsError(f"{self._named(block)} is not on player {SEATS[tower]}'s tower")
        if not self._free(tower, placed):
            raise HandsError(f"the {self.set[placed.block]} is under another block: lift that "
                             "first")
        self.towers[tower] = tuple(p for p in self.towers[tower] if p is not placed)
        self.held[seat] = Held(placed.block, self._turn_of(placed.block, placed.cells))
        self.sim.lift(tower, placed.cells)

    def _turn_of(self, block: str, cells: frozenset[Cell]) -> int:
        """Which orientation a block was in on the tower (a lifted block stays as it was)."""
        low = tuple(min(c[i] for c in cells) for i in range(3))
        shape = frozenset((x - low[0], y - low[1], z - low[2]) for x, y, z in cells)
        turns = self.set[block].orientations
        return turns.index(shape) if shape in turns else 0

    def _knock(self, request: dict) -> None:
        """A hand knocks the tower: its topmost free block falls off onto the table."""
        tower = self._tower(request)
        free = [p for p in self.towers[tower] if self._free(tower, p)]
        if not free:
            raise HandsError(f"tower {tower} is empty: nothing to knock off")
        top = max(free, key=lambda p: max(c[2] for c in p.cells))
        self.towers[tower] = tuple(p for p in self.towers[tower] if p is not top)
        self.fallen = (*self.fallen, top.block)
        self.sim.lift(tower, top.cells)

    def _named(self, block: object) -> str:
        """A block a request names, as a person tells it: by its colour (the wooden blocks
        carry no labels)."""
        return f"the {self.set[block]}" if isinstance(block, str) and block in self.set \
            else "that block"

    def _weigh(self, pad: int, block: str | None) -> None:
        self.pads[pad] = block
        colour: Colour | None = self.set[block].colour if block else None
        self.sim.weigh(ZONE_PADS[pad], self.scale.grams(colour))


def _pad_name(pad: object) -> str:
    """A zone pad as the page and the table name it, counted from 1 (anything else as the
    request gave it)."""
    return str(pad + 1) if isinstance(pad, int) and pad in range(len(ZONE_PADS)) else repr(pad)


Hands = TowersHands
"""What the simulated board process makes for this game."""

__all__ = ["Hands", "HandsError", "TowersHands"]
