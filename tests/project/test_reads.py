"""Every file the table reads goes through the one bounded reader (``hardware/files.py``).

A file a person, a drive or another program can put in the table's way may be a named pipe
(opened the usual way, it waits for a writer for ever), a link to /dev/zero (it never ends)
or a huge sparse file (it takes a Pi Zero's memory). ``read_limited`` opens without blocking,
checks the open file is a regular one and reads no further than its kind may be. This test
reads the product's own source and fails on any other read of a file: ``open`` for reading,
``read_text``, ``read_bytes``, ``json.load`` and ``tomllib.load`` of a file. The few left
are named below, each with why it needs no bound.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import ROOT

LAYERS = ("engine", "hardware", "firmware")
READS = {"read_text", "read_bytes"}
LOADS = {("json", "load"), ("tomllib", "load"), ("pickle", "load"), ("marshal", "load")}

ALLOWED = {
    ("hardware/files.py", "read_limited"): "the bounded reader itself",
    ("firmware/sim/play.py", "last_line"): "the play's own logs, made by it in its state "
    "directory and kept under their cap (LOG_CAP); read from where this run's part began",
    ("firmware/sim/play.py", "_said"): "the same logs, while the play starts",
}
"""(module, function): why a read there needs no bound."""


def _packaged(node: ast.AST) -> bool:
    """A read of a file shipped inside the installed package (``importlib.resources``): the
    project's own data, never a file someone put in the table's way."""
    return "resources.files" in ast.unparse(node)


def _reading_mode(mode: ast.expr | None) -> bool:
    """Whether an open's mode reads (no mode: it reads; one not written out: it may)."""
    if mode is None:
        return True
    text = str(mode.value) if isinstance(mode, ast.Constant) else "r"
    return "r" in text or "+" in text


def _mode_word(node: ast.expr) -> bool:
    """A constant that is an open's mode ("rb", "w"...), not some other word."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and \
        0 < len(node.value) <= 3 and set(node.value) <= set("rwxabt+")


def _opens_to_read(call: ast.Call) -> bool:
    """``open(path[, mode])``, ``io.open``, ``os.fdopen``, and a path's own ``open([mode])``
    (``Path.open``), each in a mode that reads."""
    func, keyword = call.func, next((k.value for k in call.keywords if k.arg == "mode"), None)
    if isinstance(func, ast.Name) and func.id in ("open", "fdopen"):
        return _reading_mode(call.args[1] if len(call.args) > 1 else keyword)
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value.id if isinstance(func.value, ast.Name) else ""
    if func.attr == "fdopen" or (func.attr == "open" and owner == "io"):
        return _reading_mode(call.args[1] if len(call.args) > 1 else keyword)
    if func.attr == "open" and owner != "os" and (
            _mode_word(call.args[0]) if call.args else _a_path(func.value)):
        return _reading_mode(call.args[0] if call.args else keyword)  # Path.open()
    return False


def _a_path(node: ast.expr) -> bool:
    """Whether an expression reads as a path (``dir / "x"``, ``Path(...)``, ``log_path``),
    not a server or a state directory whose ``open()`` starts something."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return True
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "Path"
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else ""
    return any(word in name.lower() for word in ("path", "file"))


class _Reads(ast.NodeVisitor):
    """Each read of a file, with the function it is in (the innermost)."""

    def __init__(self) -> None:
        self.functions = ["<module>"]
        self.found: list[tuple[int, str, str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        read = isinstance(func, ast.Attribute) and func.attr in READS
        load = (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and (func.value.id, func.attr) in LOADS)
        if (read or load or _opens_to_read(node)) and not _packaged(node):
            self.found.append((node.lineno, self.functions[-1], ast.unparse(node)[:80]))
        self.generic_visit(node)


def _reads(path: Path) -> list[tuple[int, str, str]]:
    """(line, function, call) of each read of a file in ``path`` outside the bounded reader."""
    reads = _Reads()
    reads.visit(ast.parse(path.read_text("utf-8")))
    return reads.found


def test_every_file_the_table_reads_goes_through_the_bounded_reader():
    found = set()
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            module = str(path.relative_to(ROOT))
            for line, function, call in _reads(path):
                if (module, function) not in ALLOWED:
                    found.add(f"{module}:{line} in {function}: {call}")
    assert not found, ("read these with hardware.files.read_limited (or name why not in "
                       "ALLOWED):\n" + "\n".join(sorted(found)))


def test_the_check_sees_each_kind_of_read(tmp_path):
    """Each form of read is caught, a write or a packaged file is not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import json, tomllib\nfrom importlib import resources\n"
        "def a(p):\n    return p.read_text()\n"
        "def b(p):\n    return p.read_bytes()\n"
        "def c(p):\n    with open(p) as f:\n        return json.load(f)\n"
        "def d(p):\n    with open(p, 'rb') as f:\n        return tomllib.load(f)\n"
        "def e(p):\n    with open(p, 'ab') as f:\n        f.write(b'x')\n"
        "def g():\n    return resources.files('engine').joinpath('x').read_text()\n"
        "def h(p):\n    with p.open('rb') as f:\n        return f.read()\n"
        "def j(log_path):\n    with log_path.open() as f:\n        return f.read()\n"
        "def k(server):\n    return server.open()\n"
        "def i(d):\n    return d.open(f'obelisk run on {d}')\n")
    functions = {function for _, function, _ in _reads(sample)}
    assert functions == {"a", "b", "c", "d", "h", "j"}, functions
    assert len(_reads(sample)) == 8  # c and d: the open and the load
    for module, _ in ALLOWED:
        assert (ROOT / module).is_file(), module
