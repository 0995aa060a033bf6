"""Towers played alone: the computer's blocks on the zone pads, and where they go.

When the computer chooses, the empty zone pads light in the colours of the
blocks it wants from the pile; when it takes, the pad carrying the block it
takes lights in that block's colour (the other goes dark); wherever its
block (or a black block it gives) goes, the rods it covers light on that
tower. The person fetches and places them; the table checks each as any
placement (by colour on the pads, by shape and cubes on the rods). The
computer declines a black block by itself (no hands needed). The shared part
is ``firmware/solo.py``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.players import Player
from engine.towers.game import Choose, Decline, Phase, Place, Take
from engine.towers.tower import LEVELS, WIDTH, cells_text
from firmware import palette
from firmware.solo import asks, notation, shade, shown
from firmware.solo import searched as _same_position

__all__ = ["asks", "differs", "hand", "hands_free", "lights", "notation", "same", "searched",
           "shown", "together", "where", "words"]


def together(first: Any, state: Any) -> bool:
    """Both zone blocks are chosen in one go, and a take with the placement it makes."""
    return state.turn == first.turn and first.phase in (Phase.CHOOSE, Phase.TAKE)


def searched(state: Any, seat: Player) -> Any:
    """While both place (or both earned a bonus), the search plays ``seat``'s part first."""
    if state.phase is Phase.PLACE and state.current_player() is not seat:
        hands = [None, None]
        hands[seat.index] = state.hands[seat.index]
        return dataclasses.replace(state, hands=(hands[0], hands[1]))
    if state.phase is Phase.BONUS and state.bonus and state.bonus[0] is not seat:
        return dataclasses.replace(state, bonus=(seat,))
    return _same_position(state, seat)


def hands_free(action: Any) -> bool:
    return isinstance(action, Decline)


def same(pos: Any, wanted: Any, made: Any) -> bool:
    """Blocks in the zone are told by colour; a placement by tower, kind and cubes."""
    if type(wanted) is not type(made):
        return False
    if isinstance(wanted, Choose | Take):
        return pos.block(wanted.block).colour is pos.block(made.block).colour
    if isinstance(wanted, Place):
        return (wanted.tower is made.tower and wanted.cells == made.cells
                and pos.block(wanted.block).kind == pos.block(made.block).kind)
    return wanted == made


def _colour(pos: Any, block: str) -> str:
    return pos.block(block).colour.label


def words(pos: Any, actions: tuple) -> str:
    out = []
    for a in actions:
        if isinstance(a, Choose):
            out.append(f"put a {_colour(pos, a.block)} block from the pile on a zone pad")
        elif isinstance(a, Take):
            out.append(f"take the {_colour(pos, a.block)} block from the zone")
        elif isinstance(a, Place):
            out.append(f"place the {_colour(pos, a.block)} block ({a.block}) on tower "
                       f"{a.tower.value} at {cells_text(a.cells)}")
        else:
            out.append(str(a))
    return "; ".join(out)


def where(pos: Any, actions: tuple) -> list[str]:
    out = []
    for a in actions:
        if isinstance(a, Choose | Take):
            out.append(f"zone: {_colour(pos, a.block)}")
        elif isinstance(a, Place):
            out.append(f"tower {a.tower.value}: {cells_text(a.cells)}")
    return out


def differs(pos: Any, asked: tuple, made: Any) -> str:
    """What differs, in the player's words, and how to put it right."""
    wanted = words(pos, asked)
    if isinstance(made, Choose):
        return (f"the computer asked to {wanted}, not a {_colour(pos, made.block)} one: put "
                "it back in the pile and fetch the lit colour")
    if isinstance(made, Place):
        kind = next((a for a in asked if isinstance(a, Place)), None)
        if kind is not None and kind.tower is made.tower and \
                pos.block(kind.block).colour is not pos.block(made.block).colour:
            return (f"the computer asked to {wanted}, not the {_colour(pos, made.block)} "
                    "block: lift it off and place the lit one")
        return (f"the computer asked to {wanted}; this block is at {cells_text(made.cells)}: "
                "lift it off and place it on the lit rods")
    return f"the computer asked to {wanted}, not to {made}: put it back as it was"


def lights(table: Any, leds: dict, actions: tuple, seat: Player, *, asked: bool) -> None:
    """Pads in the wanted blocks' colours; the rods the block covers on its tower."""
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
            pad = next((i for i, c in enumerate(zone) if c is want), None)
            for i in range(len(zone)):
                leds[("zone", "", i)] = palette.OFF
            if pad is not None:
                leds[("zone", "", pad)] = palette.BLOCKS[want.label]
        elif isinstance(a, Place):
            for rod in range(WIDTH * WIDTH):
                leds[("tower", a.tower.value, rod)] = palette.OFF
            for x, y, _ in a.cells:
                leds[("tower", a.tower.value, y * WIDTH + x)] = to


def hand(players: Any, table: Any, actions: tuple) -> None:
    """The demo's hand: fetch the colours the pads show, or take the lit pad's block and
    place it where the asked placement says (its cubes are in the asked event's words)."""
    pos = table.position
    if isinstance(actions[0], Choose):
        for pad, shown in pad_colours(players).items():
            if players.pads[pad] is None and shown is not None:
                block = next(b for b in players._physical_pile(pos) if _colour(pos, b) == shown)
                players._pad(pad, block)
                return
        return
    place = next(a for a in actions if isinstance(a, Place))
    if pos.block(place.block).colour.label != "black":
        colour = pos.block(place.block).colour
        pad = next(i for i, b in enumerate(players.pads) if b and pos.block(b).colour is colour)
        players._pad(pad, None)
    players.sim.place(place.tower.index, place.cells)
    if all(z >= LEVELS for *_, z in place.cells):  # above the rods: say so with the button
        players.devices.buttons.press(table.solo.seat.value)


def pad_colours(players: Any) -> dict[int, str | None]:
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
