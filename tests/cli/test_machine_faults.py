"""Faults of the machine around the table: full disks, second services, bad files.

Beside the sensor faults of ``bench/faults.py``: here the disk fills up, goes
read-only, a second service starts on the same state directory, a journal
belongs to another game or holds a line that makes no sense, the High Rise
seal key is lost. In each case nothing confirmed is lost, and a person gets
a clear message (exit status 2, which systemd does not restart on), never a
traceback and never silence.

Some tests mount a small tmpfs (root only, as on CI); they are skipped, with
the reason shown, where that is not allowed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.towers.game import TowersGame
from firmware.store.journal import Journal, JournalError
from firmware.store.state_dir import StateDir, StateDirError, write_whole
from firmware.towers.table import TowersTable
from tests.support import ROOT
from tests.support.ahead import started
from tests.support.files import (
    HUNG,
    FillingJournal,
    device,
    fifo,
    folder,
    huge,
    outcome_within,
    readers,
)

pytestmark = pytest.mark.processes

OBELISK = str(Path(sys.executable).parent / "obelisk")


def obelisk(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([OBELISK, *args], capture_output=True, text=True, timeout=timeout,
                          **kwargs)


def refused(run: subprocess.CompletedProcess, *words: str) -> str:
    """A refusal a person can act on: status 2, one clear line, no traceback."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and run.stderr.startswith("obelisk: ")
    for word in words:
        assert word in run.stderr, run.stderr
    return run.stderr


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 256 KiB tmpfs that a test may fill up or make read-only."""
    where = tmp_path / "disk"
    where.mkdir()
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs",
                            str(where)], capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({mount.stderr.strip()}); run as root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk``; delete the returned file to give them back."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (65536, 4096, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return filler


def remount(disk: Path, how: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{how}", str(disk)], check=True)


# ------------------------------------------------------------------ full disk


def test_a_short_write_is_cut_off_and_the_action_is_not_confirmed(tmp_path, monkeypatch):
    """The kernel takes part of a line, then says the disk is full (as a filling disk does)."""
    journal = Journal(tmp_path)
    journal.append({"t": "start", "n": 0})
    real_write = os.write
    calls = []

    def full_after_a_few_bytes(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[:7]))  # a short write, no error yet
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full_after_a_few_bytes)
    with pytest.raises(JournalError, match=r"not recorded.*disk .* is full"):
        journal.append({"t": "action", "n": 1, "action": {"a": "timeout"}})
    monkeypatch.setattr(os, "write", real_write)
    assert len(calls) == 2, "the rest of the line was never tried"
    assert journal.path.read_bytes() == b'{"n":0,"t":"start"}\n'  # the cut line is gone
    journal.append({"t": "action", "n": 1})
    assert [e["n"] for e in journal.read().entries] == [0, 1]


def test_state_files_are_replaced_whole_or_not_at_all(small_disk):
    target = small_disk / "sim-table.json"
    write_whole(target, b'{"old": true}')
    filler = fill(small_disk)
    with pytest.raises(StateDirError, match=r"cannot save .*sim-table\.json: the disk .* is full"):
        write_whole(target, b"x" * 20_000)
    assert target.read_bytes() == b'{"old": true}'        # the old file, whole
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "sim-table.json"]
    filler.unlink()
    write_whole(target, b"x" * 20_000)
    assert target.read_bytes() == b"x" * 20_000


def _events(process: subprocess.Popen, until, deadline: float) -> list[dict]:
    seen = []
    for line in process.stdout:
        seen.append(json.loads(line))
        if until(seen[-1]) or time.monotonic() > deadline:
            break
    return seen


def test_on_a_full_disk_the_table_confirms_only_what_is_written_then_plays_on(small_disk):
    state = small_disk / "state"
    demo = subprocess.Popen([OBELISK, "demo", "stones", "--seed", "3", "--json", "--speed", "50",
                             "--state-dir", str(state)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        events = _events(demo, lambda e: e["event"] == "accepted", deadline)
        filler = fill(small_disk)
        events += _events(demo, lambda e: e["event"] == "refused" and "full" in e["message"],
                          deadline)
        refusal = events[-1]
        assert refusal["event"] == "refused", events[-3:]
        assert "not recorded" in refusal["message"] and "free some space" in refusal["message"]
        accepted = sum(e["event"] == "accepted" for e in events)
        on_disk = [e for e in Journal(state).read().entries if e["t"] == "action"]
        assert len(on_disk) == accepted >= 1              # confirmed means written, whole
        filler.unlink()                                   # the owner frees some space
        events += _events(demo, lambda e: e["event"] == "game_over", deadline)
        demo.wait(timeout=60)
    finally:
        demo.kill()
    assert demo.returncode == 0 and events[-1]["event"] == "game_over"
    entries = Journal(state).read().entries
    assert sum(e["t"] == "action" for e in entries) == sum(e["event"] == "accepted"
                                                           for e in events)
    assert entries[-1]["t"] == "over"


def test_a_read_only_state_directory_is_found_at_start(small_disk):
    state = small_disk / "state"
    Journal(state).append({"t": "start", "game": "towers"})
    with open(state / "journal.jsonl", "ab") as f:
        f.write(b'{"t": "act')                          # a power cut mid-line
    remount(small_disk, "ro")
    for command in (["run"], ["demo", "towers"], ["calibrate", "highrise"]):
        run = obelisk(*command, "--state-dir", str(state))
        refused(run, "read-only file system", "remount it read-write")
        assert "Take every piece" not in run.stdout       # no weighing for nothing


@pytest.mark.parametrize("command", [["play", "towers", "--port", "0"], ["run"],
                                     ["demo", "towers"]])
def test_a_state_directory_too_deep_for_its_sockets_is_refused_at_start(tmp_path, command):
    """A deep --state-dir: the kernel takes socket paths of at most 107 bytes, and the
    simulated board died saying "AF_UNIX path too long". Said at start, with the fix."""
    state = tmp_path / ("d" * 60) / ("e" * 60)
    run = obelisk(*command, "--state-dir", str(state))
    said = refused(run, str(state), "too long", "shorter --state-dir")
    assert "AF_UNIX" not in said, said


def test_calibration_is_refused_before_the_weighing_when_it_cannot_be_kept(small_disk):
    fill(small_disk)
    run = obelisk("calibrate", "highrise", "--state-dir", str(small_disk / "state"))
    refused(run, "is full")
    assert "Take every piece" not in run.stdout


# ------------------------------------------------------------------ two services


def _wait_for_lock(state: Path, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while str(process.pid) not in _read(state / "lock"):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the service never took the state directory"
        time.sleep(0.02)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def test_a_second_service_on_the_same_state_directory_is_refused(tmp_path):
    state = tmp_path / "state"
    first = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_lock(state, first)
        for command in (["run"], ["demo", "towers"], ["calibrate", "highrise"]):
            refused(obelisk(*command, "--state-dir", str(state)),
                    f"in use by process {first.pid} (obelisk run --state-dir {state})",
                    "stop that one first")
        assert not (state / "journal.jsonl").exists()     # the refused ones wrote nothing
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=10)
    assert first.returncode == 0


def test_the_lock_goes_with_its_holder_even_after_sigkill(tmp_path):
    state = tmp_path / "state"
    first = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_lock(state, first)
    first.kill()
    first.wait()
    with StateDir(state).open("a test") as held:
        assert held.path == state


def test_the_lock_is_refused_within_one_process_too(tmp_path):
    with StateDir(tmp_path).open("the first"), \
            pytest.raises(StateDirError, match=r"in use by process \d+ \(the first\)"):
        StateDir(tmp_path).open("the second")


HOLD = ("import sys; from firmware.store.state_dir import StateDir, StateDirError\n"
        "try:\n    StateDir(sys.argv[1]).open('the child')\n"
        "except StateDirError as exc:\n    sys.exit(str(exc))\n")
"""A child that takes the directory (as `obelisk play`'s table service does)."""


def test_a_lent_lock_lets_that_child_in_and_no_one_else(tmp_path):
    """`obelisk play` holds the directory and its service holds it with it; the lock's
    number in the environment alone, without the descriptor itself, opens nothing."""
    with StateDir(tmp_path).open("the lender") as held:
        fd, env = held.lend()
        child = subprocess.run([sys.executable, "-c", HOLD, str(tmp_path)], env={
            **os.environ, **env}, pass_fds=(fd,), capture_output=True, text=True, timeout=60)
        assert child.returncode == 0, child.stderr
        stranger = subprocess.run([sys.executable, "-c", HOLD, str(tmp_path)], env={
            **os.environ, **env}, capture_output=True, text=True, timeout=60)
        assert stranger.returncode == 1
        assert f"in use by process {os.getpid()} (the lender)" in stranger.stderr
        with pytest.raises(StateDirError, match=r"\(the lender\)"):  # the note is the lender's
            StateDir(tmp_path).open("a third")


# ------------------------------------------------------------------ the journal's game

STONES = [
    {"t": "start", "game": "stones", "options": {"rows": 6, "cols": 4, "mode": "open",
                                                 "edition": "classic", "ply_limit": None}},
    {"t": "action", "n": 1, "action": {"a": "move", "from": [0, 3], "to": [1, 2]}},
    {"t": "action", "n": 2, "action": {"a": "move", "from": [4, 0], "to": [3, 1]}},
]


def _journal(state: Path, entries: list) -> bytes:
    state.mkdir(parents=True, exist_ok=True)
    raw = "".join(json.dumps(e) + "\n" for e in entries).encode()
    (state / "journal.jsonl").write_bytes(raw)
    return raw


@pytest.mark.parametrize("command", [
    ["run", "--game", "highrise"], ["run", "--game", "towers"], ["demo", "towers"],
    ["demo", "maze"], ["run", "--mode", "balanced"], ["run", "--game", "stones", "--size", "8x8"],
    ["demo", "stones", "--edition", "second"],
])
def test_a_command_for_another_game_leaves_the_unfinished_one_alone(tmp_path, command):
    state = tmp_path / "state"
    raw = _journal(state, STONES)
    run = obelisk(*command, "--state-dir", str(state))
    # (recorded before stones had a default limit: the journal's game plays without one)
    refused(run, f"{state} holds an unfinished stones game (--ply-limit none), 2 actions in",
            "--new-game",
            "To continue it, run `obelisk")
    assert (state / "journal.jsonl").read_bytes() == raw
    assert sorted(p.name for p in state.iterdir()) == ["journal.jsonl", "lock"]


def test_a_flag_of_another_game_is_refused_by_name(tmp_path):
    state = tmp_path / "state"
    _journal(state, STONES)
    refused(obelisk("run", "--state-dir", str(state), "--turns", "15"),
            "--turns is an option of maze, not of stones")


def test_without_game_options_the_service_resumes_the_journals_game(tmp_path):
    state = tmp_path / "state"
    _journal(state, [dict(STONES[0], options={**STONES[0]["options"], "ply_limit": 50}),
                     *STONES[1:]])
    run = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)], text=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines = []
    for line in run.stderr:
        lines.append(line)
        if "stones table on profile sim" in line:
            break
    run.send_signal(signal.SIGTERM)
    rest = run.communicate(timeout=10)[1]
    log = "".join(lines) + rest
    assert "the unfinished stones game goes on after 2 actions" in log
    assert run.returncode == 0 and "Traceback" not in log


