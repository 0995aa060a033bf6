"""Bad input of every kind gets a clear error, never a crash.

Hypothesis throws arbitrary and nearly-valid text at the profile and set
loaders, bytes at the journal reader, the calibration file and sealed
entries; each must either work or raise its own error class with a message.
A journal cut off at any byte (a power cut mid-write) must still read.
"""

from __future__ import annotations

import json
import tempfile
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import BlockSetError
from engine.highrise.sensing import CalibrationError
from engine.towers.blocks import parse_block_set
from firmware.highrise.calibrate import FILE, load_calibration
from firmware.store.journal import Journal, JournalError
from firmware.store.seal import Sealer, SealError
from hardware.profile import ProfileError, parse_profile
from tests.support import ROOT

SIM_PROFILE = (ROOT / "hardware" / "profiles" /
               "sim.toml").read_text()
DEFAULT_SET = (ROOT / "engine" / "towers" / "data" /
               "default_set.toml").read_text()
FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

toml_values = st.recursive(
    st.none().map(lambda _: "x") | st.integers(-5, 100) | st.booleans() | st.floats(-2, 2)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4), max_leaves=8)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value)


def _mutate(text: str, data) -> str:
    """A valid file with one line's value swapped, a line dropped, or a line added."""
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["value", "drop", "add", "cut"]))
    if kind == "value" and "=" in lines[i]:
        key = lines[i].split("=")[0]
        lines[i] = f"{key}= {_toml_value(data.draw(toml_values))}"
    elif kind == "drop":
        del lines[i]
    elif kind == "add":
        key = data.draw(st.sampled_from(["port", "board", "pin", "parts", "cells", "colour",
                                         "id", "count", "hold_s", "stack_levels"]))
        lines.insert(i, f"{key} = {_toml_value(data.draw(toml_values))}")
    else:
        cut = data.draw(st.integers(0, len(text)))
        return text[:cut]
    return "\n".join(lines)


@FUZZ
@given(st.data())
def test_the_profile_loader_only_ever_refuses_clearly(data):
    text = _mutate(SIM_PROFILE, data) if data.draw(st.booleans()) else data.draw(st.text())
    try:
        parse_profile(text, "fuzz.toml")
    except ProfileError as exc:
        assert str(exc).startswith("fuzz.toml")


@FUZZ
@given(st.data())
def test_the_set_loader_only_ever_refuses_clearly(data):
    text = _mutate(DEFAULT_SET, data) if data.draw(st.booleans()) else data.draw(st.text())
    try:
        parse_block_set(text, "fuzz.toml")
    except BlockSetError as exc:
        assert "fuzz.toml" in str(exc)


def test_the_mutations_do_reach_valid_and_refused_files():
    """Guard: the fuzzing above is not only feeding garbage."""
    assert parse_profile(SIM_PROFILE, "sim").name == "sim"
    assert len(parse_block_set(DEFAULT_SET, "set").blocks) == 39
    tomllib.loads(SIM_PROFILE)


@FUZZ
@given(raw=st.binary(max_size=400))
def test_the_journal_reader_refuses_garbage_by_line(tmp_path, raw):
    journal = Journal(tmp_path)
    journal.path.write_bytes(raw)
    try:
        contents = journal.read()
    except JournalError as exc:
        assert "line" in str(exc) and "--new-game" in str(exc)
        return
    # Read: then every whole line was a JSON object, and only a last one may be torn.
    whole = raw.split(b"\n")[:-1]
    assert all(isinstance(e, dict) for e in contents.entries)
    assert list(contents.entries[:len(whole)]) == [json.loads(line) for line in whole]
    assert len(contents.entries) in (len(whole), len(whole) + 1)


@FUZZ
@given(entries=st.lists(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=8),
                                        max_size=3), min_size=1, max_size=6),
       cut=st.integers(0, 10_000))
def test_a_journal_cut_off_anywhere_still_reads_and_repairs(tmp_path, entries, cut):
    """A power cut in the middle of a write: the whole entries before it survive."""
    journal = Journal(tempfile.mkdtemp(dir=tmp_path))   # a fresh one for every example
    for entry in entries:
        journal.append(entry)
    raw = journal.path.read_bytes()
    cut %= len(raw) + 1
    journal.path.write_bytes(raw[:cut])
    got = journal.read().entries                      # never raises
    whole = raw[:cut].count(b"\n")
    assert list(got[:whole]) == entries[:whole]
    assert len(got) in (whole, whole + 1)             # a last line that lost only its newline
    journal.repair()
    assert journal.read().entries == got and not journal.read().torn_tail
    journal.append({"after": "the cut"})
    assert journal.read().entries[-1] == {"after": "the cut"}


@FUZZ
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_a_damaged_calibration_file_is_refused_clearly(tmp_path, raw):
    (tmp_path / FILE).write_bytes(raw)
    try:
        cal = load_calibration(tmp_path, 9)
    except CalibrationError as exc:
        assert "obelisk calibrate highrise" in str(exc)
        return
    # Loaded: then it really is a calibration for nine pads and three sizes.
    assert len(cal.zero) >= 9 and len(cal.sizes) == 3 and cal.tolerance > 0
    assert 0 < cal.sizes[0] < cal.sizes[1] < cal.sizes[2]


@FUZZ
@given(text=st.text(max_size=120))
def test_a_damaged_seal_is_refused_clearly(tmp_path, text):
    sealer = Sealer(tmp_path)
    sealer.seal({"warm": "up"})                       # the key exists
    try:
        sealer.unseal(text)
    except SealError:
        pass
    else:
        raise AssertionError(f"{text!r} opened")


journal_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3), max_leaves=10)


@FUZZ
@given(entry=st.dictionaries(st.text(max_size=5), journal_values, max_size=4),
       byte=st.integers(0, 255).filter(lambda b: b not in b"\n \t\r"), data=st.data())
def test_only_the_start_of_an_entry_is_a_torn_write(tmp_path, entry, byte, data):
    """Every cut of an entry's line reads (a torn write, or the whole entry); the whole entry
    with any other byte where its newline belongs, and whatever follows, is refused."""
    journal = Journal(tempfile.mkdtemp(dir=tmp_path))
    line = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode()
    cut = data.draw(st.integers(1, len(line)))
    journal.path.write_bytes(b'{"n":1}\n' + line[:cut])
    got = journal.read()
    assert got.entries == (({"n": 1}, entry) if cut == len(line) else ({"n": 1},))
    after = data.draw(st.binary(max_size=20))
    journal.path.write_bytes(b'{"n":1}\n' + line + bytes([byte]) + after)
    try:
        journal.read()
    except JournalError as exc:
        assert "line 2 is damaged" in str(exc) and "--new-game" in str(exc)
    else:
        raise AssertionError(f"{line + bytes([byte]) + after!r} was read")
