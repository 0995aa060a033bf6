"""The games a ``new`` command may set up, and its options read as the command line reads them.

The page's form offers what ``games()`` lists (each game, its seats' names and its options
as flags); ``options_of`` turns the form's choices into the game's options, or refuses them
in the words ``obelisk run`` would use.
"""

from __future__ import annotations

import argparse

from firmware.contract import GameType
from firmware.games import GAMES
from firmware.service.commands import CommandRefused


def options_of(game: GameType, given: tuple[tuple[str, object], ...]) -> object:
    """A game's options from the page's form: each named as its flag (``hourglass``,
    ``size``, ``sudden_death``), read as the command line reads it."""
    flags = {f.dest: f for f in game.flags}
    chosen: dict[str, object] = {}
    for key, value in given:
        flag = flags.get(key)
        if flag is None:
            raise CommandRefused(f"{game.id} has no option {key!r} (its options: "
                                 f"{', '.join(flags) or 'none'})")
        if flag.switch:
            if type(value) is not bool:
                raise CommandRefused(f"{key} is on or off (true or false)")
            parsed: object = value
        else:
            text = str(value)
            try:
                parsed = flag.type(text) if flag.type is not None else text
            except (argparse.ArgumentTypeError, ValueError) as exc:
                words = str(exc) if isinstance(exc, argparse.ArgumentTypeError) else \
                    f"{text!r} is not a value of {key}"
                raise CommandRefused(words) from None
            if flag.choices is not None and parsed not in flag.choices:
                raise CommandRefused(f"{key} is one of {', '.join(map(str, flag.choices))}, "
                                     f"not {text}")
        chosen.update(flag.values(parsed))
    try:
        return game.options_with(chosen)
    except argparse.ArgumentTypeError as exc:
        raise CommandRefused(str(exc)) from None


def games() -> dict:
    """Every game, its options and its seats' names ({} where they are player A and B) as
    the page's form offers them."""
    return {game.id: {"help": game.help, "seats": game.seat_names(), "options": [
        {"name": f.dest, "flag": f.name, "label": f.label, "help": f.help, "switch": f.switch,
         "choices": [str(c) for c in f.choices] if f.choices else None,
         "metavar": f.metavar} for f in game.flags]} for game in GAMES.values()}
