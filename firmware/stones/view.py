"""What the stones table compares: the board of a sensor snapshot."""

from __future__ import annotations

from engine.stones.sensing import BoardView


def view_of(snapshot) -> BoardView:
    """The board of a sensor snapshot: occupied squares, and heights if sensed."""
    return BoardView.of(snapshot.square_heights(), snapshot.layout.stack)
