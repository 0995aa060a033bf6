"""Each game's one declaration: every part it names resolves to the kind of thing it must be.

A part is named in the declaration once and imported when first asked for,
so a misspelt name would only fail when that part was first used; here every
declared part of every game (the toy's too) is imported and checked.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import typing

import pytest

from engine.reading import Reading
from firmware.contract import GameType
from firmware.core.table import Table
from firmware.games import DECLARED, EXTRA, GAMES, NotAGame, declared
from tests.support import ROOT
from tests.support.toy import registered

registered()
ALL = sorted(GAMES)


@pytest.mark.parametrize("game_id", ALL)
def test_every_declared_part_resolves_to_its_kind(game_id):
    game = GAMES[game_id]
    for field, ref in game.parts().items():
        assert game.resolve(ref) is not None, f"{game_id}.{field} = {ref!r}"
    assert issubclass(game.table_class(), Table)
    # the seats' names the terminal and the page say are those the table says (the maze's)
    assert (game.seat_names() or Table.SEATS) == game.table_class().SEATS
    options = game.options()
    engine = game.make(options)
    assert engine.new_initial_state() is not None
    assert isinstance(game.rules_text(engine), str) and game.rules_text(engine)
    to_dict, from_dict = game.codec()
    assert callable(to_dict) and callable(from_dict)
    for part in (game.view_of(), game.run_demo(), game.draw()):
        assert callable(part)
    assert game.opponent_tuning().simulations(1) > 0
    hands = game.hands_class()
    assert hands is None or inspect.isclass(hands)
    if hands is not None:  # the board keeps what they did across restarts (issue 32)
        assert all(callable(getattr(hands, name, None))
                   for name in ("act", "look", "physical", "restore"))


@pytest.mark.parametrize("game_id", ALL)
def test_every_game_says_what_a_reading_means_and_the_core_alone_acts_on_it(game_id):
    """A game's table answers one question, ``_reading(view) -> Reading``; the decision
    (repair, choice, takeback, play) is the core's, written once."""
    table = GAMES[game_id].table_class()
    own = {name for cls in table.__mro__[:table.__mro__.index(Table)] for name in vars(cls)}
    assert "_reading" in own
    assert not own & {"_decide", "_read_settled"}, f"{game_id} decides a reading itself"
    assert typing.get_type_hints(table._reading)["return"] is Reading


def test_the_registry_holds_the_declarations_and_nothing_else():
    for package in DECLARED:
        game = declared(package)
        assert isinstance(game, GameType) and GAMES[game.id] is game
        assert game.package == package


def test_a_package_without_a_declaration_is_refused_in_words():
    with pytest.raises(NotAGame, match="tests holds no GAME = GameType"):
        declared("tests")


@pytest.mark.processes
def test_a_game_named_in_the_environment_plays_and_a_wrong_name_is_said_not_thrown(
        tmp_path):
    """``OBELISK_GAMES`` is how processes find a game kept outside the tree (the toy)."""
    env = {**os.environ, EXTRA: "tests.support.toy, no.such.game"}
    got = subprocess.run([sys.executable, "-m", "firmware.cli", "rules", "noughts"], env=env,
                         cwd=ROOT, capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert "three in a row" in got.stdout.lower()
    assert "OBELISK_GAMES names no.such.game, which is left out" in got.stderr
    assert "Traceback" not in got.stderr


def test_the_page_modules_a_game_declares_are_the_pages_own():
    """A declared ``page`` is a module the page's table.js draws with (its ``MODULES``), and a
    ``hands_page`` a module with a hands panel: a typo fails here, not on a phone."""
    static = ROOT / "firmware" / "readers" / "web" / "static"
    table_js = (static / "table.js").read_text("utf-8")
    modules = table_js.split("export const MODULES = {", 1)[1].split("}", 1)[0]
    drawn = {name.strip() for name in modules.split(",")}
    for game in GAMES.values():
        assert game.page == "" or game.page in drawn, (game.id, game.page, drawn)
        hands = static / f"{game.hands_page}.js"
        assert "export function drawHands" in hands.read_text("utf-8"), (game.id, hands)


def test_the_page_hears_which_module_draws_a_game_from_its_declaration(tmp_path):
    from firmware.readers.web.follow import dressed

    for game in GAMES.values():
        shown = dressed({"event": "options", "game": game.id, "options": {}}, None)
        assert shown["page"] == game.page
    assert "page" not in dressed({"event": "notice", "message": "hello"}, None)
