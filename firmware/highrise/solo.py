"""High Rise played alone: the computer's pyramid lights its square, its ring its size.

The computer searches without the hidden values (``engine.search`` samples
them). Which size went where is hidden until the reveal, from the page and
the club's broker too, so its asked move (and a hint) names only the
square in events and words: the size is on the LEDs, the asking seat's
ring lit a third for each size step, for the person who puts the pyramid
down. The demo's hands read it there; the page, which shows the ring as
the table lights it, says the size in words beside it (``ring_words``, in
the ``lights`` event only, which nothing logs or publishes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import counted, square_name
from engine.highrise.game import Place, Size
from engine.players import Player
from firmware.core import palette
from firmware.core.events import Mark
from firmware.seats.solo import (
    ASKED,
    Pixel,
    asks,
    computer_seat,
    hands_free,
    lit,
    pixels_of,
    same,
    searched,
    shade,
    together,
)
from hardware.sim.table import PYRAMID_GRAMS

if TYPE_CHECKING:
    from engine.highrise.game import HighriseState
    from firmware.core.palette import Frame
    from firmware.highrise.demo import HighrisePlayers
    from firmware.highrise.table import HighriseTable

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "notation", "read",
           "ring_piece", "ring_words", "same", "searched", "shown", "together", "where", "words"]


def words(pos: HighriseState, actions: tuple) -> str:
    return "; ".join(f"put a pyramid on {square_name(p.square)}, of the size the ring shows"
                     for p in actions)


def ring_words(pos: HighriseState, actions: tuple, *, by: str) -> str:
    """What the ring lit for a far seat's pyramid (``by``: who asks it, the computer or the
    other table; "" for a hint) says: its size, in the words of the set's pieces. Only the
    size: the page shows these beside the ring, and the turn line (the move asked) or the
    hint's line already says the square and who asks."""
    size = actions[0].size
    return f"the ring shows a {size.label} pyramid ({counted(size.value, 'pip')})"


def ring_piece(pos: HighriseState, actions: tuple) -> str:
    """The size the ring asks for, as a value: the page's hands choose it for the tap."""
    size: Size = actions[0].size
    return size.label


def notation(pos: HighriseState, actions: tuple) -> str:
    """The squares only: the size stays hidden (the ring shows it)."""
    return "; ".join(square_name(p.square) for p in actions)


RING_SIZES = "a third of the ring lit: small, two thirds: medium, all of it: large"
"""How a ring shows the size of the pyramid asked for (``lights``), in words."""


def differs(pos: HighriseState, asked: tuple, made: Place, by: str = "the computer") -> str:
    """No sizes in words: which went where is hidden until the reveal, and a refusal goes to
    every reader (the log, a club's broker). The asking seat's ring keeps showing the size
    while it stands (``firmware.seats.far_seat``), and the page says it beside the ring
    (``ring_words``, for the page alone); this says how to read the ring."""
    want = square_name(asked[0].square)
    if isinstance(made, Place) and made.square != asked[0].square:  # the wrong square: say
        put = square_name(made.square)  # which, where the ask's square is all it named
        return (f"{by} asked for a pyramid on {want}, not on {put}: take it off {put} and put "
                f"on {want} the size {pos.to_play}'s ring shows ({RING_SIZES})")
    return (f"this is not the pyramid {by} asked for on {want}: "
            f"take it off and put there the size {pos.to_play}'s ring shows ({RING_SIZES})")


def read(pixel: Pixel, pos: HighriseState, seat: str, ring: int, cols: int) -> tuple:
    """The computer's pyramid as the table shows it: the square lit in the asking colour,
    and the size from how much of the asking seat's ring (``ring`` pixels) is lit."""
    squares = [i for i, name in lit(pixel, "board", "", pos.options.rows * cols, ASKED).items()
               if name == "to"]
    shown = len(lit(pixel, "ring", seat, ring, {"to": palette.ASK}))
    if len(squares) != 1 or not shown:
        return ()
    size = next(s for s in Size if -(-ring * s.value // 3) >= shown)
    place = Place(divmod(squares[0], cols), size)
    return (place,) if place in pos.legal_actions() else ()


def shown(players: HighrisePlayers, table: HighriseTable) -> tuple:
    """The demo's hands read the computer's pyramid off the simulated LEDs (its square on
    the board, its size on the computer's ring)."""
    seat = computer_seat(table).value
    leds = players.devices.leds
    ring = next(n for kind, owner, n in leds.parts() if (kind, owner) == ("ring", seat))
    return read(pixels_of(leds), table.position, seat, ring, table.board_cols)


def where(pos: HighriseState, actions: tuple) -> list[Mark]:
    return [Mark.on_square(square_name(p.square), "to") for p in actions]


def lights(table: HighriseTable, leds: Frame, actions: tuple, seat: Player, *, asked: bool) -> None:
    """The square in the asking colour; the seat's ring lit a third for each size step
    (small: a third, medium: two, large: all)."""
    to, _ = shade(asked)
    place = actions[0]
    leds[("board", "", place.square[0] * table.board_cols + place.square[1])] = to
    ring = sorted(k for k in leds if k[0] == "ring" and k[1] == seat.value)
    lit = -(-len(ring) * place.size.value // 3)
    for i, key in enumerate(ring):
        leds[key] = to if i < lit else (0, 0, 0)


def hand(players: HighrisePlayers, table: HighriseTable, actions: tuple) -> None:
    """The demo's hand puts the asked pyramid on its square."""
    pos = table.position
    place = actions[0]
    grams = players.grams_in(pos)
    grams[pos.index(place.square)] += PYRAMID_GRAMS[place.size.value]
    players.show(grams)
