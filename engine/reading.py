"""What a settled sensor reading means, in one shape for every game.

Each game's ``sensing`` module turns what its sensors see (rod switches,
square switches, load cells) into a ``Reading``; the table core acts on it
without knowing the game: it plays the actions, asks the chooser to pick,
lights where a lifted piece may go, or offers the takeback. A reading that
means nothing legal is not a ``Reading`` but an ``InferenceError`` (with the
squares to light), like every refusal in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.players import Player


@dataclass(frozen=True)
class Takeback:
    """The pieces stand as they did ``to`` actions into the game: the later ones came off.

    Only the players who made those actions (``owners``) may confirm it.
    """

    to: int
    owners: frozenset[Player]


@dataclass(frozen=True)
class Reading:
    """One settled reading's meaning; the empty reading is "the table is as the game says".

    - ``actions``: whole actions the sensors saw made, in order, to be played;
    - ``choices`` (with ``chooser``): more than one thing fits, each a tuple of
      actions; the chooser picks one with their button;
    - ``lifted``: the square of a piece held in the air, whose destinations light up (with
      ``choices`` when setting it down could also be a move no switch sees);
    - ``takeback``: the pieces stand as an earlier position, to be confirmed;
    - ``amends``: the actions after this many were a piece still on its way (a
      stone sliding on): they are undone at once and ``actions`` played instead.
    """

    actions: tuple[Any, ...] = ()
    choices: tuple[tuple[Any, ...], ...] = ()
    chooser: Player | None = None
    lifted: tuple[int, int] | None = None
    takeback: Takeback | None = None
    amends: int | None = None

    def __post_init__(self) -> None:
        if bool(self.choices) != (self.chooser is not None):
            raise ValueError("a reading with choices names who chooses, and only then")

    @classmethod
    def of(cls, fits: tuple[tuple[Any, ...], ...], chooser: Player) -> Reading:
        """The actions when one thing fits, else the choice among them for ``chooser``."""
        if len(fits) == 1:
            return cls(actions=fits[0])
        return cls(choices=fits, chooser=chooser)

    def sure(self) -> tuple[Any, ...]:
        """The actions, when they are all this reading means (no choice, nothing lifted,
        no takeback or amendment): the table may play them before the reading settles."""
        if self.choices or self.lifted is not None or self.takeback or self.amends is not None:
            return ()
        return self.actions
