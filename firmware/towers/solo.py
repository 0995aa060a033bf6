"""Towers played alone: the computer's blocks on the zone pads, and where they go.

When the computer chooses, the empty zone pads light in the colours of the
blocks it wants from the pile; when it takes, the pad carrying the block it
takes lights in that block's colour (the other goes dark); wherever its
block (or a black block it gives) goes, the rods it covers light on that
tower. The person fetches and places them; the table checks each as any
placement (by colour on the pads, by shape and cubes on the rods). The
computer declines a black block by itself (no hands needed). The shared part
is ``firmware/seats/solo.py``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine.players import Player
from engine.towers.actions import Action, Choose, Decline, Place, Take
from engine.towers.blocks import WIDTH
from engine.towers.placement import future, visible
from engine.towers.tower import LEVELS, cells_text, drop, heights_of
from engine.towers.turns import Phase
from firmware.core import palette
from firmware.core.events import Mark
from firmware.seats.solo import Pixel, asks, computer_seat, lit, notation, pixels_of, shade
from firmware.seats.solo import searched as _same_position

if TYPE_CHECKING:
    from engine.towers.game import TowersState
    from firmware.core.palette import Frame
    from firmware.towers.demo import DemoPlayers
    from firmware.towers.table import TowersTable

__all__ = ["again", "asks", "differs", "hand", "hands_free", "lights", "notation", "read", "same",
           "searched", "shown", "together", "where", "words"]


def together(first: TowersState, state: TowersState) -> bool:
    """Both zone blocks are chosen in one go, and a take with the placement it makes."""
    return state.turn == first.turn and first.phase in (Phase.CHOOSE, Phase.TAKE)


def searched(state: TowersState, seat: Player) -> TowersState:
    """While both place (or both earned a bonus), the search plays ``seat``'s part first."""
    if state.phase is Phase.PLACE and state.current_player() is not seat:
        hands: list[str | None] = [None, None]
        hands[seat.index] = state.hands[seat.index]
        return dataclasses.replace(state, hands=(hands[0], hands[1]))
    if state.phase is Phase.BONUS and state.bonus and state.bonus[0] is not seat:
        return dataclasses.replace(state, bonus=(seat,))
    return _same_position(state, seat)


def hands_free(action: Action) -> bool:
    return isinstance(action, Decline)


def same(pos: TowersState, wanted: Action, made: Action) -> bool:
    """Blocks in the zone are told by colour; a placement by tower, kind and cubes."""
    if type(wanted) is not type(made):
        return False
    if isinstance(wanted, Choose | Take) and isinstance(made, Choose | Take):  # (one type)
        return pos.block(wanted.block).colour is pos.block(made.block).colour
    if isinstance(wanted, Place) and isinstance(made, Place):
        if wanted.tower is not made.tower:
            return False
        if wanted.cells == made.cells:
            return pos.block(wanted.block).kind == pos.block(made.block).kind
        # over the top the switches see only the part below: where they see the same and the
        # game goes on the same (the engine's ``future``), it is the move asked
        return (visible(wanted.cells) == visible(made.cells)
                and future(pos, wanted) == future(pos, made))
    return wanted == made


def _colour(pos: TowersState, block: str) -> str:
    return pos.block(block).colour.label


def words(pos: TowersState, actions: tuple) -> str:
    """The asked actions in a person's words, each thing said once (two blocks of one colour
    for the zone are "two green blocks", not the same clause twice)."""
    out = []
    chosen = [_colour(pos, a.block) for a in actions if isinstance(a, Choose)]
    for colour in dict.fromkeys(chosen):
        n = chosen.count(colour)
        out.append(f"put two {colour} blocks from the pile on the zone pads" if n == 2 else
                   f"put a {colour} block from the pile on a zone pad")
    for a in actions:
        if isinstance(a, Choose):
            continue
        elif isinstance(a, Take):
            out.append(f"take the {_colour(pos, a.block)} block from the zone")
        elif isinstance(a, Place):
            out.append(f"place the {pos.block(a.block)} on tower {a.tower.value} at "
                       f"{cells_text(a.cells)}")
        else:
            out.append(pos.action_words(a))
    return "; ".join(out)


def where(pos: TowersState, actions: tuple) -> list[Mark]:
    out = []
    for a in actions:
        colour = _colour(pos, a.block) if isinstance(a, Choose | Take | Place) else ""
        if isinstance(a, Choose):  # its shape too, for the page to draw (the pad shows
            shape = pos.block(a.block).cells  # only the colour)
            out.append(Mark(f"zone: {colour}: {cells_text(shape)}", zone=colour,
                            cells=_bottom_up(shape)))
        elif isinstance(a, Take):
            out.append(Mark(f"zone: {colour}", zone=colour))
        elif isinstance(a, Place):
            out.append(Mark(f"tower {a.tower.value}: {cells_text(a.cells)}",
                            tower=a.tower.value, cells=_bottom_up(a.cells)))
    return out


