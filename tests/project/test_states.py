"""A table's state is a value: the product compares it with ``TableState`` members, never
with a word typed again (a typo there is no error, only a branch never taken)."""

from __future__ import annotations

import ast
import itertools

from tests.support import ROOT

LAYERS = ("engine", "hardware", "firmware")


def _words(node: ast.expr) -> bool:
    """A string, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and bool(node.elts) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)


def _is_state(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "state"


def string_state_tests(source: str) -> list[int]:
    """The lines where ``<x>.state`` is compared with words."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any((_is_state(a) and _words(b)) or (_words(a) and _is_state(b))
                   for a, b in itertools.pairwise(sides)):
                found.append(node.lineno)
    return found


def test_the_scan_sees_each_form():
    seen = string_state_tests('t.state == "play"\n"over" != t.state\n'
                              't.state in ("setup", "play")\nt.state not in {"over"}\n'
                              't.state == TableState.play\nt.phase == "play"\n')
    assert seen == [1, 2, 3, 4]


def test_no_product_code_compares_a_table_state_with_words():
    found = {f"{path.relative_to(ROOT)}:{line}": path
             for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py"))
             for line in string_state_tests(path.read_text("utf-8"))}
    assert not found, f"compare the state with TableState's members: {sorted(found)}"


def test_the_states_are_their_words():
    """Events and the page carry the word; the member is that word."""
    from firmware.core.table_state import TableState
    from firmware.towers.table_state import TowersTableState

    for state in (*TableState, *TowersTableState):
        assert state == state.name and str(state) == state.name
