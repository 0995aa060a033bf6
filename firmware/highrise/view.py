"""What the High Rise table compares: the load cells of a sensor snapshot."""

from __future__ import annotations

View = tuple[int, ...]


def view_of(snapshot) -> View:
    """The load-cell readings of a sensor snapshot, square by square."""
    return tuple(snapshot.loads)
