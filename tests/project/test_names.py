"""One meaning per name: no two product classes share a name, except each game's own kinds
(every game's engine has its ``Phase`` or ``Place``, every game's table its ``Hands``)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from firmware.games import DECLARED
from tests.support import ROOT

LAYERS = ("engine", "hardware", "firmware")


GAMES_HERE = {package.rsplit(".", 1)[-1] for package in DECLARED}


def _game_of(path: Path) -> str | None:
    """The game whose own package holds ``path`` (engine/<game>/ or firmware/<game>/)."""
    parts = path.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[1] in GAMES_HERE else None


def shared_names(classes: dict[str, list[Path]]) -> dict[str, list[str]]:
    """The names given to more than one class, but for one kind in each game's own package."""
    shared = {}
    for name, where in classes.items():
        games = [_game_of(path) for path in where]
        if len(where) > 1 and not (None not in games and len(set(games)) == len(games)):
            shared[name] = sorted(str(path.relative_to(ROOT)) for path in where)
    return shared


def test_no_two_product_classes_share_a_name():
    classes: dict[str, list[Path]] = defaultdict(list)
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ClassDef):
                    classes[node.name].append(path)
    assert not shared_names(classes), shared_names(classes)


def test_the_check_tells_a_games_own_kind_from_a_clash():
    towers, stones = ROOT / "engine/towers/a.py", ROOT / "engine/stones/a.py"
    web, store = ROOT / "firmware/readers/web/a.py", ROOT / "firmware/store/a.py"
    assert shared_names({"Phase": [towers, stones], "Kept": [web, store],
                         "Twice": [towers, towers]}) == {
        "Kept": ["firmware/readers/web/a.py", "firmware/store/a.py"],
        "Twice": ["engine/towers/a.py", "engine/towers/a.py"]}
