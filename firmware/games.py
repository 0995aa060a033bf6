"""The one registry of games: the declarations of every game the table plays.

Each game declares itself once, in its own package, as a ``GameType``
(``firmware.contract``): its flags and where each of its parts is. This
registry reads those declarations and nothing else; the command line, the
service, the pages, the benches and the tests find a game's parts through
it. Adding a game is its package and one line in ``DECLARED``.

A game kept outside this tree (the tests' toy game) is named in the
``OBELISK_GAMES`` environment variable, packages separated by commas, so
that the processes ``obelisk play`` starts find it too.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from firmware.contract import Flag, GameType

DECLARED = ("firmware.towers", "firmware.stones", "firmware.highrise", "firmware.maze")
"""The packages whose ``GAME`` the table plays, in the order menus list them."""

EXTRA = "OBELISK_GAMES"
"""The environment variable naming more game packages (``tests.support.toy``)."""


class NotAGame(LookupError):
    """A package named as a game that holds no declaration."""


def declared(package: str) -> GameType:
    """The declaration a game package holds, as its ``GAME``."""
    game = getattr(importlib.import_module(package), "GAME", None)
    if not isinstance(game, GameType):
        raise NotAGame(f"{package} holds no GAME = GameType(...): it is not a game package")
    return game


def _extra() -> list[GameType]:
    """The games ``OBELISK_GAMES`` names; one that cannot load is left out, and said."""
    games = []
    for package in filter(None, (p.strip() for p in os.environ.get(EXTRA, "").split(","))):
        try:
            games.append(declared(package))
        except (ImportError, NotAGame) as exc:
            print(f"obelisk: {EXTRA} names {package}, which is left out: {exc}",
                  file=sys.stderr)
    return games


GAMES: dict[str, GameType] = {game.id: game for game in (*map(declared, DECLARED), *_extra())}

DEFAULT_GAME = "towers"


def register(game: GameType) -> None:
    """Add a declared game to the registry (what each package named here is read for)."""
    GAMES[game.id] = game


def chosen_options(game: GameType, args: argparse.Namespace) -> dict[str, object]:
    """The option fields the person typed flags for (nothing typed: nothing chosen).

    A typed flag that belongs to another game is refused, so that ``--turns``
    on a towers table does not pass unnoticed.
    """
    return _typed(game, args, "flags")


def chosen_extras(game: GameType, args: argparse.Namespace) -> dict[str, object]:
    """What the person typed about what the game is made of (``--set``)."""
    return _typed(game, args, "extra_flags")


def chosen_demo(game: GameType, args: argparse.Namespace) -> dict[str, object]:
    """A demo's own choices typed (``--stack-sensors``)."""
    return _typed(game, args, "demo_flags")


def _typed(game: GameType, args: argparse.Namespace, kind: str) -> dict[str, object]:
    mine = {f.dest for f in getattr(game, kind)}
    for other in GAMES.values():
        for f in getattr(other, kind):
            if f.dest not in mine and hasattr(args, f.dest):
                raise argparse.ArgumentTypeError(
                    f"{f.name} is an option of {other.id}, not of {game.id}")
    chosen: dict[str, object] = {}
    for f in getattr(game, kind):
        if hasattr(args, f.dest):
            chosen.update(f.values(getattr(args, f.dest)))
    return chosen


def add_game_flags(parser: argparse.ArgumentParser, games: list[GameType],
                   kinds: tuple[str, ...] = ("flags", "extra_flags")) -> None:
    """The flags of ``games`` on one parser; a flag two games share is added once."""
    helps: dict[str, list[str]] = {}
    flags: dict[str, Flag] = {}
    for game in games:
        for f in (f for kind in kinds for f in getattr(game, kind)):
            flags.setdefault(f.name, f)
            helps.setdefault(f.name, []).append(f.help if len(games) == 1
                                                else f"{game.id}: {f.help}")
    for name, f in flags.items():
        f.add_to(parser, "; ".join(helps[name]))
