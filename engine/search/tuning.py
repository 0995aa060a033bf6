"""Each game's tuning by its id: the one table from a game to its search module.

A game with a search module of its own (``engine.search.towers`` and the
rest) gets that module's ``TUNING``; any other game, the tests' toy game
included, gets ``DEFAULT``. The modules are imported on first use, since
loading a game's search costs start-up time a table without the computer
need not pay. They import only ``engine.search.base``, never this module,
so the lookup and the games form no circle.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.search.base import DEFAULT, Tuning


def tuning_for(game_id: str) -> Tuning:
    """The tuning of a game by its id; the default for a game without one."""
    maker = _TUNINGS.get(game_id)
    return DEFAULT if maker is None else maker()


def _towers() -> Tuning:
    from engine.search import towers
    return towers.TUNING


def _stones() -> Tuning:
    from engine.search import stones
    return stones.TUNING


def _maze() -> Tuning:
    from engine.search import maze
    return maze.TUNING


def _highrise() -> Tuning:
    from engine.search import highrise
    return highrise.TUNING


_TUNINGS: dict[str, Callable[[], Tuning]] = {
    "towers": _towers, "stones": _stones, "maze": _maze, "highrise": _highrise,
}
