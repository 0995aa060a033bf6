"""Write the docs drawn from the code, so that they cannot drift from it.

    .venv/bin/python tools/make_docs.py           # rewrite them
    .venv/bin/python tools/make_docs.py --check   # say which differ, exit 1 if any

- docs/reference.md: every ``obelisk`` command and option, from the argument parser
  (``firmware.cli_parser.build_parser``), written out by hand here rather than by
  argparse's help, whose layout changes between Python versions;
- docs/state-machine.md: the table's state machine, drawn by ``transitions`` from the
  machine every game's table runs (``firmware.core.table``) and from the towers
  table's, which adds the coin toss;
- docs/modules.md, and the folders' table in docs/architecture.md ("Where things are"):
  every package and module of engine/, hardware/ and firmware/, each in the words of its
  own docstring's first paragraph, so a module added, moved or renamed is in them at once.

tests/docs/test_docs.py fails when a checked-in file differs from what this makes.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

COMMAND = ".venv/bin/python tools/make_docs.py"


@contextlib.contextmanager
def declared_games_only() -> Iterator[None]:
    """The registry as the project declares it: a game a test registered (the toy) is left
    out while the docs are drawn, and put back after."""
    from firmware.games import DECLARED, GAMES

    kept = dict(GAMES)
    for game_id, game in kept.items():
        if game.package not in DECLARED:
            del GAMES[game_id]
    try:
        yield
    finally:
        GAMES.clear()
        GAMES.update(kept)


# ------------------------------------------------------------------ the command reference


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """A parser's subcommands: (name, help, parser), in the order it lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _leaves(parser: argparse.ArgumentParser, words: list[str],
            help_text: str = "") -> Iterator[tuple[list[str], str, argparse.ArgumentParser]]:
    """Every command a person types in full, with its help, depth first."""
    subs = _subcommands(parser)
    if not subs:
        yield words, help_text, parser
    for name, sub_help, sub in subs:
        yield from _leaves(sub, [*words, name], sub_help)


def _shown(action: argparse.Action) -> str:
    """An argument as a person types it: ``--seed SEED``, ``--solo A|B``, ``GAME``."""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        value = "|".join(str(c) for c in action.choices)
    elif isinstance(action.metavar, str):
        value = action.metavar
    else:
        value = action.dest.upper()
    if not action.option_strings:
        return value
    takes_value = action.nargs != 0
    return " ".join([action.option_strings[-1], value] if takes_value else
                    [action.option_strings[-1]])


def _help(action: argparse.Action, prog: str) -> str:
    """The argument's help with its ``%(default)s`` filled in, as argparse fills it."""
    params = {**vars(action), "prog": prog}
    if action.choices is not None:
        params["choices"] = ", ".join(str(c) for c in action.choices)
    return (action.help or "") % params


def _arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions
            if a.help != argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)]


def _usage(words: list[str], arguments: list[argparse.Action]) -> str:
    parts = [" ".join(words)]
    for action in arguments:
        shown = _shown(action)
        parts.append(shown if (action.required or not action.option_strings) else f"[{shown}]")
    return " ".join(parts)