def _bottom_up(cells: Any) -> tuple:
    """Cells in the order their words name them: bottom level first."""
    return tuple(sorted(cells, key=lambda c: (c[2], c[1], c[0])))


def differs(pos: TowersState, asked: tuple, made: Action, by: str = "the computer") -> str:
    """What differs, in the player's words, and how to put it right: the move made, not the
    one asked again (the turn line says it, part of it perhaps made already: the block
    taken from the zone)."""
    if isinstance(made, Choose):
        return (f"{by} asked for another colour, not a {_colour(pos, made.block)} block: put "
                "it back in the pile and fetch the lit colour")
    if isinstance(made, Place):
        wanted = next((a for a in asked if isinstance(a, Place)), None)
        if wanted is not None and wanted.tower is made.tower:
            want, got = pos.block(wanted.block), pos.block(made.block)
            colour = _colour(pos, made.block)
            if want.colour is not got.colour:
                return (f"{by} asked for another block, not the {colour} block: lift it off "
                        "and place the lit one")
            if want.kind != got.kind:  # the pads weigh colours only: the zone's block may
                # not be the shape planned for
                return (f"{by} asked for a {colour} block of another shape, the one the lit "
                        f"rods show: lift this one off and place a {colour} block of that "
                        "shape there (one from the pile will do)")
        return (f"{by} asked for this block elsewhere; it is at {cells_text(made.cells)}: "
                "lift it off and place it on the lit rods")
    return (f"{by} asked for another move, not to {pos.action_words(made)}: put it back as "
            "it was")


def lights(table: TowersTable, leds: Frame, actions: tuple, seat: Player, *, asked: bool) -> None:
    """Pads in the wanted blocks' colours; the rods the block covers on its tower, each
    shaded for the block's cubes on it (``palette.stacked``), so they show its
    orientation too."""
    to, _ = shade(asked)
    pos = table.position
    zone = table.decided.zone if table.decided is not None else (None, None)
    chosen = [_colour(pos, a.block) for a in actions if isinstance(a, Choose)]
    free = [i for i, c in enumerate(zone) if c is None]
    for pad, colour in zip(free, chosen, strict=False):
        leds[("zone", "", pad)] = palette.BLOCKS[colour]
    for a in actions:
        if isinstance(a, Take):
            want = pos.block(a.block).colour
            taken = next((i for i, c in enumerate(zone) if c is want), None)  # its pad
            for i in range(len(zone)):
                leds[("zone", "", i)] = palette.OFF
            if taken is not None:
                leds[("zone", "", taken)] = palette.BLOCKS[want.label]
        elif isinstance(a, Place):
            for rod in range(WIDTH * WIDTH):
                leds[("tower", a.tower.value, rod)] = palette.OFF
            for (x, y), (bottom, top) in column_levels(a.cells).items():
                leds[("tower", a.tower.value, y * WIDTH + x)] = palette.stacked(to, bottom, top)


Levels = dict[tuple[int, int], tuple[int, int]]
"""Rod (x, y) -> the block's (lowest, past its highest) level on it, from the block's lowest."""


def column_levels(cells: Any) -> Levels:
    """The block's cubes rod by rod, its lowest level counted 0: what the rods light."""
    floor = min(z for *_, z in cells)
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for x, y, z in cells:
        low, high = out.get((x, y), (z - floor, z - floor + 1))
        out[(x, y)] = (min(low, z - floor), max(high, z - floor + 1))
    return out


SHADES = {(b, t): palette.stacked(palette.ASK, b, t) for b in range(3) for t in range(b + 1, b + 4)}
"""Every shade an asked block's rod can show (``column_levels``), as read back."""


@dataclasses.dataclass(frozen=True)
class AtHand:
    """What the demo's hand knows of the physical table: the blocks on the zone pads, the
    one it holds, the colour pile, and how high each tower stands on each rod."""

    pads: tuple[str | None, ...]
    held: str | None
    pile: tuple[str, ...]
    heights: tuple[tuple[int, ...], tuple[int, ...]]


def _fitting(pos: TowersState, block: str, levels: Levels) -> frozenset | None:
    """The block turned the way the rods show, if it can be (as its cubes, placed at the
    origin), else None."""
    for shape in pos.block(block).orientations:
        if column_levels(shape) == levels:
            return shape
    return None


