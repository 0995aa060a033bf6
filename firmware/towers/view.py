"""What the towers table physically looks like, and what it should look like.

A ``TowersView`` is the part of a sensor snapshot the towers game cares
about: the cube positions on both towers (levels 1-9, what the rod switches
see) and the colour of the block on each building-zone pad (from its
weight). The same type describes what the accepted game state says should
be there, so the firmware compares whole states, never running tallies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.players import PLAYERS
from engine.towers.blocks import Cell, Colour
from engine.towers.game import Phase, TowersState
from engine.towers.tower import LEVELS
from hardware.sensors import Snapshot
from hardware.sim import GRAMS_TO_COUNTS, LOAD_OFFSET

ZONE_PADS = (0, 1)
"""Load cells under the two building-zone pads (the first two of the scanner board)."""
CUBE_GRAMS = 6.0
"""Weight of one wooden cube; a block weighs its volume times this."""
UNKNOWN = "unknown"


@dataclass(frozen=True)
class ZoneScale:
    """Raw load-cell counts to cube volumes: offset, counts per gram, grams per cube."""

    offset: float = LOAD_OFFSET
    counts_per_gram: float = GRAMS_TO_COUNTS
    cube_grams: float = CUBE_GRAMS
    tolerance: float = 0.3  # of a cube

    def colour(self, raw: int) -> Colour | str | None:
        """The colour of the block on a pad, None when empty, UNKNOWN when no block weighs that."""
        cubes = (raw - self.offset) / self.counts_per_gram / self.cube_grams
        volume = round(cubes)
        if abs(cubes - volume) > self.tolerance:
            return UNKNOWN
        if volume == 0:
            return None
        return Colour.from_volume(volume) or UNKNOWN

    def raw(self, colour: Colour | None) -> int:
        """What a pad reads with a block of that colour on it (for the simulated table)."""
        volume = colour.volume if colour else 0
        return int(self.offset + volume * self.cube_grams * self.counts_per_gram)


@dataclass(frozen=True)
class TowersView:
    towers: tuple[frozenset[Cell], frozenset[Cell]]
    zone: tuple[Colour | str | None, ...]

    def zone_colours(self) -> Counter:
        return Counter(c for c in self.zone if c is not None)


def view_of(snapshot: Snapshot, scale: ZoneScale = ZoneScale()) -> TowersView:
    loads = snapshot.loads
    zone = tuple(scale.colour(loads[p]) if p < len(loads) else None for p in ZONE_PADS)
    return TowersView((snapshot.tower_cells(0), snapshot.tower_cells(1)), zone)


def expected_towers(state: TowersState) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The cube positions the rod switches should see for an accepted state."""
    a, b = (frozenset(c for c in state.tower(p).occupied if c[2] < LEVELS) for p in PLAYERS)
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
