"""What the maze table compares: pieces and walls of a sensor snapshot."""

from __future__ import annotations

from engine.maze.sensing import MazeView


def view_of(snapshot) -> MazeView:
    """Pieces from the first switch under each square, walls from the second."""
    return MazeView(frozenset(snapshot.board_level(0)), frozenset(snapshot.board_level(1)))
