"""The scanner board's calls into CircuitPython, checked against CircuitPython's own signatures.

The board code runs only on the Pico, so a misspelt keyword or pin name
there would show up only on the board. Here mypy reads the files laid out as
``obelisk scanner install`` puts them on the CIRCUITPY drive (side by side,
``neopixel.py`` in ``lib/``) with ``circuitpython-stubs`` (PyPI, the ``dev``
extra) and its Raspberry Pi Pico ``board`` module. code.py is handed its board
modules as arguments; ``hardware/scanner/board_types.pyi`` names the real
modules behind them, so those calls are checked too.

``setup.sh`` installs mypy and the stubs; a missing one fails naming that fix,
except on a Raspberry Pi, where it is a skip.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.processes import on_a_pi

pytestmark = pytest.mark.processes

BOARD = "raspberry_pi_pico"
SCANNER = ROOT / "hardware" / "scanner"
BOARD_FILES = ("boot.py", "code.py", "scanner.py", "obelisk_proto.py")

CONFIG = """\
[mypy]
mypy_path = {board}:{drive}:{drive}/lib
cache_dir = {cache}
python_version = 3.11
# code.py's and scanner.py's functions have no annotations: check their bodies anyway.
check_untyped_defs = True
# The board has no typing module to annotate an empty list with.
disable_error_code = var-annotated
# A narrow ignore left behind after its cause is gone is an error too.
warn_unused_ignores = True

[mypy-hardware.*]
# The Pi's way in (from hardware.scanner import ...); the board has no such package.
ignore_missing_imports = True
follow_imports = skip

[mypy-neopixel]
# Adafruit's library, read for its signatures; its own typing slips are not ours.
follow_imports = silent
"""


def _tools_or_fail() -> None:
    """mypy and circuitpython-stubs, or a skip on a Pi, or a failure naming the fix."""
    missing = [name for name, module in (("mypy", "mypy.api"),
                                         ("circuitpython-stubs", "board_definitions"))
               if _absent(module)]
    if missing:
        if on_a_pi():
            pytest.skip(f"{' and '.join(missing)} not installed on this Raspberry Pi")
        pytest.fail(f"{' and '.join(missing)} missing: run ./setup.sh (it installs the dev "
                    "extra into .venv)")


def _absent(module: str) -> bool:
    from importlib.util import find_spec

    try:
        return find_spec(module) is None
    except ModuleNotFoundError:
        return True


def _pin_names() -> list[str]:
    """Every board pin name code.py wires, and the onboard LED it blinks."""
    from hardware.scanner import code

    names = ["LED"]
    for value in code.PINS.values():
        names += value if isinstance(value, list) else [value]
    return names


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One mypy cache for both checks: the stubs and the standard library are read once."""
    return tmp_path_factory.mktemp("mypy-cache")


def _lay_out(root: Path, cache: Path, edits: dict[str, tuple[str, str]] | None = None,
             extra_pins: tuple[str, ...] = ()) -> list[Path]:
    """The drive, the Pico's board stub and a check of its own under ``root``; the files to check.

    ``edits`` swaps text in a board file on the drive (a wrong call, to see it caught).
    """
    from hardware.scanner_install import scanner_sources

    drive, board, checks = root / "CIRCUITPY", root / "pico", root / "checks"
    for source, name in scanner_sources():
        (drive / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, drive / name)
    shutil.copyfile(SCANNER / "board_types.pyi", drive / "board_types.pyi")
    for name, (old, new) in (edits or {}).items():
        text = (drive / name).read_text()
        assert text.count(old) == 1, f"{old!r} is not once in {name}"
        (drive / name).write_text(text.replace(old, new))
    # Without circuitpython_setboard: that would rewrite the stubs installed in .venv.
    (board / "board").mkdir(parents=True)
    definitions = resources.files("board_definitions").joinpath(BOARD).joinpath("__init__.pyi")
    (board / "board" / "__init__.pyi").write_text(definitions.read_text())
    checks.mkdir()
    pins = "\n".join(f"board.{name}" for name in [*_pin_names(), *extra_pins])
    # The real modules must be what board_types.pyi says code.py is handed.
    (checks / "wiring.py").write_text(
        "import board\nimport digitalio\nimport microcontroller\nimport neopixel\n"
        "import supervisor\nimport time\nimport usb_cdc\nimport watchdog\n\n"
        "from board_types import Modules\n\n"
        f"{pins}\n\n"
        "modules: Modules = {'time': time, 'board': board, 'digitalio': digitalio,\n"
        "                    'neopixel': neopixel, 'usb_cdc': usb_cdc,\n"
        "                    'microcontroller': microcontroller, 'supervisor': supervisor,\n"
        "                    'watchdog': watchdog}\n")
    (root / "mypy.ini").write_text(CONFIG.format(board=board, drive=drive,
                                                 cache=cache))
    return [*(drive / name for name in BOARD_FILES), checks / "wiring.py"]


def _mypy(root: Path, files: list[Path]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(root / "mypy.ini"),
                           "--no-error-summary", *map(str, files)],
                          cwd=root, capture_output=True, text=True, timeout=120)


def test_every_board_call_matches_circuitpython_for_the_pico(tmp_path, cache):
    _tools_or_fail()
    root = tmp_path / "clean"
    files = _lay_out(root, cache)
    checked = _mypy(root, files)
    assert checked.returncode == 0 and checked.stdout == "", (
        "mypy with circuitpython-stubs (Raspberry Pi Pico) found calls the board would "
        f"refuse:\n{checked.stdout}{checked.stderr}")


def test_a_wrong_board_call_is_caught(tmp_path, cache):
    """Wrong calls the board would refuse, put in the real files: each one is named."""
    _tools_or_fail()
    root = tmp_path / "wrong"
    files = _lay_out(root, cache, extra_pins=("GP99",), edits={
        "boot.py": ("usb_cdc.enable(console=True, data=True)",
                    "usb_cdc.enable(console=True, date=True)"),
        "code.py": ("pin.pull = digitalio.Pull.UP", "pin.pull = digitalio.Direction.OUTPUT"),
    })
    (root / "CIRCUITPY" / "code.py").write_text(
        (root / "CIRCUITPY" / "code.py").read_text().replace("dog.feed()", "dog.feed(True)"))
    said = _mypy(root, files).stdout
    wanted = {
        "boot.py": 'Unexpected keyword argument "date" for "enable"',
        "code.py": 'expression has type "Direction", variable has type "Pull | None"',
        "wiring.py": 'Module has no attribute "GP99"',
    }
    for name, error in wanted.items():
        assert any(f"{name}:" in line and error in line for line in said.splitlines()), (
            f"mypy did not catch the wrong call in {name} ({error}); it said:\n{said}")
    assert said.count('Too many arguments for "feed" of "WatchDogTimer"') == 2, said
