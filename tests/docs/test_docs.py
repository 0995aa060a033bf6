"""The docs say what is true: every link resolves, every command parses, the runnable ones run.

- README.md is short (a new owner reads it in two minutes), its first two commands are
  the ones .ci/run relies on, and it links every page of docs/.
- Every internal link and picture of README.md, docs/*.md and hardware/README.md points
  at a file that exists, and every ``#anchor`` at a heading of it.
- Every ``obelisk ...`` line of a code block parses with the real parser; every
  ``obelisk ...`` named in the text names commands and options that exist; every path
  named in code (``firmware/...``) exists; every ``bench/...`` command names a bench
  and options it takes.
- Blocks fenced as ```` ```sh runnable ```` run, line by line, on the simulated table
  (a path under /tmp/ runs under the test's own temporary directory).
- docs/reference.md and docs/state-machine.md are what tools/make_docs.py draws from the
  code now.
- Every section of docs/benchmarks.md that gives figures names the command behind them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
HARDWARE_DOCS = sorted((ROOT / "hardware").glob("*.md"))
PAGES = [README, *DOCS, ROOT / "hardware" / "README.md"]
README_MOST_LINES = 120

sys.path.insert(0, str(ROOT))
from tools import make_docs  # noqa: E402


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ reading markdown


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # where its first line is, counted from 1
    info: str  # the fence's info string ("sh runnable"); "" for an indented block
    lines: tuple[str, ...]


def _blocks_and_prose(page: Path) -> tuple[list[Block], list[tuple[int, str]]]:
    """The page's code blocks (fenced and indented), and its other lines with their
    numbers."""
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    lines = page.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^(\s*)(```+|~~~+)(.*)$", line)
        if fence:
            end = next((j for j in range(i + 1, len(lines))
                        if lines[j].strip().startswith(fence.group(2))), len(lines))
            blocks.append(Block(page, i + 2, fence.group(3).strip(), tuple(lines[i + 1:end])))
            i = end + 1
            continue
        if line.startswith("    ") and (i == 0 or not lines[i - 1].strip()) \
                and not _inside_list(lines, i):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            blocks.append(Block(page, i + 1, "", tuple(x[4:] for x in lines[i:j])))
            i = j
            continue
        prose.append((i + 1, line))
        i += 1
    return blocks, prose


def _inside_list(lines: list[str], i: int) -> bool:
    """An indented line after a blank one continues a list item, not a code block, when
    the paragraph before the blank is a list item's (markdown's lazy continuation)."""
    k = i - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    while k >= 0 and lines[k].strip():
        if re.match(r"^\s*([-*]|\d+\.)\s", lines[k]):
            return True
        if not lines[k].startswith(" "):
            return False
        k -= 1
    return False


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in _blocks_and_prose(page)[1]:
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            slug = _slug(heading.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
                  r"|(?:src|href)=\"([^\"]+)\"")


def _paragraphs(page: Path) -> list[tuple[int, str]]:
    """The page's text (not its code) as paragraphs, each with the line it starts on: a
    link or a code span may run over a line's end. Table rows and headings stand alone."""
    paragraphs: list[tuple[int, str]] = []
    last = -1
    for number, line in _blocks_and_prose(page)[1]:
        alone = line.lstrip().startswith(("|", "#"))
        if line.strip() and number == last + 1 and paragraphs and not alone \
                and not paragraphs[-1][1].lstrip().startswith(("|", "#")):
            paragraphs[-1] = (paragraphs[-1][0], f"{paragraphs[-1][1]} {line.strip()}")
        elif line.strip():
            paragraphs.append((number, line))
        last = number
    return paragraphs


def links(page: Path) -> list[tuple[int, str]]:
    """Every link and picture of the page's text (not of its code), with its line."""
    found = []
    for number, text in _paragraphs(page):
        text = re.sub(r"`[^`]*`", "", text)
        for match in LINK.finditer(text):
            found.append((number, match.group(1) or match.group(2)))
    return found


def _spans(page: Path) -> list[tuple[int, str]]:
    """Every inline code span of the page's text, with the line its paragraph starts on."""
    return [(number, span) for number, text in _paragraphs(page)
            for span in re.findall(r"`([^`]+)`", text)]


# ------------------------------------------------------------------ README


def test_the_readme_reads_in_two_minutes():
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, (
        f"README.md has {len(lines)} lines; keep it to {README_MOST_LINES} and move the "
        "rest to a page of docs/")


def _ci_test_command() -> str:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    return re.search(r"^test_command='(.*)'$", ci, re.M).group(1)


