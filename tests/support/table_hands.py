"""A person's hands at a real table of a match, in-process: each game's pieces as its sensors
read them, set out for a game and moved for one action.

The search over two real tables (``tests.support.table_search``) needs every game's moves
made the way a person makes them, through the table's sensors: the table reads the view
and records only what its rules and its far seat accept. What a game's sensors read for a
position is the engine's own word for it where it has one (``sight`` of stones and the
maze, ``expected_towers``); High Rise's pads are weighed as ``tests.support.tables``
calibrates them. Nothing here decides a move for the table: a view that the table does not
take as the wanted action is put back, as a person puts a wrong move back.
"""

from __future__ import annotations

from typing import Any

from engine.core import parse_square
from engine.highrise.game import Size
from engine.maze.sensing import MazeView
from engine.maze.sensing import sight as maze_sight
from engine.players import Player
from engine.stones.sensing import sight as stones_sight
from engine.towers.sensing import TowersView, expected_towers
from tests.support.tables import CAL, TableHarness

OBELISK_AT = "d4"
"""Where the Architect puts segment 1, the obelisk, to begin a maze game."""


def view_of(game_id: str, pos: Any) -> Any:
    """What the game's sensors read when the pieces stand as ``pos`` has them."""
    if game_id == "stones":
        return stones_sight(pos)
    if game_id == "maze":
        return maze_sight(pos)
    if game_id == "towers":
        held = (*pos.zone, *(b for b in pos.hands if b is not None))  # still on the pads
        zone = tuple(pos.block(b).colour for b in held)
        return TowersView(expected_towers(pos), zone + (None,) * (2 - len(zone)))
    return _weighed(pos)


def _weighed(pos: Any) -> tuple[int, ...]:
    """High Rise's pads: a cover on each square (weighed as a large pyramid), and the
    pyramids stacked on it."""
    large = CAL.sizes[Size.LARGE.value - 1]
    return tuple(CAL.zero[i] + large + sum(CAL.sizes[size.value - 1] for _, size in stack)
                 for i, stack in enumerate(pos.stacks))


def cleared(game_id: str, table: Any) -> Any:
    """What the sensors read with the board set out for a new game (before its start)."""
    if game_id == "towers":
        return TowersView((frozenset(), frozenset()), (None, None))
    if game_id == "highrise":
        return _weighed(table.position)
    if game_id == "maze":
        return maze_sight(table.game.new_initial_state())
    return stones_sight(table.position)


def set_out(h: TableHarness, game_id: str, obelisk: str = OBELISK_AT) -> None:
    """The board set out for the game the table shows, and the game begun: a press, or in the
    maze the obelisk put down (by the person here for whichever seat is the Architect)."""
    h.show(cleared(game_id, h.table))
    if game_id == "maze":
        afar = h.table.solo is not None and h.pos.current_player() is h.table.solo.seat
        h.show(MazeView(frozenset({parse_square(obelisk)}), frozenset()))
        if afar:  # the other table's Architect puts it: lit here, then made
            h.show(cleared(game_id, h.table))
        return
    h.press(Player.A)
    if game_id == "towers":
        h.wait(h.table.toss_s + 0.1)  # the coin toss, on the table's clock


def make(h: TableHarness, game_id: str, action: Any) -> bool:
    """The person makes ``action`` with the pieces; True when the table recorded an action
    (the towers record a block of the colour seen, which may be another block of the set
    than ``action`` names), else the pieces go back as they stood."""
    table = h.table
    before = table.position
    n = len(table.actions)
    h.show(view_of(game_id, before.apply_action(action)))
    if len(table.actions) > n:
        return True
    if len(table.actions) == n and table.position is before:
        h.show(view_of(game_id, before))  # not taken: put back as it was
    return False
