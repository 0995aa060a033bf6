"""The maze played alone: the computer's wall, segment or obelisk move lit on the board.

A wall lights its square bright and the squares its two sides face dim (the
turn it wants); the obelisk lights where it stands dim and where it goes
bright; a segment its square. The Maze Master's pass needs no hands: the
table plays it. The shared part is ``firmware/seats/solo.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import square_name
from engine.maze.actions import Action, Move, Orientation, Pass, PlaceSegment, PlaceWall
from engine.maze.board import SIZE
from engine.maze.game import Phase, Role
from engine.players import Player
from firmware.core.events import Mark
from firmware.seats.solo import (
    ASKED,
    Pixel,
    lit,
    notation,
    pixels_of,
    same,
    searched,
    shade,
)

if TYPE_CHECKING:
    from engine.maze.game import MazeState
    from firmware.core.palette import Frame
    from firmware.maze.demo import MazePlayers
    from firmware.maze.table import MazeTable

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "notation", "read", "same",
           "searched", "shown", "together", "where", "words"]


def asks(pos: MazeState) -> bool:
    """The obelisk goes down before the game begins, wherever the person puts it."""
    return pos.phase is not Phase.FIRST_SEGMENT


def together(first: MazeState, state: MazeState) -> bool:
    """The Maze Master puts its four segments out in one go."""
    return first.phase is Phase.SEGMENTS and state.phase is Phase.SEGMENTS


def hands_free(action: Action) -> bool:
    return isinstance(action, Pass)


def words(pos: MazeState, actions: tuple) -> str:
    """The asked actions as a person makes them: each segment by the number its wooden
    piece is labelled with (the obelisk is 1; the others go down 2, 3, 4, 5 in turn), a
    claim by the segment it claims."""
    out = []
    label = pos.next_number
    for a in actions:
        if isinstance(a, PlaceWall):
            out.append(f"a wall on {square_name(a.square)} blocking its {a.orientation.words}")
        elif isinstance(a, Move):
            claim = f", claiming {pos.piece_on(a.to)}" if a.to in pos.segments else ""
            out.append(f"the obelisk from {square_name(pos.obelisk_square)} to {square_name(a.to)}"
                       + claim)
        elif isinstance(a, PlaceSegment):
            piece = "the obelisk, segment 1," if label == 1 else f"segment {label}"
            out.append(f"{piece} on {square_name(a.square)}")
            label += 1
        else:
            out.append(str(a))
    return "; ".join(out)


def differs(pos: MazeState, asked: tuple, made: Action, by: str = "the computer") -> str:
    """The move made, in the ask's words, and how to put it right (the turn line says the
    move asked: not again here)."""
    return (f"{by} asked for another move; this is {words(pos, (made,))}: put it back as it "
            "was and make the lit move")


def where(pos: MazeState, actions: tuple) -> list[Mark]:
    out = []
    for a in actions:
        if isinstance(a, PlaceWall):
            name = square_name(a.square)
            out.append(Mark.on_square(name, "wall", f"{name} {a.orientation.value}"))
        elif isinstance(a, Move):
            out += [Mark.on_square(square_name(pos.obelisk_square), "from"),
                    Mark.on_square(square_name(a.to), "to")]
        elif isinstance(a, PlaceSegment):
            out.append(Mark.on_square(square_name(a.square), "to"))
    return out


def _at(square: tuple[int, int]) -> tuple[str, str, int]:
    return ("board", "", square[0] * SIZE + square[1])


def lights(table: MazeTable, leds: Frame, actions: tuple, seat: Player, *, asked: bool) -> None:
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
            leds[_at(pos.obelisk_square)] = frm
            leds[_at(a.to)] = to
        elif isinstance(a, PlaceSegment):
            leds[_at(a.square)] = to


def _faced(square: tuple[int, int], orientation: Orientation) -> frozenset:
    """The squares a wall's two sides face, those on the board."""
    out = set()
    for side in orientation.sides:
        n = (square[0] + side.value[0], square[1] + side.value[1])
        if 0 <= n[0] < SIZE and 0 <= n[1] < SIZE:
            out.add(n)
    return frozenset(out)


def read(pixel: Pixel, pos: MazeState) -> tuple:
    """The far seat's move as the board's lights show it. The Architect's: the obelisk's
    square dim, its destination bright (the first time, where it goes down, bright alone).
    The Maze Master's: each segment's square bright,
    or a wall's square bright and the squares its two sides face dim (a side at the
    board's edge faces none, so which are lit tells the turn all the same)."""
    seen = lit(pixel, "board", "", SIZE * SIZE, ASKED)
    to = sorted(divmod(i, SIZE) for i, name in seen.items() if name == "to")
    frm = frozenset(divmod(i, SIZE) for i, name in seen.items() if name == "from")
    if not to or pos.phase is Phase.OVER:
        return ()
    legal = pos.legal_actions()
    wanted: tuple[Action, ...]
    if pos.phase is Phase.FIRST_SEGMENT:  # the obelisk's first square (a match's Architect)
        wanted = (PlaceSegment(to[0]),) if len(to) == 1 and not frm else ()
    elif pos.to_play is Role.ARCHITECT:
        wanted = (Move(to[0]),) if len(to) == 1 and frm == {pos.obelisk} else ()
    elif pos.phase is Phase.SEGMENTS:
        wanted = tuple(PlaceSegment(sq) for sq in to) if not frm else ()
        return wanted if wanted and wanted[0] in legal else ()
    elif len(to) == 1:
        wanted = tuple(PlaceWall(to[0], o) for o in Orientation if _faced(to[0], o) == frm)
    else:
        wanted = ()
    return wanted if len(wanted) == 1 and wanted[0] in legal else ()


def shown(players: MazePlayers, table: MazeTable) -> tuple:
    """The demo's hands read the computer's move off the simulated board's LEDs."""
    return read(pixels_of(players.devices.leds), table.position)


def hand(players: MazePlayers, table: MazeTable, actions: tuple) -> None:
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
        players.sim.take(pos.obelisk_square)
        on_segment = action.to in pos.segments
        players.sim.put(action.to, pos.claimed + 1 if on_segment else pos.claimed)
