"""The maze played alone: the computer's wall, segment or obelisk move lit on the board.

A wall lights its square bright and the squares its two sides face dim (the
turn it wants); the obelisk lights where it stands dim and where it goes
bright; a segment its square. The Maze Master's pass needs no hands: the
table plays it. The shared part is ``firmware/solo.py``.
"""

from __future__ import annotations

from typing import Any

from engine.core import square_name
from engine.maze.game import SIZE, Move, Pass, Phase, PlaceSegment, PlaceWall
from engine.players import Player
from firmware.solo import differs, notation, same, searched, shade, shown

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "notation", "same", "searched",
           "shown", "together", "where", "words"]


def asks(pos: Any) -> bool:
    """The obelisk goes down before the game begins, wherever the person puts it."""
    return pos.phase is not Phase.FIRST_SEGMENT


def together(first: Any, state: Any) -> bool:
    """The Maze Master puts its four segments out in one go."""
    return first.phase is Phase.SEGMENTS and state.phase is Phase.SEGMENTS


def hands_free(action: Any) -> bool:
    return isinstance(action, Pass)


def words(pos: Any, actions: tuple) -> str:
    out = []
    for a in actions:
        if isinstance(a, PlaceWall):
            out.append(f"a wall on {square_name(a.square)} blocking its {a.orientation.words}")
        elif isinstance(a, Move):
            out.append(f"the obelisk from {square_name(pos.obelisk)} to {square_name(a.to)}")
        else:
            out.append(str(a))
    return "; ".join(out)


def where(pos: Any, actions: tuple) -> list[str]:
    out = []
    for a in actions:
        if isinstance(a, PlaceWall):
            out.append(f"{square_name(a.square)} {a.orientation.value}")
        elif isinstance(a, Move):
            out += [square_name(pos.obelisk), square_name(a.to)]
        elif isinstance(a, PlaceSegment):
            out.append(square_name(a.square))
    return out


def _at(square: tuple[int, int]) -> tuple[str, str, int]:
    return ("board", "", square[0] * SIZE + square[1])


def lights(table: Any, leds: dict, actions: tuple, seat: Player, *, asked: bool) -> None:
    to, frm = shade(asked)
    pos = table.position
    for a in actions:
        if isinstance(a, PlaceWall):
            r, c = a.square
            for side in a.orientation.sides:
                n = (r + side.value[0], c + side.value[1])
                if 0 <= n[0] < SIZE and 0 <= n[1] < SIZE:
                    leds[_at(n)] = frm
            leds[_at(a.square)] = to
        elif isinstance(a, Move):
            leds[_at(pos.obelisk)] = frm
            leds[_at(a.to)] = to
        elif isinstance(a, PlaceSegment):
            leds[_at(a.square)] = to


def hand(players: Any, table: Any, actions: tuple) -> None:
    """The demo's hand makes the first asked action (a wall's turn is then picked with the
    computer's button, as the table asks)."""
    pos = table.position
    action = actions[0]
    players.intended = action
    if isinstance(action, PlaceSegment):
        players.sim.put(action.square)
    elif isinstance(action, PlaceWall):
        players.sim.set_walls(players.sim.walls | {action.square})
    elif isinstance(action, Move):
        players.sim.take(pos.obelisk)
        on_segment = action.to in pos.segments
        players.sim.put(action.to, pos.claimed + 1 if on_segment else pos.claimed)
