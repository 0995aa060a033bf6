"""What the towers table compares: the view of a sensor snapshot.

A ``TowersView`` (``engine.towers.sensing``) is the part of a snapshot the
towers game cares about: the cube positions on both towers (levels 1-9,
what the rod switches see) and the colour of the block on each building-zone
pad, from its weight. What the view should be, and what a view means, is
the engine's; here a snapshot only becomes a view.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.towers.blocks import Colour
from engine.towers.sensing import UNKNOWN, TowersView
from hardware.sensors import Snapshot
from hardware.sim.table import GRAMS_TO_COUNTS, LOAD_OFFSET

ZONE_PADS = (0, 1)
"""Load cells under the two building-zone pads (the first two of the scanner board)."""
CUBE_GRAMS = 6.0
"""Weight of one wooden cube; a block weighs its volume times this."""


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

    def grams(self, colour: Colour | None) -> float:
        """What a block of that colour weighs, as a simulated pad is told (0: empty pad)."""
        return (self.raw(colour) - self.offset) / self.counts_per_gram


def view_of(snapshot: Snapshot, scale: ZoneScale = ZoneScale()) -> TowersView:
    """The towers' cubes and the zone pads' colours of a sensor snapshot."""
    loads = snapshot.loads
    zone = tuple(scale.colour(loads[p]) if p < len(loads) else None for p in ZONE_PADS)
    return TowersView((snapshot.tower_cells(0), snapshot.tower_cells(1)), zone)