@pytest.fixture(scope="module", autouse=True)
def whole_games(request, tmp_path_factory, block_set):
    """The module's two whole towers demos, started with its first test and played while the
    others run (``tests.support.ahead``): ``whole_games(name)`` is (its state directory, what it was
    given: the journal set aside or the set file, the finished run)."""
    given = {}

    def command(name: str) -> list[str]:
        where = tmp_path_factory.mktemp(name)
        state = where / "state"
        if name == "new_game_demo":  # an unfinished stones game there
            given[name] = (state, _journal(state, STONES))
            extra = ["--new-game"]
        else:
            given[name] = (state, _own_set(block_set, where))
            extra = ["--set", str(given[name][1])]
        return [OBELISK, "demo", "towers", "--state-dir", str(state), *extra, "--json",
                "--speed", "50"]

    ahead = started(request, command, ["new_game_demo", "own_set_demo"], timeout=300)
    yield lambda name: (*given[name], ahead.result(name))
    ahead.close()


@pytest.fixture
def new_game_demo(whole_games):
    return whole_games("new_game_demo")


@pytest.fixture
def own_set_demo(whole_games):
    return whole_games("own_set_demo")


def test_new_game_keeps_the_unfinished_one_aside(new_game_demo):
    state, raw, run = new_game_demo
    assert run.returncode == 0, run.stderr
    (kept,) = [p for p in state.iterdir() if p.name.startswith("journal-")]
    # every line as it was, then how the game ended, for `obelisk games` to say
    assert kept.read_bytes() == raw + b'{"how":"new-game","t":"ended"}\n'
    assert json.loads(run.stdout.splitlines()[-1])["game"] == "towers"
    assert Journal(state).read().entries[0]["game"] == "towers"


