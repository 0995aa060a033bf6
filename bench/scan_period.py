"""How long one turn of the scanner board's loop takes, per interpreter.

The board measures itself (its STATUS frame, ``hardware/PROTOCOL.md``): the
average turn of its loop over each heartbeat's interval. This bench runs the
board's own files (``hardware/scanner/``, the reference layout of 26 drive
lines x 9 sense lines and 9 load cells) through ``bench/scan_loop.py`` on bare
pins, under CPython and under MicroPython's WebAssembly build (node, the
package ``tests/support/micropython`` pins), and prints what the board reported:

    <interpreter>: a scan every A-B ms (the board's STATUS, N intervals), load cells
      every C-D ms, one matrix scan alone E-F ms

Bare pins cost an attribute lookup; a real pin (CircuitPython's digitalio on
a Pico) costs more, and a Pico runs Python slower than this machine, so no
figure here is a Pico's: on a real table ``obelisk diag`` shows the board's
own. What this bench does show is the scanner code's own cost, and what a
change to it saves.

Run: .venv/bin/python bench/scan_period.py [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import shutil
import subprocess
from pathlib import Path

from hardware.local_board import load_code_py

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "on_micropython"
LOOP = ROOT / "bench" / "scan_loop.py"


def _on_cpython() -> list[str]:
    from bench import scan_loop

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        scan_loop.main(load_code_py())
    return out.getvalue().splitlines()


def _on_micropython(node: str) -> tuple[str, list[str]]:
    run = subprocess.run([node, str(HARNESS / "run.mjs"), str(ROOT / "hardware" / "scanner"),
                          str(LOOP)], capture_output=True, text=True, timeout=120, cwd=HARNESS)
    if run.returncode:
        raise SystemExit(f"MicroPython failed:\n{run.stderr}")
    version, *lines = run.stdout.splitlines()
    return version.strip(".") + " (WebAssembly, node)", lines


def _ms(values: list[int]) -> str:
    low, high = min(values) / 1000, max(values) / 1000
    return f"{low:.3g} ms" if low == high else f"{low:.3g}-{high:.3g} ms"


def _report(name: str, runs: list[list[str]]) -> None:
    scans, loads, matrix = [], [], []
    for lines in runs:
        for line in lines:
            word, *numbers = line.split()
            if word == "status":
                scans.append(int(numbers[0]))
                loads.append(int(numbers[1]))
            elif word == "matrix_us":
                matrix.append(int(numbers[0]))
    print(f"{name}: a scan every {_ms(scans)} (the board's STATUS, {len(scans)} intervals "
          f"over {len(runs)} runs), load cells every {_ms(loads)}, one matrix scan alone "
          f"{_ms(matrix)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    _report(f"CPython {platform.python_version()}", [_on_cpython() for _ in range(args.runs)])
    node = shutil.which("node")
    if node is None or not (HARNESS / "node_modules").exists():
        print("MicroPython: not run (needs node and `npm ci` in tests/support/micropython; "
              "./setup.sh does both off a Pi)")
        return 0
    runs = [_on_micropython(node) for _ in range(args.runs)]
    _report(runs[0][0].replace("micropython", "MicroPython"),
            [lines for _, lines in runs])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
