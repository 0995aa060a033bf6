"""The tests are laid out as the code is, and each can be found by what it tests.

Each test module sits in the folder of the part it tests (``tests/engine/towers/`` for
``engine/towers/``, ``tests/web/`` for ``firmware/readers/web/``, ``tests/browser/`` for the
page in a browser), named ``test_<module or subject>.py``: never after a round of work. What
tests share lives in ``tests/support/`` and is reached from there or through fixtures, so no
test module imports another (a test module that is also a library breaks when it moves).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support import ROOT

TESTS = ROOT / "tests"
ROUNDS = re.compile(r"\d|trial|round|leftover|promise|issue|misc|extra|more|new|old")
"""What names a round of work (a number, "trial", "leftovers") rather than a subject."""


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "node_modules" not in p.parts)


def _imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_module_imports_a_test_module():
    """Tests, support and benches alike import tests.support, never another test module."""
    importers = [*TESTS.rglob("*.py"), *(ROOT / "bench").glob("*.py"),
                 *(ROOT / "tools").glob("*.py")]
    found = [f"{p.relative_to(ROOT)} imports {name}" for p in importers
             if "node_modules" not in p.parts for name in _imported(p)
             if name.startswith("tests.") and (name.rpartition(".")[2].startswith("test_")
                                               or name == "tests.conftest")]
    assert not found, "\n".join(found)


def test_every_test_module_is_in_a_folder_of_what_it_tests():
    loose = [p.name for p in _test_modules() if p.parent == TESTS]
    assert not loose, f"tests/ holds only folders: move {loose} into the folder of its part"
    assert not list((TESTS / "support").rglob("test_*.py")), "support holds no tests"
    for folder in {p.parent for p in _test_modules()}:
        assert (folder / "__init__.py").is_file(), f"{folder} is not a package"


def test_no_test_module_is_named_after_a_round_of_work():
    named = [str(p.relative_to(TESTS)) for p in _test_modules()
             if ROUNDS.search(p.stem.removeprefix("test_"))]
    assert not named, f"name these after what they test: {named}"


def test_the_folders_mirror_the_code():
    """Each folder of tests names a part of the project (a package of engine/, hardware/ or
    firmware/, a game, or one of the suite's own: the browser, the docs, the project)."""
    parts = {p.name for layer in ("engine", "hardware", "firmware")
             for p in (ROOT / layer).rglob("*") if p.is_dir() and (p / "__init__.py").exists()}
    parts |= {"engine", "hardware", "cli", "core", "browser", "docs", "project", "suite",
              "bench", "web", "club", "match", "seats"}
    folders = {p.relative_to(TESTS).parts[0] for p in _test_modules()}
    assert folders <= parts, sorted(folders - parts)