def test_a_different_seed_on_an_unfinished_demo_is_refused(tmp_path):
    state = tmp_path / "state"
    raw = _journal(state, STONES)
    (state / "sim-table.json").write_text(json.dumps({"seed": 3, "table": {}}))
    refused(obelisk("demo", "stones", "--state-dir", str(state), "--seed", "4"),
            "started with --seed 3", "--new-game")
    assert (state / "journal.jsonl").read_bytes() == raw


# ------------------------------------------------------------------ damaged entries

TOWERS_START = {"t": "start", "game": "towers", "first": "A", "seed": 1,
                "options": {"hourglass_s": 60.0, "sudden_death": False}}
CHOOSE = {"t": "action", "n": 1, "action": {"a": "choose", "block": "G01"}}


@pytest.mark.parametrize(("entries", "line", "words"), [
    ([dict(TOWERS_START, first="C")], 1, "start entry: 'C' is not a valid Player"),
    ([TOWERS_START, CHOOSE, {"t": "action", "n": 2, "action": {"a": "decline", "player": "Q"}}],
     3, "incomplete or malformed"),
    ([TOWERS_START, CHOOSE, {"t": "takeback", "to": -50}], 3, "a takeback to action -50"),
    ([TOWERS_START, CHOOSE, {"t": "takeback", "to": "abc"}], 3, "a takeback to action 'abc'"),
    ([TOWERS_START, {"t": "action", "n": 1, "action": {"a": "choose", "block": "Z99"}}], 2,
     "block 'Z99' cannot be chosen"),
    ([TOWERS_START, CHOOSE, CHOOSE], 3, "numbered action 1, but action 2 comes next"),
    ([TOWERS_START, {"t": "action", "n": 1}], 2, "the entry has no 'action'"),
    ([TOWERS_START, {"t": "moved"}], 2, "'moved' is not a kind of journal entry"),
    ([dict(TOWERS_START, options={"hourglass_s": 0.001})], 1, "the hourglass runs 10 to 600"),
])
def test_a_journal_line_that_makes_no_sense_is_refused_with_its_line(tmp_path, block_set,
                                                                     entries, line, words):
    raw = _journal(tmp_path, entries)
    table = TowersTable(TowersGame(block_set), Journal(tmp_path))
    with pytest.raises(JournalError) as refusal:
        table.start(0.0)
    message = str(refusal.value)
    assert f"{tmp_path / 'journal.jsonl'} line {line}: " in message
    assert words in message and "--new-game" in message
    assert (tmp_path / "journal.jsonl").read_bytes() == raw