def _command(words: list[str], help_text: str, parser: argparse.ArgumentParser) -> list[str]:
    arguments = _arguments(parser)
    lines = [f"## {' '.join(words)}", ""]
    for text in (help_text, parser.description):
        if text:
            lines += [_sentence(text), ""]
    lines += [f"`{_usage(words, arguments)}`", ""]
    for action in arguments:
        lines.append(f"- `{_shown(action)}`: {_help(action, parser.prog)}")
    return [*lines, ""]


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def reference() -> str:
    """docs/reference.md: every command and option, from the parser itself."""
    from firmware.cli_parser import build_parser

    with declared_games_only():
        parser = build_parser()
    lines = [
        "# Command reference",
        "",
        "Every `obelisk` command and what each option does, as the command line itself",
        "reads them. This page is generated from the argument parser",
        f"(`firmware/cli_parser.py`) by `{COMMAND}`; do not edit it by hand:",
        "`tests/docs/test_docs.py` fails when it differs from what the parser says.",
        "",
        "Every command also takes `--help`, which prints the same, and",
        "`obelisk --version` prints the version. A bad option is refused in one line with",
        "exit status 2.",
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    leaves = list(_leaves(parser, ["obelisk"]))
    for words, help_text, _ in leaves:
        name = " ".join(words)
        cell = help_text.replace("|", "\\|")  # a bar would end the table's cell
        lines.append(f"| [`{name}`](#{_anchor(name)}) | {cell} |")
    lines.append("")
    for words, help_text, sub in leaves:
        lines += _command(words, help_text, sub)
    return "\n".join(lines).rstrip("\n") + "\n"


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading of plain words."""
    return heading.lower().replace(" ", "-")


# ------------------------------------------------------------------ the state machine


def _diagram(states: tuple[StrEnum, ...], transitions: tuple[dict, ...], title: str) -> str:
    """A machine as a Mermaid state diagram, drawn by ``transitions`` (as
    ``firmware.towers.table.state_diagram`` draws the towers table's)."""
    from transitions.extensions import GraphMachine  # only needed for the picture

    class _Model:
        pass

    machine = GraphMachine(model=_Model(), states=list(states),
                           transitions=[dict(t) for t in transitions], initial=states[0],
                           auto_transitions=False, graph_engine="mermaid", title=title)
    lines = machine.get_graph().draw(None).splitlines()
    keep = [line for line in lines if "classDef" not in line and "Class " not in line]
    return "\n".join(line for line in keep if line.strip()) + "\n"


def state_machines() -> str:
    """docs/state-machine.md: the core machine, and the towers table's with its toss."""
    from firmware.core.table import CORE_STATES, CORE_TRANSITIONS
    from firmware.games import GAMES
    from firmware.towers.table import state_diagram

    with declared_games_only():
        extra = {g.id: g.table_class().EXTRA_STATES for g in GAMES.values()}
    same = [f"`{game}`" for game, states in extra.items() if not states]
    adds = [f"`{game}` adds {_join([f'`{s}`' for s in states])}"
            for game, states in extra.items() if states]
    return "\n".join([
        "# The table's state machine",
        "",
        "What the table is doing at any moment, and what moves it on. Every game's table is",
        "a `transitions` machine on the core in `firmware/core/table.py`; these pictures",
        "are drawn by `transitions` itself from the machines the service runs, by",
        f"`{COMMAND}`, so they cannot drift (`tests/docs/test_docs.py` checks them).",
        "",
        f"{_join(same)} play on the core machine as it is; {_join(adds)}.",
        "",
        "## Every game's table",
        "",
        "```mermaid",
        _diagram(CORE_STATES, CORE_TRANSITIONS, "Every game's table").rstrip("\n"),
        "```",
        "",
        "## The towers table",
        "",
        "Pressing a player button on a clear table starts the coin toss (`begin`); the",
        "light running round both rings stops on the first player (`tossed`).",
        "",
        "```mermaid",
        state_diagram().rstrip("\n"),
        "```",
        "",
        "What each state means: `setup` waits for the pieces to be set out and a player",
        "button; `play` reads each settled sensor view as a move; `choose` lights the",
        "candidates when more than one action fits what the sensors saw (a press steps, a",
        "hold plays); `repair` waits while something on the table breaks the rules, one fix",
        "at a time; `paused` freezes the hourglass (the menu button); `over` shows the result",
        "until a player's press sets up the next game. See [running.md](running.md) for how",
        "the service around it reads the sensors and keeps the journal.",
        "",
    ])


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# ------------------------------------------------------------------ where things are

LAYERS = ("engine", "hardware", "firmware")
FOLDERS_BEGIN = "<!-- the folders: drawn by tools/make_docs.py from their docstrings -->"
FOLDERS_END = "<!-- end of the folders -->"


def _summary(path: Path) -> str:
    """A module's own words for itself: its docstring's first paragraph, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
    first = doc.strip().split("\n\n")[0]
    return " ".join(first.split()).replace("|", "\\|")


def packages() -> list[Path]:
    """Every package of the product, folders before what they hold."""
    found = [init.parent for layer in LAYERS for init in (ROOT / layer).rglob("__init__.py")
             if "static" not in init.parts]
    return sorted(found, key=lambda folder: folder.relative_to(ROOT).parts)


def _where(path: Path) -> str:
    return f"{path.relative_to(ROOT).as_posix()}/"


def modules() -> str:
    """docs/modules.md: every product module, folder by folder, in its own words."""
    lines = ["# Every module", "",
             "Each package of `engine/`, `hardware/` and `firmware/` and each module in it, in the",
             "words of its own docstring (the first paragraph), drawn by",
             f"`{COMMAND}`: a module added, moved or renamed is here at once, and",
             "`tests/docs/test_docs.py` fails on a page that is not what the code says now.",
             "The layers and the way data goes through them are in",
             "[architecture.md](architecture.md).", ""]
    for folder in packages():
        lines += [f"## {_where(folder)}", "", _summary(folder / "__init__.py"), "",
                  "| module | what it is |", "|---|---|"]
        lines += [f"| `{module.name}` | {_summary(module)} |"
                  for module in sorted(folder.glob("*.py")) if module.name != "__init__.py"]
        lines.append("")
    return "\n".join(lines)


def _anchor_of_folder(folder: Path) -> str:
    """GitHub's anchor for the heading ``engine/towers/``: its slashes dropped."""
    return _where(folder).lower().replace("/", "")


def folders_table() -> str:
    """The folders' rows of docs/architecture.md's "Where things are"."""
    rows = ["| where | holds |", "|---|---|"]
    rows += [f"| [`{_where(folder)}`](modules.md#{_anchor_of_folder(folder)}) | "
             f"{_summary(folder / '__init__.py')} |" for folder in packages()]
    return "\n".join(rows)


def architecture() -> str:
    """docs/architecture.md with its folders' table drawn again (the rest is by hand)."""
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    head, found, rest = text.partition(FOLDERS_BEGIN)
    _, ended, tail = rest.partition(FOLDERS_END)
    if not (found and ended):
        raise SystemExit(f"docs/architecture.md has lost its markers {FOLDERS_BEGIN!r} and "
                         f"{FOLDERS_END!r}: put them back around the folders' table")
    return f"{head}{FOLDERS_BEGIN}\n{folders_table()}\n{FOLDERS_END}{tail}"


# ------------------------------------------------------------------ the files


def generated() -> dict[Path, str]:
    """Each generated doc and what it should hold now."""
    return {ROOT / "docs" / "reference.md": reference(),
            ROOT / "docs" / "state-machine.md": state_machines(),
            ROOT / "docs" / "modules.md": modules(),
            ROOT / "docs" / "architecture.md": architecture()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the docs drawn from the code.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; say which files differ and exit 1 if any does")
    args = parser.parse_args(argv)
    stale = []
    for path, text in generated().items():
        old = path.read_text("utf-8") if path.exists() else None
        if old == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.write_text(text, "utf-8")
    verb = "differs from the code" if args.check else "rewritten"
    for path in stale:
        print(f"{path}: {verb}")
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
