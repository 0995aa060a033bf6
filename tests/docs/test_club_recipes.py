"""docs/clubs.md's recipes for a match work as written: the commands of each code block are
run as a person would type them, with only what must differ on a test machine put in their
place (the broker's address, the state directories, the pages' ports): the two tables find
each other, and the moves of one reach the other with both journals agreeing."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.processes import OBELISK, free_port, until

CLUBS = ROOT / "docs" / "clubs.md"


def _block_after(words: str) -> list[list[str]]:
    """The commands of the first code block after the paragraph holding ``words``."""
    text = CLUBS.read_text("utf-8")
    at = text.index(words)
    block = re.search(r"\n\n((?: {4}\S.*\n)+)", text[at:])
    assert block, f"docs/clubs.md: no code block after {words!r}"
    return [shlex.split(line.split("#")[0]) for line in block.group(1).splitlines()
            if line.strip()]


def _local(command: list[str], broker: str, dirs: dict[str, Path]) -> list[str]:
    """The command as typed, with this machine's broker, the test's directories and free
    ports in place of the recipe's."""
    out = []
    for word in command:
        if word.startswith("mqtt://"):
            word = broker
        elif word in dirs:
            word = str(dirs[word])
        out.append(word)
    if out[0] == "obelisk":
        out[0] = OBELISK
    if "--port" in out:
        out[out.index("--port") + 1] = str(free_port())
    return out


def _actions(where: Path) -> list[dict]:
    path = where / "journal.jsonl"
    if not path.exists():
        return []
    return [e.get("action") for e in map(json.loads, path.read_text().splitlines())
            if e.get("t") == "action"]


def _run(commands: list[list[str]], logs: Path) -> list[subprocess.Popen]:
    started = []
    for n, command in enumerate(commands):
        with open(logs / f"{n}.log", "w") as out:
            started.append(subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT))
    return started


def _stop(started: list[subprocess.Popen]) -> None:
    for process in started:
        process.terminate()
    for process in started:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _agree(a: Path, b: Path) -> None:
    """Moves were made, and both journals hold the same ones (the shorter a prefix of the
    longer: a move is on its way)."""
    def same() -> bool:
        mine, theirs = _actions(a), _actions(b)
        short = min(len(mine), len(theirs))
        return short >= 4 and mine[:short] == theirs[:short]

    until(same, 120, "both tables' journals holding the same first moves")


@pytest.mark.processes
def test_two_demos_and_their_links_play_one_match_as_the_docs_say(broker, tmp_path):
    commands = _block_after("plays a match with bots at")
    assert [c[1] for c in commands] == ["demo", "remote", "demo", "remote"], commands
    dirs = {"/tmp/demo-a": tmp_path / "a", "/tmp/demo-b": tmp_path / "b"}
    local = [_local(c, broker.url, dirs) for c in commands]
    for command in local:
        if command[1] == "demo":
            command += ["--speed", "50", "--json"]  # a bot's pace: a few moves soon
    started = _run(local, tmp_path)
    try:
        _agree(tmp_path / "a", tmp_path / "b")
        for n in (1, 3):  # each link found the other table, by the name the docs gave it
            until(lambda n=n: "playing the table" in (tmp_path / f"{n}.log").read_text(), 30,
                  f"link {n} naming the other table")
        assert "'demo-b'" in (tmp_path / "1.log").read_text()
        assert "'demo-a'" in (tmp_path / "3.log").read_text()
    finally:
        _stop(started)
    assert not any("Traceback" in (tmp_path / f"{n}.log").read_text() for n in range(4))


@pytest.mark.processes
def test_two_plays_on_one_machine_start_and_find_each_other_as_the_docs_say(broker, tmp_path):
    commands = _block_after("On one machine, in two terminals")
    assert [c[1] for c in commands] == ["play", "play"], commands
    dirs = {"/tmp/table-a": tmp_path / "a", "/tmp/table-b": tmp_path / "b"}
    local = [[*_local(c, broker.url, dirs), "--address", "127.0.0.1"] for c in commands]
    started = _run(local, tmp_path)
    try:
        for seat in "ab":
            until(lambda s=seat: "playing the table" in ((tmp_path / s / "link.log").read_text()
                                                          if (tmp_path / s / "link.log").exists()
                                                          else ""),
                  60, f"table {seat}'s link finding the other table")
        assert all(p.poll() is None for p in started), "a table stopped"
        said = (tmp_path / "0.log").read_text() + (tmp_path / "1.log").read_text()
        assert said.count("open http://127.0.0.1:") == 2, said  # two pages, two ports
    finally:
        _stop(started)