def test_a_last_entry_whose_newline_is_damaged_is_refused_not_dropped(tmp_path):
    """The confirmed choice on the last line, its newline byte turned to another: resumed
    before, the choice silently gone; now the table refuses it with the line and the fix,
    and the journal stays as it was."""
    raw = _journal(tmp_path, [TOWERS_START, CHOOSE])
    (tmp_path / "journal.jsonl").write_bytes(raw[:-1] + b"X")
    said = refused(obelisk("run", "--state-dir", str(tmp_path), timeout=90),
                   "journal.jsonl line 2 is damaged", "a line break in its place",
                   "--new-game")
    assert "Expecting" not in said and "char" not in said
    assert (tmp_path / "journal.jsonl").read_bytes() == raw[:-1] + b"X"


def test_a_journal_nested_too_deeply_is_refused_with_its_line(tmp_path):
    (tmp_path / "journal.jsonl").write_bytes(
        json.dumps(TOWERS_START).encode() + b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    refused(obelisk("run", "--state-dir", str(tmp_path)),
            "journal.jsonl line 2 is damaged (nested too deeply)", "--new-game")


@pytest.mark.parametrize(("game", "entry", "words"), [
    ("stones", {"t": "action", "n": 3, "action": {"a": "move", "from": [0, 9], "to": [1, 2]}},
     "from [0, 9] is not a square"),
    ("stones", {"t": "action", "n": 3, "action": {"a": "move", "from": [0, 0], "to": [7, 7]}},
     "action 3 (a1-h8) is not allowed there"),
    ("maze", {"t": "action", "n": 1, "action": {"a": "wall", "square": [1, 1], "o": "up"}},
     "wall orientation 'up' is not one of"),
    ("maze", {"t": "action", "n": 1, "action": {"a": "fly"}}, "is not a maze action"),
])
def test_every_game_refuses_damaged_lines_by_line(tmp_path, game, entry, words):
    start = STONES[:3] if game == "stones" else [{"t": "start", "game": "maze",
                                                  "options": {"turns": 20}}]
    _journal(tmp_path, [*start, entry])
    refused(obelisk("run", "--game", game, "--profile",
                    "sim-maze" if game == "maze" else "sim", "--state-dir", str(tmp_path)),
            f"journal.jsonl line {len(start) + 1}: ", words)


# ------------------------------------------------------------------ the seal key


@pytest.fixture(scope="module")
def unfinished_highrise(tmp_path_factory) -> Path:
    """A High Rise demo killed after a few placements: sealed entries and their key."""
    state = tmp_path_factory.mktemp("highrise") / "state"
    demo = subprocess.Popen([OBELISK, "demo", "highrise", "--json", "--speed", "50",
                             "--state-dir", str(state)], stdout=subprocess.PIPE, text=True)
    _events(demo, lambda e: e["event"] == "accepted" and e["observation"]["plies"] >= 3,
            time.monotonic() + 120)
    demo.kill()
    demo.wait()
    assert any("sealed" in e for e in Journal(state).read().entries)
    return state


@pytest.fixture
def highrise_state(unfinished_highrise, tmp_path) -> Path:
    state = tmp_path / "state"
    subprocess.run(["cp", "-a", str(unfinished_highrise), str(state)], check=True)
    (state / "lock").unlink()
    return state


def _unchanged(state: Path):
    return {p.name: p.read_bytes() for p in state.iterdir() if p.is_file() and p.name != "lock"}


@pytest.mark.parametrize("command", [["demo", "highrise"], ["run", "--game", "highrise"]])
def test_a_missing_seal_key_is_said_and_never_replaced(highrise_state, command):
    (highrise_state / "seal.key").unlink()
    before = _unchanged(highrise_state)
    refused(obelisk(*command, "--state-dir", str(highrise_state)),
            "seal.key is missing", "put back the seal.key", "--new-game")
    assert _unchanged(highrise_state) == before          # no new key, nothing written


def test_a_seal_key_that_is_a_directory_is_said(highrise_state):
    (highrise_state / "seal.key").unlink()
    (highrise_state / "seal.key").mkdir()
    refused(obelisk("demo", "highrise", "--state-dir", str(highrise_state)),
            "seal.key cannot be read (it is a directory, not a regular file)",
            "put back the seal.key")


def test_a_foreign_seal_key_is_said(highrise_state):
    (highrise_state / "seal.key").write_text("ab" * 32 + "\n")
    refused(obelisk("demo", "highrise", "--state-dir", str(highrise_state)),
            "line 1: the game's start cannot be opened", "must be the key this game began with")


def test_no_new_key_while_the_journal_keeps_sealed_games(highrise_state):
    journal = Journal(highrise_state)
    journal.append({"t": "over", "result": {}})          # the sealed game is finished
    (highrise_state / "seal.key").unlink()
    refused(obelisk("run", "--game", "highrise", "--state-dir", str(highrise_state)),
            "seal.key is missing, but the journal beside it keeps sealed High Rise entries")
    assert not (highrise_state / "seal.key").exists()


# ------------------------------------------------------------------ your own set


def _own_set(block_set, tmp_path: Path) -> Path:
    """The default set renamed and with one green block turned into another shape."""
    from engine.towers.blocks import block_set_to_dict

    data = block_set_to_dict(block_set)
    data["name"] = "Our birch set"
    green = next(b for b in data["block"] if b["colour"] == "green")
    green["cells"] = [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]]  # a tall rod of four
    lines = [f'name = "{data["name"]}"']
    for b in data["block"]:
        lines += ["[[block]]", f'id = "{b["id"]}"', f'colour = "{b["colour"]}"',
                  f"cells = {b['cells']}"]
    path = tmp_path / "birch.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_your_own_set_is_kept_in_the_journal_and_resumed_with(tmp_path, block_set):
    from firmware.towers.sets import load_block_set

    own = load_block_set(_own_set(block_set, tmp_path))
    journal = Journal(tmp_path / "state")
    table = TowersTable(TowersGame(own), journal, seed=2)
    table.start(0.0)
    table.starter.begin()
    again = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"))
    again.start(1.0)
    assert again.game.block_set == own and again.game.block_set.name == "Our birch set"
    assert again.position.active is table.position.active and again.state == "play"
    assert again.seed == table.seed == 2


