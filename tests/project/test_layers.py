"""No import circles among the project's modules, and each layer imports only below it.

The layers, lowest first: engine/ (rules), hardware/ (devices and their
twins), firmware/ (the service, web, club and games). Checked on the source
with ``ast``, so nothing is imported to check it.

What counts as an import of module A by module B:

* ``import a.b`` and ``from a.b import name`` name ``a.b``; ``from a import b``
  names ``a.b`` when ``a/b.py`` (or ``a/b/``) is a module, else ``a``.
  Relative imports are resolved against B's package.
* The parent packages Python also runs on the way (``a`` for ``a.b``) do not
  count: a submodule that takes nothing from its package's ``__init__`` works
  whichever is imported first, and counting them would make every package
  that imports its own submodules a circle.
* Imports inside functions count. A lazy import only delays the circle to
  the first call; the two modules still cannot be understood apart.
* Imports under ``if TYPE_CHECKING:`` count too, for circles and layers: they
  never run, but two modules that name each other's types still cannot be
  read apart, and a type from a higher layer is still a dependency on it.
* Imports by a computed name (``importlib.import_module(f"firmware.{game}...")``)
  are not seen: the source does not say which module they reach.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support import ROOT

LAYERS = ("engine", "hardware", "firmware")
"""Lowest first: each may import only from itself and the ones before it."""


@dataclass(frozen=True)
class Edge:
    """One import of one project module by another, as written in the source."""

    source: str
    target: str
    line: int
    names: tuple[str, ...]
    typing_only: bool

    def __str__(self) -> str:
        what = ", ".join(self.names) if self.names else "the module"
        return f"{self.source} -> {self.target} (line {self.line}: {what})"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_sources(root: Path = ROOT) -> dict[str, str]:
    """Every module of the layers, by dotted name, with its source."""
    return {module_name(path, root): path.read_text("utf-8")
            for layer in LAYERS for path in sorted((root / layer).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(nodes: list[ast.AST], typing_only: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """Every import statement in ``nodes`` and below, and whether it is for type checkers only."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, typing_only
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports(node.body, True)
            yield from _imports(node.orelse, typing_only)
        else:
            yield from _imports(list(ast.iter_child_nodes(node)), typing_only)


def _package_of(module: str, is_package: bool, level: int) -> str:
    """The package a relative import of ``level`` dots starts from."""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    return ".".join(parts[:len(parts) - (level - 1)])