def test_the_readmes_first_two_commands_are_the_demo_and_what_ci_runs():
    blocks, _ = _blocks_and_prose(README)
    commands = [line.strip() for block in blocks for line in block.lines if line.strip()]
    assert commands[:2] == ["./setup.sh && .venv/bin/obelisk demo towers", _ci_test_command()]


def test_the_readme_links_every_page_of_the_docs():
    linked = {(README.parent / target.split("#")[0]).resolve()
              for _, target in links(README) if not re.match(r"^[a-z]+:", target)}
    missing = [_rel(page) for page in DOCS if page.resolve() not in linked]
    assert not missing, f"README.md links no way to {missing}"


# ------------------------------------------------------------------ links


def _all_links() -> list[tuple[Path, int, str]]:
    return [(page, number, target) for page in PAGES for number, target in links(page)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]


def test_every_internal_link_resolves():
    broken = []
    for page, number, target in _all_links():
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{_rel(page)}:{number}: {target} (no such file)")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{_rel(page)}:{number}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_link_checker_sees_links_and_anchors(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text("# The page's title\n\n## `obelisk play`: no table\n\nsee [x](other.md#a-b),"
                    " ![p](pic.png) and <img src=\"pic2.png\">\n\n```\n[not](code.md)\n```\n",
                    "utf-8")
    assert anchors(page) == {"the-pages-title", "obelisk-play-no-table"}
    assert [t for _, t in links(page)] == ["other.md#a-b", "pic.png", "pic2.png"]
    page.write_text("run `obelisk demo\ntowers` and [the\nreference](reference.md)\n\n"
                    "    obelisk games\n", "utf-8")
    assert _spans(page) == [(1, "obelisk demo towers")]
    assert links(page) == [(1, "reference.md")]
    assert _blocks_and_prose(page)[0][0].lines == ("obelisk games",)


# ------------------------------------------------------------------ commands


@pytest.fixture(scope="module")
def parser() -> argparse.ArgumentParser:
    from firmware.cli_parser import build_parser

    with make_docs.declared_games_only():
        return build_parser()


@pytest.fixture(scope="module")
def toy_parser() -> argparse.ArgumentParser:
    """The parser with the tests' toy game too, for a page that names OBELISK_GAMES."""
    from firmware.cli_parser import build_parser
    from tests.support.toy import registered

    registered()
    return build_parser()


def _parser_for(page: Path, parser, toy_parser) -> argparse.ArgumentParser:
    return toy_parser if "OBELISK_GAMES=tests.support.toy" in page.read_text("utf-8") else parser


def _segments(line: str) -> list[list[str]]:
    """The commands of a shell line (split at &&, ||, ; and |), each as its words."""
    line = line.split(" #")[0]
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return []
    segments: list[list[str]] = [[]]
    for word in words:
        if word in ("&&", "||", ";", "|"):
            segments.append([])
        else:
            segments[-1].append(word)
    return [s for s in segments if s]


SHELL = ("", "sh", "bash", "console")
"""The fences whose lines are shell commands (``text``, ``toml``, ``mermaid`` are not)."""


def _command_words(words: list[str]) -> list[str]:
    """A command's words without the variables set before it (``A=1 obelisk ...``)."""
    while words and re.match(r"^[A-Z_]+=", words[0]):
        words = words[1:]
    return words


def _obelisk_lines(block: Block) -> list[tuple[int, list[str]]]:
    found = []
    for offset, line in enumerate(block.lines):
        for words in map(_command_words, _segments(line)):
            if words and (words[0] == "obelisk" or words[0].endswith("/obelisk")):
                found.append((block.line + offset, words[1:]))
    return found


