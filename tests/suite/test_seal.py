"""The suite never finds, reads or changes a person's own tables (``support.seal``).

A person may well run the tests beside a table they play: an ``obelisk play`` keeps its game
under ``~/.local/state/obelisk/play/GAME`` and serves its page on port 8080, and commands such
as ``obelisk diag`` and ``obelisk games`` look there when no --state-dir is typed. Every run
of the suite moves those places into a directory of its own first; the last test here proves
it the hard way, with a live table of every game in a person's home.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from firmware.service.command_socket import send
from firmware.store.state_dir import (
    SERVICE_STATE_ENV,
    default_state_dir,
    play_state_dir,
    service_state_dir,
    table_dirs,
)
from tests.support import ROOT
from tests.support.play import Play
from tests.support.plugin import the_seal
from tests.support.processes import alive, until

GAMES = ("towers", "stones", "highrise", "maze")
PERSONS_PORT = 8080
"""The port ``obelisk play`` and ``obelisk web`` serve on unless told."""

TOUCHING_DEFAULTS = ("tests/service/test_diag.py", "tests/hardware/test_missing_hardware.py",
                     "tests/sim/test_play_defaults.py", "tests/store/test_history.py",
                     "tests/cli/test_cli.py", "tests/suite/test_seal.py::"
                     "test_every_place_a_command_looks_is_the_runs_own")
"""The modules whose commands look in the default places when no --state-dir is typed:
``obelisk diag --profile`` (which once found a person's live table and talked to it),
``obelisk play`` without a directory, ``obelisk pin``, ``watch`` and ``games``."""


def test_every_place_a_command_looks_is_the_runs_own():
    seal = the_seal()
    assert Path.home() == seal.home and os.environ["HOME"] == str(seal.home)
    own = [default_state_dir(), play_state_dir("towers"), service_state_dir(), *table_dirs()]
    assert all(seal.root in place.parents for place in own), own
    assert service_state_dir() == seal.service_dir != Path("/var/lib/obelisk")
    if seal.user_home not in ("", "/"):
        assert not any(Path(seal.user_home) in (place, *place.parents) for place in own), own


def _snapshot(home: Path) -> dict[str, tuple]:
    """Every file under ``home``: its size, its time of change and what it holds; a log
    (which a running table writes on its own) as the lines it holds."""
    return {str(path.relative_to(home)): (
        tuple(path.read_text("utf-8", errors="replace").splitlines()) if path.suffix == ".log"
        else (path.stat().st_size, path.stat().st_mtime_ns,
              hashlib.sha256(path.read_bytes()).hexdigest()))
        for path in sorted(home.rglob("*")) if path.is_file() and not path.is_socket()}


OWN_WORDS = re.compile(r"^INFO \S+: the scanner board measured a scan every ")
"""What a running table logs on its own while nobody touches it: the board's own figures,
each time they change (more often on a busy machine)."""


def _unchanged(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    """What differs between two snapshots, a table's own lines added to its logs aside."""
    changed = [f"{name}: {'gone' if name not in after else 'made'}"
               for name in before.keys() ^ after.keys()]
    for name in before.keys() & after.keys():
        old, new = before[name], after[name]
        if not name.endswith(".log"):
            changed += [f"{name}: written"] if old != new else []
        elif new[:len(old)] != old:
            changed.append(f"{name}: lines changed")
        else:
            changed += [f"{name}: {line}" for line in new[len(old):] if not OWN_WORDS.match(line)]
    return changed


def _settled(home: Path) -> dict[str, tuple]:
    """The snapshot of ``home`` once its tables have done starting (two alike but for the
    tables' own lines, 2 s apart)."""
    last: list[dict | None] = [None]

    def same() -> dict | None:
        now = _snapshot(home)
        if last[0] is not None and not _unchanged(last[0], now):
            return now
        last[0] = now
        time.sleep(2.0)  # a quiet spell, not a wait for an event
        return None

    return until(same, 60, f"the tables in {home} done starting")


def _started_on_8080(play: Play) -> bool:
    """Whether ``play`` serves on 8080 (False: the port was taken before it could bind)."""
    try:
        return bool(play.url)
    except AssertionError as refused:
        if str(PERSONS_PORT) in str(refused):
            return False
        raise


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _answers(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status


@pytest.mark.processes
def test_a_live_table_of_every_game_is_left_alone(tmp_path):
    """A person's home with `obelisk play GAME` running for each game in its default
    directory, towers on port 8080 (unless something else of theirs holds it): the tests
    that look at default places pass inside it, and every table goes on untouched."""
    home = Path(tempfile.mkdtemp(prefix="person-", dir="/tmp"))  # short: sockets live there
    person = {k: v for k, v in os.environ.items()
              if not k.startswith("XDG_") and k != SERVICE_STATE_ENV}
    person["HOME"] = str(home)
    eighty_eighty = _port_free(PERSONS_PORT)
    plays = [Play(game, None, port=PERSONS_PORT if game == "towers" and eighty_eighty else 0,
                  env=person, logs=tmp_path, name=game) for game in GAMES]
    try:
        for play in plays:
            play.start()
        if eighty_eighty and not _started_on_8080(plays[0]):  # another run took it meanwhile
            plays[0] = Play("towers", None, env=person, logs=tmp_path, name="towers-0").start()
            eighty_eighty = False
        urls = [play.url for play in plays]
        if eighty_eighty:
            assert urls[0] == f"http://127.0.0.1:{PERSONS_PORT}/", urls
        assert not _port_free(PERSONS_PORT)  # held: by the person's towers, or by another
        tables = [home / ".local/state/obelisk/play" / game for game in GAMES]
        assert all((table / "pin").is_file() for table in tables), tables
        for table in tables:  # each table's service up, its board read, what to do said
            until(lambda table=table: send(table, {"command": "status"}).get("problem"), 120,
                  f"the table on {table} saying what it waits for")
        before = _settled(home)

        inner = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             *TOUCHING_DEFAULTS], cwd=ROOT, env=person, capture_output=True, text=True,
            timeout=900)
        said = inner.stdout + inner.stderr
        assert inner.returncode == 0, said[-4000:]
        assert " passed" in said and " failed" not in said and " error" not in said, said

        assert not _unchanged(before, _snapshot(home))  # none of theirs written, made, gone
        for play, url in zip(plays, urls, strict=True):
            assert alive(play.process.pid), play.err.read_text()
            assert _answers(url) == 200
    finally:
        for play in plays:
            play.stop()
        shutil.rmtree(home, ignore_errors=True)