def read(pixel: Pixel, pos: TowersState, at_hand: AtHand) -> tuple:
    """The computer's towers move as the LEDs show it, made of the blocks at hand.

    A tower's rods lit (shaded as ``column_levels``) ask for a block there:
    which one is told by its shape (its cube count is its colour), fetched
    from the lit pad, else the hand or the pads, else the black pile; it
    goes where its corner's rod is and falls until it rests, as the hand
    would let it. Empty pads lit in a block colour ask for blocks of that
    colour from the pile; a carrying pad lit (the other dark) is the one to
    take.
    """
    pads = lit(pixel, "zone", "", len(at_hand.pads), palette.BLOCKS)
    for tower in (Player.A, Player.B):
        rods = lit(pixel, "tower", tower.value, WIDTH * WIDTH, SHADES)
        if not rods:
            continue
        x0 = min(r % WIDTH for r in rods)
        y0 = min(r // WIDTH for r in rods)
        levels = {(r % WIDTH - x0, r // WIDTH - y0): bt for r, bt in rods.items()}
        lit_pads = [at_hand.pads[i] for i in pads if at_hand.pads[i] is not None]
        blacks = pos.blacks[:1] if pos.phase is Phase.BONUS else ()
        known = (*pos.zone, *pos.hands)  # the pads weigh colours only: which of a colour
        # it is the shape on the rods tells, so a block of that colour from the pile may be
        # the one (the other table of a match took another block of the colour to its pad)
        for block in (*lit_pads, at_hand.held, *at_hand.pads, *known, *blacks, *at_hand.pile):
            if not block:
                continue
            shape = _fitting(pos, block, levels)
            if not shape:
                continue
            cells = drop(at_hand.heights[tower.index], shape, (x0, y0))
            place = Place(tower, block, cells)
            if pos.phase is Phase.TAKE:
                return (Take(block), place)
            return (place,)
        return ()
    pile = list(at_hand.pile)
    chosen = []
    for pad, colour in sorted(pads.items()):
        if at_hand.pads[pad] is None:
            block = next((b for b in pile if _colour(pos, b) == colour), None)
            if block is not None:
                pile.remove(block)
                chosen.append(Choose(block))
    return tuple(chosen)


def shown(players: DemoPlayers, table: TowersTable) -> tuple:
    """The demo's hands read the computer's move off the simulated LEDs (pads and rods)."""
    pos = table.position
    at_hand = AtHand(tuple(players.pads), players.held.get(computer_seat(table)),
                     tuple(players.physical_pile(pos)),
                     (heights_of(players.sim.cubes[0]), heights_of(players.sim.cubes[1])))
    return read(pixels_of(players.devices.leds), pos, at_hand)


def hand(players: DemoPlayers, table: TowersTable, actions: tuple) -> None:
    """The demo's hand: fetch the first block the pads ask for, or take the block read off
    the LEDs (from its pad or the hand) and let it down where they show."""
    if isinstance(actions[0], Choose):
        pad = next(i for i, b in enumerate(players.pads) if b is None)
        for i, colour in sorted(pad_colours(players).items()):
            if players.pads[i] is None and colour == _colour(table.position, actions[0].block):
                pad = i
                break
        players.set_pad(pad, actions[0].block)
        return
    place = next(a for a in actions if isinstance(a, Place))
    pos = table.position
    colour = _colour(pos, place.block)
    pads = [i for i, b in enumerate(players.pads) if b is not None and _colour(pos, b) == colour]
    lit_pads = [i for i, c in pad_colours(players).items() if c == colour and i in pads]
    if players.held.get(computer_seat(table)) is not None and \
            _colour(pos, players.held[computer_seat(table)]) == colour:
        del players.held[computer_seat(table)]
    elif lit_pads or pads:
        players.set_pad((lit_pads or pads)[0], None)
    players.sim.place(place.tower.index, place.cells)
    if all(z >= LEVELS for *_, z in place.cells):  # above the rods: say so with the button
        players.devices.buttons.press(computer_seat(table).value)


def again(players: DemoPlayers, table: TowersTable, actions: tuple) -> None:
    """The demo's hand, its move made and not taken yet: a block above the rods is said
    again with the button (its press may have come while the table still read the pads)."""
    place = next((a for a in actions if isinstance(a, Place)), None)
    if place is not None and all(z >= LEVELS for *_, z in place.cells):
        players.devices.buttons.press(computer_seat(table).value)


def pad_colours(players: DemoPlayers) -> dict[int, str | None]:
    """Each zone pad's LED as the simulated strip shows it now, as a block colour's name
    (None: dark or no block's colour)."""
    shown: dict[int, str | None] = {}
    for pad in (0, 1):
        rgb = players.devices.leds[("zone", "", pad)]
        near = min(palette.BLOCKS, key=lambda name: sum(
            (a - b) ** 2 for a, b in zip(palette.BLOCKS[name], rgb, strict=True)))
        far = sum((a - b) ** 2 for a, b in zip(palette.BLOCKS[near], rgb, strict=True))
        shown[pad] = near if far < 3 * 30 ** 2 and any(rgb) else None
    return shown