def test_run_and_demo_take_your_own_set_and_refuse_another_for_a_game_begun(tmp_path,
                                                                            own_set_demo):
    state, own, run = own_set_demo
    assert run.returncode == 0, run.stderr
    kept = Journal(state).read().entries[0]["extras"]["set"]
    assert kept["name"] == "Our birch set"
    _journal(state, [dict(TOWERS_START, extras={"set": kept})])
    bad = obelisk("run", "--state-dir", str(state), "--set", "/dev/null")
    assert bad.returncode == 2 and "argument --set: set file /dev/null: not a set file" in \
        bad.stderr and "Traceback" not in bad.stderr
    (tmp_path / "other.toml").write_text(own.read_text().replace("birch", "oak"))
    refused(obelisk("run", "--state-dir", str(state), "--set", str(tmp_path / "other.toml")),
            "other options (--set: the game is played with 'Our birch set')",
            "To continue it, run `obelisk run")


def test_an_option_that_differs_is_named_by_its_flag(tmp_path):
    state = tmp_path / "state"
    _journal(state, [TOWERS_START])
    refused(obelisk("run", "--state-dir", str(state), "--hourglass", "90"),
            "other options (--hourglass)")


# ------------------------------------------------------------------ nonsense and Ctrl-C


@pytest.mark.parametrize(("args", "words"), [
    (["demo", "towers", "--speed", "200"], "the speed is 0.1 to 100 times real time"),
    (["demo", "towers", "--speed", "inf"], "the speed is 0.1 to 100"),
    (["demo", "stones", "--ply-limit", "0"], "the move limit is 1 to"),
    (["run", "--game", "stones", "--ply-limit", "-1"], "the move limit is 1 to"),
    (["rules", "stones", "--ply-limit", "0"], "the move limit is 1 to"),
    (["diag", "--seconds", "-1"], "--seconds is 0.1 to 86400 seconds"),
    (["diag", "--seconds", "nan"], "--seconds is 0.1 to 86400 seconds"),
    (["demo", "towers", "--seed", "-5"], "a seed is 0 to"),
    (["demo", "towers", "--speed", "100", "--hourglass", "30"], "every turn would run out"),
    (["demo", "towers", "--speed", "50", "--hourglass", "10"], "--hourglass 30 or more"),
])
def test_nonsense_numbers_are_refused_by_name(args, words):
    run = obelisk(*args)
    assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(("command", "ready", "stop"), [
    (["demo", "towers", "--json"], lambda line: '"event": "start"' in line, signal.SIGINT),
    (["calibrate", "highrise"], lambda line: "small pyramid" in line, signal.SIGINT),
    (["run"], None, signal.SIGINT),
    (["run"], None, signal.SIGTERM),
])
def test_ctrl_c_and_a_stop_end_any_command_quietly(tmp_path, command, ready, stop):
    process = subprocess.Popen([OBELISK, *command, "--state-dir", str(tmp_path / "s")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if ready is not None:
        for line in process.stdout:
            if ready(line):
                break
    else:  # in the first moments, before the service has even started: once the command
        # shows it runs (its state directory locked), as a person presses Ctrl-C on a command
        # that has begun; before Python has even loaded our code no program can catch it
        _until(lambda: (tmp_path / "s" / "lock").exists(), 20)
    process.send_signal(stop)
    _, err = process.communicate(timeout=20)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode == (130 if stop == signal.SIGINT else 0), (process.returncode, err)


def test_ctrl_c_on_a_running_diag_says_130():
    """Once it is up and drawing, Ctrl-C still ends diag with 130, as promised (the
    service's own case is in test_systemd.py, where READY=1 says it is running)."""
    process = subprocess.Popen([OBELISK, "diag"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if line.startswith("link:"):
            break
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=20)
    assert "Traceback" not in out, out
    assert process.returncode == 130, (process.returncode, out)


def test_the_unit_does_not_restart_a_refusal():
    unit = (ROOT / "systemd" / "obelisk.service").read_text()
    assert "RestartPreventExitStatus=2" in unit and "Restart=on-failure" in unit


# ------------------------------------------------------------------ a dead link


def _service(tmp_path, block_set):
    from firmware.service.loop import TableService
    from firmware.towers.view import view_of
    from hardware.devices import open_table
    from hardware.profile import load_profile

    devices = open_table(load_profile("sim"))
    table = TowersTable(TowersGame(block_set), Journal(tmp_path / "state"))
    return devices, TableService(devices, table, view_of)


def _until(test, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.01)


def test_a_dead_link_stops_the_watchdog_and_the_service(tmp_path, block_set, monkeypatch):
    import socket
    import threading

    from firmware.service.loop import LinkDeadError

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(0.05)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "100000")           # a pat every 50 ms
    devices, service = _service(tmp_path, block_set)
    failure: list[BaseException] = []
    loop = threading.Thread(target=lambda: _catch(service.run, failure), daemon=True)
    loop.start()
    pats = []

    def heard() -> None:
        with contextlib.suppress(TimeoutError):
            pats.append(listener.recv(64))

    try:
        _until(lambda: heard() or pats.count(b"WATCHDOG=1") >= 3)
        devices.link.stop()                                  # the reader is gone
        loop.join(timeout=10)
        assert not loop.is_alive() and isinstance(failure[0], LinkDeadError)
        assert "stopped" in str(failure[0])
        while True:                                          # drain what was said before
            before = len(pats)
            heard()
            if len(pats) == before:
                break
        time.sleep(0.3)
        heard()
        assert len(pats) == before                           # no pat without a link
    finally:
        service.stopping.set()
        devices.close()
        listener.close()


def _catch(run, failure: list) -> None:
    try:
        run()
    except BaseException as exc:
        failure.append(exc)


def test_the_rings_say_when_the_board_is_not_seen(tmp_path, block_set):
    import threading

    from firmware.service.overlays import NO_BOARD

    devices, service = _service(tmp_path, block_set)
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    try:
        _until(lambda: devices.link.synced)
        devices.sim.unplug()
        _until(lambda: devices.leds[("ring", "A", 0)] == NO_BOARD)
        assert devices.leds[("ring", "A", 1)] == (0, 0, 0)
        devices.sim.plug()
        _until(lambda: devices.leds[("ring", "A", 0)] != NO_BOARD)
    finally:
        service.stopping.set()
        loop.join(timeout=5)
        devices.close()


# ------------------------------------------------------------------ the end on a full disk


def test_a_game_that_ends_on_a_full_disk_is_over_only_once_its_end_is_written(tmp_path):
    """The end is an accepted action like any other: on disk before it shows, tried again
    until written, and a restart resumes the finished game with its result."""
    from engine.players import Player
    from hardware.buttons import ButtonEvent
    from tests.support.stones import position
    from tests.support.tables import StonesHarness as Table

    a = Player.A
    t = Table(tmp_path, state=position({"d2": "AcAk", "c1": "Ap", "a4": "Bp", "a6": "Bk",
                                        "b6": "Bc"}, to_play=a)).started()
    journal = FillingJournal(tmp_path)
    t.table.journal = t.journal = journal
    t.see(t.after("-c1"))  # the capstone onto the foundation: the obelisk, the end
    assert t.table.state == "choose"
    journal.full = True
    with pytest.raises(JournalError) as refused:  # the service's loop catches it...
        t.press(a, "hold")
    t.table.cannot_record(str(refused.value))  # ...and the table says why
    assert t.table.state != "over" and "free some space" in t.table.problem
    assert not any(e["event"] == "game_over" for e in t.events)  # nothing announced
    t.table.on_button(ButtonEvent("A", "press"), t.now)  # a press starts no new game
    t.table.on_button(ButtonEvent("B", "press"), t.now)
    assert t.table.started and t.table.state != "setup"
    with pytest.raises(JournalError):  # the service's retry, the disk still full
        t.table.tick(t.now + 3)
    assert t.table.state != "over"
    written = [e["t"] for e in Journal(tmp_path).read().entries]
    assert written[-1] == "action"  # the last move is kept; the end is not yet

    journal.full = False  # the owner frees some space: the next retry writes the end
    t.table.tick(t.now + 6)
    assert t.table.state == "over"
    over = [e for e in t.events if e["event"] == "game_over"]
    assert len(over) == 1 and over[0]["outcome"]["winner"] == "A"
    assert Journal(tmp_path).read().entries[-1] == {"t": "over", "result": over[0]["outcome"]}
    assert not Journal(tmp_path).unfinished()


# ------------------------------------------------------------------ files of every kind


@pytest.mark.parametrize("make", [huge, fifo, folder, device])
def test_every_file_the_table_reads_is_refused_in_words_when_it_is_no_such_file(tmp_path, make):
    """Each file is checked before it is read: nothing hangs, nothing fills the memory, and
    the person reads what is wrong with which file."""
    from engine.errors import ObeliskError
    from firmware.service.pin import PinError
    from hardware.profile import ProfileError

    state = tmp_path / "state"
    state.mkdir()
    for name, read in readers(state).items():
        where = state / name
        make(where)
        got = outcome_within(read, 20)
        assert got is not HUNG, f"reading {name} as {make.__name__} never ended"
        assert isinstance(got, (StateDirError, ObeliskError, ProfileError, PinError)), \
            f"{name} as {make.__name__}: {got!r}"  # an error meant for a person
        words = str(got)
        assert name in words and "Traceback" not in words, words
        assert any(w in words for w in ("not a regular file", "larger than such a file")), words
        if where.is_dir() and not where.is_symlink():
            where.rmdir()
        else:
            where.unlink()


def test_a_grown_journal_is_moved_aside_when_the_next_game_starts(tmp_path, monkeypatch):
    """A table plays for years; its journal is read at every start, so finished games are
    archived (kept, the same ids) once it has grown."""
    from firmware.store import journal as journal_module
    from firmware.store.history import finished_games

    monkeypatch.setattr(journal_module, "ROTATE_BYTES", 300)
    journal = Journal(tmp_path)
    for n in range(3):
        journal.append({"t": "start", "game": "towers", "n": n})
        journal.append({"t": "action", "n": 1, "action": {"pad": "x" * 60}})
        journal.append({"t": "over", "result": {"winner": "A", "n": n}})
    before = sorted(g.id for g in finished_games(tmp_path)[0])
    assert len(before) == 3
    archived = sorted(tmp_path.glob("journal-*.jsonl"))
    assert archived, "the grown journal was never moved aside"
    assert journal.path.stat().st_size <= 300 + 200  # one game since the last move
    assert sorted(g.id for g in finished_games(tmp_path)[0]) == before  # nothing lost
