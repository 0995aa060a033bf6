"""A table is wired once, when it is made: what surrounds it (its lock, listeners, buzzer,
what is known of the devices) is one value given at construction (``Surroundings``) and
handed to the next table, never assigned onto a table afterwards."""

from __future__ import annotations

import ast

from tests.support import ROOT

AROUND = {"emit", "beep", "lock", "missing", "scanner", "confirm", "solo", "pin", "pin_dir",
          "command_runner"}
"""What used to be assigned onto a made table (or its settler) from outside: its far seat
(``solo``) too, which a resumed game once set from its journal, the service's PIN (``pin``,
``pin_dir``), which `obelisk run` once set after the service was ready, and the runner of
its commands, which the command socket once set (each command now carries its runner, and
the service tells its ``after_input`` listeners)."""


def _own(base: ast.expr) -> bool:
    """``self`` (a class's own setup) or the surroundings themselves (what they keep)."""
    return (isinstance(base, ast.Name) and base.id in ("self", "around")) or (
        isinstance(base, ast.Attribute) and base.attr == "around")


def assignments_onto_tables(source: str) -> list[str]:
    """``x.emit = ...`` and the like, for any ``x`` but ``self`` and the surroundings."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            for each in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(each, ast.Attribute) and each.attr in AROUND \
                        and not _own(each.value):
                    found.append(f"{node.lineno}: .{each.attr}")
    return found


def test_the_scan_sees_each_form():
    seen = assignments_onto_tables("table.emit = f\ntable.lock, table.beep = a, b\n"
                                   "self.table.missing = []\ntable.settler.confirm = g\n"
                                   "self.emit = f\nx.other = 1\naround.missing = []\n"
                                   "self.table.around.scanner = {}\n")
    assert seen == ["1: .emit", "2: .lock", "2: .beep", "3: .missing", "4: .confirm"]


def test_no_product_code_wires_a_table_after_it_is_made():
    found = [f"{path.relative_to(ROOT)}:{line}"
             for path in sorted((ROOT / "firmware").rglob("*.py"))
             for line in assignments_onto_tables(path.read_text("utf-8"))]
    assert not found, f"give these to the table's Surroundings at construction: {found}"
