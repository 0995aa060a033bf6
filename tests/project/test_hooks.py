"""A game's table says what differs through the declared hooks alone
(``firmware.core.hooks.GameHooks``): it overrides nothing else of the core, so the core's
own workings (its tick, start, machine callbacks, events) stay the core's."""

from __future__ import annotations

import inspect

from firmware.core.hooks import HOOKS
from firmware.core.table import Table
from firmware.games import GAMES
from tests.support.toy.table import NoughtsTable

SET_BY_THE_CORE = {"STATES", "TRANSITIONS"}
"""What ``Table.__init_subclass__`` writes onto every game's class (its machine)."""


def _core_names() -> set[str]:
    return {name for klass in Table.__mro__ if klass.__module__.startswith("firmware.core")
            for name in (*vars(klass), *inspect.get_annotations(klass))}


def overrides_outside_the_hooks(table_class: type) -> list[str]:
    """The core's names a game's table class (and its own bases) defines again, beyond the
    declared hooks."""
    core = _core_names()
    own = {name for klass in table_class.__mro__
           if not klass.__module__.startswith(("firmware.core", "transitions", "typing",
                                               "builtins"))
           for name in vars(klass)}
    return sorted(name for name in own & core if not name.startswith("__")
                  and name not in SET_BY_THE_CORE | HOOKS)


def _tables() -> dict[str, type]:
    return {**{game_id: spec.table_class() for game_id, spec in GAMES.items()},
            "toy": NoughtsTable}


def test_every_games_table_overrides_only_declared_hooks() -> None:
    found = {game: names for game, table in _tables().items()
             if (names := overrides_outside_the_hooks(table))}
    assert not found, f"override only firmware.core.hooks.GameHooks: {found}"


def test_the_check_catches_a_game_reaching_into_the_core() -> None:
    class Reaching(NoughtsTable):
        def tick(self, now: float) -> None:  # the core's own
            super().tick(now)

        def _lose_turn(self) -> None:  # the game's own: not the core's
            pass

        def _words(self, action: object, pos: object = None) -> str:  # a hook
            return ""

    assert overrides_outside_the_hooks(Reaching) == ["tick"]


def test_each_hook_has_the_cores_default_or_is_declared_by_every_game() -> None:
    """A hook the core does not answer is one every game must (its record, its LEDs)."""
    core = _core_names()
    missing = sorted(HOOKS - core)
    assert missing == [], missing
    for table in _tables().values():
        assert callable(table.draw_leds) and table.record is not None
