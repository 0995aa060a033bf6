"""The simulated table as the hands change it, with no board process around it."""

from __future__ import annotations

from hardware.profile import board_layout, load_profile
from hardware.sim.table import SimTable


def sim_table(profile: str = "sim") -> SimTable:
    """The simulated table of a profile, never started: only its physical truth, which the
    hands change and a test reads back."""
    return SimTable(board_layout(load_profile(profile)))
