"""Every way an action or an input can be refused, as specific exceptions.

All are ``ValueError``s so that a caller who only wants "bad input" can catch
one thing, while the table can tell a player exactly what is wrong.
Messages are written for the person at the table, not for a programmer.
"""

from __future__ import annotations


class ObeliskError(ValueError):
    """Root of every error the engine raises on purpose."""


class IllegalActionError(ObeliskError):
    """The action breaks a rule; the state it was applied to is unchanged."""


class WrongPhaseError(IllegalActionError):
    """The action does not belong to this moment of the turn."""


class NotYourTurnError(IllegalActionError):
    """Someone other than the player whose move it is tried to act."""


class GameOverError(IllegalActionError):
    """The game has ended; nothing more can be played."""


class BlockNotAvailableError(IllegalActionError):
    """The block exists in the set but may not be used by this player now."""


class PlacementError(IllegalActionError):
    """A block cannot sit where it was put."""


class OverhangError(PlacementError):
    """Part of a block is off the 3x3 rods of the tower."""


class CellsTakenError(PlacementError):
    """A cube would occupy a position another cube already fills."""


class NotRestingError(PlacementError):
    """A block floats above the tower or sinks into it instead of resting."""


class ShapeMismatchError(PlacementError):
    """The cubes placed do not form the shape of the block named."""


class InferenceError(ObeliskError):
    """Sensor readings that are not one legal action; ``squares`` are where to look (lit)."""

    def __init__(self, message: str, squares: tuple[tuple[int, int], ...] = ()) -> None:
        super().__init__(message)
        self.squares = squares


class PutBackFirst(InferenceError):
    """Pieces are to go back where the game has them before play goes on (a lost turn's
    blocks to the pile): something to do, not a rule broken."""


class NothingPlacedError(InferenceError):
    """The sensors report no new cube."""


class NotOneBlockError(InferenceError):
    """The new cubes do not touch each other, so they cannot be one block."""


class UnknownShapeError(InferenceError):
    """No block available now has the shape and volume that appeared."""


class AmbiguousPlacementError(InferenceError):
    """More than one legal placement fits what the sensors see.

    ``candidates`` holds them so the table can ask the player which it was: each a
    game's action, or a tuple of actions that go together.
    """

    def __init__(self, message: str, candidates: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class BlockSetError(ObeliskError):
    """A block set file that cannot describe a playable set."""