def _parses(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """None if the parser takes these words, else what it said."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(argv)
    except SystemExit as exit_:
        return None if exit_.code == 0 else err.getvalue().strip().splitlines()[-1]
    except argparse.ArgumentTypeError as exc:
        return str(exc)
    return None


def test_every_obelisk_line_of_the_docs_parses(parser, toy_parser):
    bad = []
    for page in PAGES:
        page_parser = _parser_for(page, parser, toy_parser)
        for block in _blocks_and_prose(page)[0]:
            if " ".join(block.info.split()[:1]) not in SHELL:
                continue
            for number, argv in _obelisk_lines(block):
                said = _parses(page_parser, argv)
                if said is not None:
                    bad.append(f"{_rel(page)}:{number}: obelisk {' '.join(argv)}: {said}")
    assert not bad, "\n".join(bad)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings}


def _named_command(parser: argparse.ArgumentParser, words: list[str]) -> str | None:
    """None if ``obelisk WORDS`` names commands and options that exist (values and
    placeholders such as GAME, RxC or [--seed N] aside), else what is wrong."""
    options = _options(parser)
    chain = [parser]
    for word in words:
        subs = _subparsers(chain[-1])
        if word.startswith("--") or word.startswith("[--"):
            continue
        if subs and word in subs:
            chain.append(subs[word])
            options |= _options(subs[word])
        elif subs and (word.isupper() or "|" in word or "<" in word):
            options |= {o for sub in subs.values() for o in _options(sub)}
            chain.append(argparse.ArgumentParser())  # a placeholder: any of them
        elif subs:
            return f"no command {word!r} (there are: {', '.join(subs)})"
    flags = set(re.findall(r"--[a-z][a-z0-9-]*", " ".join(words)))
    unknown = sorted(flags - options)
    return f"no option {', '.join(unknown)}" if unknown else None


def test_every_obelisk_command_named_in_the_text_exists(parser, toy_parser):
    bad = []
    for page in PAGES:
        page_parser = _parser_for(page, parser, toy_parser)
        for number, span in _spans(page):
            words = _command_words(span.split())
            if words and (words[0] == "obelisk" or words[0].endswith("/obelisk")):
                said = _named_command(page_parser, words[1:])
                if said:
                    bad.append(f"{_rel(page)}:{number}: `{span}`: {said}")
    assert not bad, "\n".join(bad)


def test_the_command_checker_catches_what_does_not_exist(parser):
    assert _named_command(parser, ["demo", "towers", "[--seed", "N]", "[--speed", "X]"]) is None
    assert _named_command(parser, ["demo", "GAME", "--remote", "friday"]) is None
    assert _named_command(parser, ["play", "towers|stones", "--solo", "A|B"]) is None
    assert "no command" in _named_command(parser, ["replay", "towers"])
    assert "--colour" in _named_command(parser, ["demo", "towers", "--colour"])
    assert _parses(parser, ["demo", "towers", "--speed", "500"]) is not None
    assert _parses(parser, ["rules", "stones", "--size", "6x4"]) is None


PATH = re.compile(r"^(?:engine|hardware|firmware|tests|bench|tools|systemd|docs|\.ci)/"
                  r"[\w./-]*$")


def test_every_path_the_docs_name_exists():
    missing = []
    for page in PAGES:
        for number, span in _spans(page):
            for word in span.split():
                word = word.rstrip(",;:)")
                if PATH.match(word) and not (ROOT / word).exists():
                    missing.append(f"{_rel(page)}:{number}: {word}")
    assert not missing, "\n".join(missing)


# ------------------------------------------------------------------ the benches


def _bench_lines() -> list[tuple[Path, int, list[str]]]:
    found = []
    for page in PAGES:
        for block in _blocks_and_prose(page)[0]:
            for offset, line in enumerate(block.lines):
                for words in _segments(line):
                    bench = [w for w in words if w.startswith("bench/") and w.endswith(".py")]
                    if bench:
                        found.append((page, block.line + offset,
                                      words[words.index(bench[0]):]))
    return found


def _bench_options(script: Path) -> set[str]:
    """The options a bench takes: its own, and those of the bench modules it imports."""
    text = script.read_text("utf-8")
    modules = {script, *(script.parent / f"{name}.py" for name in
                         re.findall(r"^(?:from|import) (\w+)", text, re.M))}
    found = {"--help"}
    for module in (m for m in modules if m.exists()):
        source = module.read_text("utf-8")
        found |= set(re.findall(r"add_argument\(\s*\"(--[a-z0-9-]+)\"", source))
        if "def add_option" in source:
            found |= set(re.findall(r"\"(--[a-z0-9-]+)\"", source))
    return found


def test_every_bench_command_the_docs_name_exists():
    bad = []
    for page, number, words in _bench_lines():
        script = ROOT / words[0]
        if not script.exists():
            bad.append(f"{_rel(page)}:{number}: no {words[0]}")
            continue
        unknown = {w.split("=")[0] for w in words[1:] if w.startswith("--")} \
            - _bench_options(script)
        if unknown:
            bad.append(f"{_rel(page)}:{number}: {words[0]} takes no {sorted(unknown)}")
    assert not bad, "\n".join(bad)


def _sections(page: Path) -> list[tuple[str, str]]:
    """The page's ``##`` sections: (heading, text)."""
    parts = re.split(r"^## (.*)$", page.read_text("utf-8"), flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_every_figure_of_the_benchmarks_names_its_command():
    page = ROOT / "docs" / "benchmarks.md"
    sections = _sections(page)
    assert len(sections) >= 8, "docs/benchmarks.md: a section per bench"
    blind = [heading for heading, text in sections
             if re.search(r"\d+(\.\d+)? ?(ms|s|%|MB|per second)\b", text)
             and not re.search(r"^ {4}\.venv/bin/python (bench|-m pytest)|^\.venv/bin/python "
                               r"(bench|-m pytest)|^ {4}tools/[\w-]+\.sh ", text, re.M)]
    assert not blind, f"sections with figures and no command: {blind}"


PLACEHOLDER = re.compile(r"^[A-Z0-9_]{4,}$|\b(TODO|TBD|XXX)\b")
"""A line left to be filled in: a bare word in capitals standing for text to come."""


def test_no_page_keeps_a_placeholder():
    left = [f"{_rel(page)}:{n}" for page in (README, *DOCS, *HARDWARE_DOCS)
            for n, line in enumerate(page.read_text("utf-8").splitlines(), 1)
            if PLACEHOLDER.search(line.strip())]
    assert not left, f"text still to be written at {left}"
    assert PLACEHOLDER.search("FIGURES") and not PLACEHOLDER.search("OBELISK_DRAW_DOCS=1")


def test_the_benchmarks_keep_no_story():
    text = (ROOT / "docs" / "benchmarks.md").read_text("utf-8")
    story = [w for w in ("this round", "last round", "previous round", "until this round",
                         "first full run", "past runs") if w in text.lower()]
    assert not story, f"docs/benchmarks.md tells how figures were reached: {story}"


# ------------------------------------------------------------------ generated pages


@pytest.mark.parametrize("name", ["reference.md", "state-machine.md", "modules.md",
                                  "architecture.md"])
def test_the_generated_pages_are_what_the_code_says_now(name):
    path = ROOT / "docs" / name
    wanted = make_docs.generated()[path]
    assert path.exists() and path.read_text("utf-8") == wanted, (
        f"docs/{name} is stale: run {make_docs.COMMAND}")


def test_every_product_module_says_what_it_is():
    """docs/modules.md is drawn from the modules' own docstrings: none may be silent."""
    silent = [_rel(module) for folder in make_docs.packages()
              for module in sorted(folder.glob("*.py"))
              if not make_docs._summary(module)]
    assert not silent, f"modules with no docstring to say what they are: {silent}"


def test_the_folders_table_follows_a_new_package(tmp_path, monkeypatch):
    """A package added to the product is in docs/architecture.md's table at once."""
    made = tmp_path / "firmware" / "newcomer"
    made.mkdir(parents=True)
    (made / "__init__.py").write_text('"""A package made by this test."""\n', "utf-8")
    monkeypatch.setattr(make_docs, "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.md").write_text(
        f"before\n{make_docs.FOLDERS_BEGIN}\nstale rows\n{make_docs.FOLDERS_END}\nafter\n", "utf-8")
    drawn = make_docs.architecture()
    assert "| [`firmware/newcomer/`](modules.md#firmwarenewcomer) | A package made by this " \
           "test. |" in drawn
    assert drawn.startswith("before\n") and drawn.endswith("after\n") and "stale rows" not in drawn


def test_the_reference_names_every_command(parser):
    text = (ROOT / "docs" / "reference.md").read_text("utf-8")
    for name in _subparsers(parser):
        assert f"## obelisk {name}" in text


# ------------------------------------------------------------------ runnable blocks


def _runnable() -> list[Block]:
    return [block for page in PAGES for block in _blocks_and_prose(page)[0]
            if block.info.split()[:2] == ["sh", "runnable"]]


def test_some_blocks_are_runnable():
    assert len(_runnable()) >= 2


def _argv(words: list[str], tmp: Path) -> list[str]:
    """A doc's command as this test runs it: with this interpreter, paths under /tmp/ in
    the test's own directory."""
    words = [str(tmp / w.removeprefix("/tmp/")) if w.startswith("/tmp/") else w for w in words]
    if words[0] == "obelisk" or words[0].endswith("/obelisk"):
        return [sys.executable, "-m", "firmware.cli", *words[1:]]
    if words[0].endswith("/python"):
        return [sys.executable, *words[1:]]
    raise AssertionError(f"a runnable line runs obelisk or python, not {words[0]}")


@pytest.mark.processes
@pytest.mark.parametrize("block", _runnable(),
                         ids=lambda b: f"{_rel(b.page)}:{b.line}")
def test_the_runnable_blocks_run(block: Block, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    env.pop("OBELISK_GAMES", None)
    for offset, line in enumerate(block.lines):
        for words in _segments(line):
            done = subprocess.run(_argv(words, tmp_path), cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=120)
            where = f"{_rel(block.page)}:{block.line + offset}: {line}"
            assert done.returncode == 0, f"{where}\n{done.stdout[-2000:]}{done.stderr}"
            assert "Traceback" not in done.stderr, f"{where}\n{done.stderr}"