def _owner(name: str, modules: set[str]) -> str | None:
    """The project module ``name`` lives in: itself, or the nearest enclosing one."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_edges(sources: dict[str, str], packages: set[str]) -> list[Edge]:
    """Every import of a project module by a project module."""
    modules = set(sources)
    edges = []
    for source, text in sources.items():
        for node, typing_only in _imports(ast.parse(text).body):
            found: dict[str, list[str]] = {}
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.setdefault(_owner(alias.name, modules) or "", [])
            else:
                base = node.module or ""
                if node.level:
                    package = _package_of(source, source in packages, node.level)
                    base = f"{package}.{base}" if base else package
                for alias in node.names:
                    whole = f"{base}.{alias.name}"
                    target = whole if whole in modules else _owner(base, modules)
                    found.setdefault(target or "", []).append(alias.name)
            for target, names in found.items():
                if target:
                    edges.append(Edge(source, target, node.lineno, tuple(names), typing_only))
    return edges


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components, iteratively (the graph is deep enough to worry recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def _a_cycle(start: str, members: set[str], by_pair: dict[tuple[str, str], Edge]) -> list[Edge]:
    """The shortest way from ``start`` back to itself inside one component (breadth first)."""
    leaving: dict[str, list[Edge]] = {}
    for (source, target), edge in sorted(by_pair.items()):
        if source in members and target in members:
            leaving.setdefault(source, []).append(edge)
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following = []
        for edge in (e for node in frontier for e in leaving.get(node, [])):
            if edge.target == start:
                path = [edge]
                while path[0].source != start:
                    path.insert(0, came[path[0].source])
                return path
            if edge.target not in came:
                came[edge.target] = edge
                following.append(edge.target)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")


def circles(sources: dict[str, str], packages: set[str]) -> list[str]:
    """Each import circle, told as one cycle through it with what each step imports."""
    by_pair: dict[tuple[str, str], Edge] = {}
    for edge in import_edges(sources, packages):
        by_pair.setdefault((edge.source, edge.target), edge)
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for source, target in by_pair:
        graph[source].add(target)
    found = []
    for component in strongly_connected(graph):
        if len(component) == 1 and component[0] not in graph[component[0]]:
            continue
        cycle = _a_cycle(component[0], set(component), by_pair)
        told = " -> ".join([cycle[0].source] + [e.target for e in cycle])
        steps = "".join(f"\n    {edge}" for edge in cycle)
        others = sorted(set(component) - {e.source for e in cycle})
        also = f"\n    (also in circles with these: {', '.join(others)})" if others else ""
        found.append(f"{told}{steps}{also}")
    return found


def layer_breaches(sources: dict[str, str], packages: set[str]) -> list[str]:
    """Each import of a higher layer by a lower one."""
    rank = {layer: n for n, layer in enumerate(LAYERS)}
    return [str(edge) for edge in import_edges(sources, packages)
            if rank[edge.target.split(".")[0]] > rank[edge.source.split(".")[0]]]


INSIDE = {
    "hardware": (("hardware",), ("hardware.sim",), ("hardware.devices", "hardware.readout")),
    "firmware": (
        ("firmware.contract", "firmware.games",  # what a game declares, and the registry
         "firmware.typed",  # (how the person typed the command, for hints)
         "firmware.sent_json"),  # (JSON sent from outside, read alike on every Python)
        ("firmware.store",),  # journal, sealed facts, finished games, the state directory
        ("firmware.core",),  # the table core: its machine, settling, events, lights
        ("firmware.seats",  # the far seats: the computer, the other table of a match
         "firmware.match.seat", "firmware.match.asks", "firmware.match.negotiation",
         "firmware.match.negotiation_values", "firmware.match.negotiation_dicts",
         "firmware.match.far_clock"),
        ("firmware.service",  # the process: the loop, the stream, commands, the PIN
         "firmware.match.commands"),  # (the match's commands among them)
        ("firmware.readers",  # the terminal, the page and the club
         "firmware.match"),  # (a match's link between its table and the broker)
        ("firmware.sim",),  # the demos, a person's hands, obelisk play's processes
        ("firmware.towers", "firmware.stones", "firmware.highrise", "firmware.maze"),
        ("firmware",),  # the command line and obelisk run, which put it all together
    ),
}
"""Within a layer, lowest first: the real devices below their simulated twins (and the
assembly of a profile's devices, real or simulated, above both); the firmware's store,
table core, far seats, service process, readers, simulation, games and entry points. A
match (``firmware.match``) spans three levels, each module at its own: the other table's
seat and the asks with the far seats, the service's match commands with the service, the
rest (the link) with the readers.
Each imports only its own level and those before it (the registry loads a game's package,
which imports only the contract, by the name its declaration is listed under)."""


def _level(module: str) -> int:
    """A module's place within its layer: the longest prefix of ``INSIDE`` it falls under."""
    levels = INSIDE.get(module.split(".")[0], ())
    found = [(len(prefix), n) for n, group in enumerate(levels) for prefix in group
             if module == prefix or module.startswith(prefix + ".")]
    return max(found)[1] if found else 0


def level_breaches(sources: dict[str, str], packages: set[str]) -> list[str]:
    """Each import of a higher level by a lower one within the same layer."""
    return [str(edge) for edge in import_edges(sources, packages)
            if edge.source.split(".")[0] == edge.target.split(".")[0]
            and _level(edge.target) > _level(edge.source)]


def _packages(root: Path = ROOT) -> set[str]:
    return {module_name(path, root) for layer in LAYERS
            for path in (root / layer).rglob("__init__.py")}


def test_the_sources_were_found() -> None:
    sources = project_sources()
    assert {"engine.core", "hardware.sim.table", "firmware.service.loop"} <= set(sources)
    assert len(sources) > 100


def test_no_import_circles() -> None:
    found = circles(project_sources(), _packages())
    assert not found, "import circles:\n" + "\n".join(found)


def test_each_layer_imports_only_below_it() -> None:
    found = layer_breaches(project_sources(), _packages())
    assert not found, "imports of a higher layer:\n" + "\n".join(found)


def test_within_a_layer_each_level_imports_only_below_it() -> None:
    found = level_breaches(project_sources(), _packages())
    assert not found, "imports of a higher level within a layer:\n" + "\n".join(found)


def test_the_level_check_catches_the_store_reaching_into_the_service() -> None:
    sources = {"firmware": "", "firmware.store": "", "firmware.service": "",
               "firmware.store.journal": "from firmware.core.table import Table\n",
               "firmware.core.table": "from firmware.store.journal import Journal\n",
               "hardware": "", "hardware.sim": "", "hardware.leds": "import hardware.sim.table\n",
               "hardware.sim.table": "from hardware.leds import RecordingPixels\n"}
    packages = {"firmware", "firmware.store", "firmware.service", "hardware", "hardware.sim"}
    assert level_breaches(sources, packages) == [
        "firmware.store.journal -> firmware.core.table (line 1: Table)",
        "hardware.leds -> hardware.sim.table (line 1: the module)"]


def test_a_match_sits_at_three_levels_and_its_seat_may_not_reach_its_link() -> None:
    """The match's seat and asks are far seats, its commands the service's, its link a
    reader's: the seat importing the link (or the commands) is an import upward."""
    assert _level("firmware.match.seat") == _level("firmware.match.asks") == \
        _level("firmware.seats.solo")
    assert _level("firmware.match.commands") == _level("firmware.service.loop")
    assert _level("firmware.match.link") == _level("firmware.match") == \
        _level("firmware.readers.club.publisher")
    sources = {"firmware": "", "firmware.match": "",
               "firmware.match.seat": "from firmware.match.link import Link\n",
               "firmware.match.commands": "from firmware.match.seat import MatchSeat\n",
               "firmware.match.link": "from firmware.service import command_socket\n",
               "firmware.service": "", "firmware.service.command_socket": ""}
    packages = {"firmware", "firmware.match", "firmware.service"}
    assert level_breaches(sources, packages) == [
        "firmware.match.seat -> firmware.match.link (line 1: Link)"]


def test_hardware_loads_no_module_by_a_computed_name() -> None:
    """``ast`` sees no import by a computed name: hardware loading a game's module that way
    (the simulated board once loaded ``firmware.<game>.hands``) would go up a layer unseen."""
    loads = [name for name, text in project_sources().items()
             if name.startswith("hardware.") and not name.startswith("hardware.scanner.")
             and ("import_module(" in text or "__import__(" in text)]
    assert loads == [], loads  # (the scanner board's code.py imports CircuitPython's own)


def test_the_checks_catch_a_circle_and_a_breach() -> None:
    sources = {
        "engine": "",
        "engine.a": "from engine.b import thing\n",
        "engine.b": "def f():\n    from engine import c\n",
        "engine.c": "from . import a\n",
        "engine.d": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from engine.e import E\n    import firmware.x\n"),
        "engine.e": "import engine.d\n",
        "firmware": "",
        "firmware.x": "from engine.a import thing\n",
    }
    packages = {"engine", "firmware"}
    found = circles(sources, packages)
    assert len(found) == 2
    assert found[0].startswith("engine.a -> engine.b -> engine.c -> engine.a")
    assert "line 2: c" in found[0] and "line 1: thing" in found[0]
    assert found[1].startswith("engine.d -> engine.e -> engine.d")  # a type's import too
    breaches = layer_breaches(sources, packages)
    assert breaches == ["engine.d -> firmware.x (line 4: the module)"]
