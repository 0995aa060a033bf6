"""engine/ stays pure: no I/O, no clock, no threads, no hardware.

Checked on the source itself: every import of every engine module must be on
a short list of pure standard modules, and no built-in that talks to the
outside world may be called.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import ROOT

ENGINE = ROOT / "engine"

PURE_MODULES = {
    "__future__", "collections", "collections.abc", "dataclasses", "enum", "functools",
    "itertools", "math", "textwrap", "tomllib", "typing",
}
OUTSIDE_WORLD_CALLS = {"open", "print", "input", "exec", "eval", "compile", "__import__",
                       "breakpoint"}


def _engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 6, "the engine sources were not found"
    return files


def _imports(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
    return found


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: p.name)
def test_engine_imports_only_pure_modules(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    outside = {m for m in _imports(tree) if not m.startswith("engine") and m not in PURE_MODULES}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def _outside_calls(tree: ast.AST) -> set[str]:
    calls = {node.func.id for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    return calls & OUTSIDE_WORLD_CALLS


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: p.name)
def test_engine_calls_nothing_outside(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    assert not _outside_calls(tree), f"{path.name} calls {_outside_calls(tree)}"


def test_the_checks_catch_an_impure_module() -> None:
    bad = ast.parse("import time\nfrom serial import Serial\nopen('x')\n")
    assert _imports(bad) - PURE_MODULES == {"time", "serial"}
    assert _outside_calls(bad) == {"open"}
