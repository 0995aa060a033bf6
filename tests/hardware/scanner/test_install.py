"""``obelisk scanner install PATH`` on a folder laid out like a CIRCUITPY drive."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from firmware.cli import main
from hardware import scanner_install
from hardware.scanner_install import ScannerInstallError, install, parse_boot_out
from tests.support import ROOT
from tests.support.files import HUNG, device, fifo, folder, huge, outcome_within

SCANNER = ROOT / "hardware" / "scanner"
BOARD_FILES = ("boot.py", "code.py", "scanner.py", "obelisk_proto.py")
PICO_9 = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040"


def _drive(root: Path, first_line: str = PICO_9) -> Path:
    """A fresh CIRCUITPY as the board leaves it, plus a file of the owner's own."""
    drive = root / "CIRCUITPY"
    (drive / "lib").mkdir(parents=True)
    (drive / "boot_out.txt").write_text(f"{first_line}\nBoard ID:raspberry_pi_pico\n"
                                        "UID:E6614C311B6E8A2B\n", "utf-8")
    (drive / "code.py").write_text('print("Hello World!")\n', "utf-8")  # what a new drive has
    (drive / "settings.toml").write_text('NOTE = "mine"\n', "utf-8")
    return drive


def _neopixel() -> Path:
    return scanner_install.neopixel_library()


def _everything_copied(drive: Path) -> None:
    for name in BOARD_FILES:
        assert (drive / name).read_bytes() == (SCANNER / name).read_bytes(), name
    assert (drive / "lib" / "neopixel.py").read_bytes() == _neopixel().read_bytes()


def _files(drive: Path) -> set[str]:
    return {str(path.relative_to(drive)) for path in drive.rglob("*")}


def test_the_neopixel_library_is_the_installed_pure_python_one():
    library = _neopixel()
    assert library.name == "neopixel.py"
    text = library.read_text("utf-8")
    # adafruit_pixelbuf is built into CircuitPython on the RP2040: nothing else to copy
    assert "import adafruit_pixelbuf" in text and "neopixel_write" in text


def test_the_command_copies_everything_and_says_to_replug(tmp_path: Path, capsys):
    drive = _drive(tmp_path)
    assert main(["scanner", "install", str(drive)]) == 0
    out = capsys.readouterr().out
    _everything_copied(drive)
    assert (drive / "settings.toml").read_text("utf-8") == 'NOTE = "mine"\n'
    assert _files(drive) == {"boot_out.txt", "settings.toml", "lib", "lib/neopixel.py",
                             *BOARD_FILES}  # no temporary file left behind
    assert "CircuitPython 9.2.1 on Raspberry Pi Pico with rp2040" in out
    assert "code.py: updated" in out and "boot.py: new" in out and "lib/neopixel.py: new" in out
    assert "unplug and replug" in out and "hard reset" in out
    assert "obelisk diag --profile reference" in out and "-if02" in out
    assert "warning" not in out


def test_a_second_run_changes_nothing_and_needs_no_reset(tmp_path: Path, capsys):
    drive = _drive(tmp_path)
    install(drive)
    stamps = {name: (drive / name).stat().st_mtime_ns for name in BOARD_FILES}
    assert main(["scanner", "install", str(drive)]) == 0
    out = capsys.readouterr().out
    for where in (*BOARD_FILES, "lib/neopixel.py"):
        assert f"{where}: unchanged" in out
    assert "unplug" not in out and "RESET" not in out and "already has this code" in out
    assert stamps == {name: (drive / name).stat().st_mtime_ns for name in BOARD_FILES}


def test_changed_code_without_boot_py_asks_for_a_reset_only(tmp_path: Path):
    drive = _drive(tmp_path)
    install(drive)
    (drive / "scanner.py").write_text("# an older scanner\n", "utf-8")
    said = install(drive)
    assert "scanner.py: updated" in said and "boot.py: unchanged" in said
    assert any(line.startswith("next: press RESET") for line in said)
    assert not any("unplug and replug the board (or" in line for line in said)
    _everything_copied(drive)


def test_an_old_circuitpython_is_refused_and_nothing_is_copied(tmp_path: Path, capsys):
    drive = _drive(tmp_path, "Adafruit CircuitPython 7.3.3 on 2022-08-29; "
                             "Raspberry Pi Pico with rp2040")
    before = _files(drive)
    assert main(["scanner", "install", str(drive)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("obelisk: the board runs CircuitPython 7.3.3")
    assert "CircuitPython 8 or newer" in err and "nothing was copied" in err
    assert _files(drive) == before
    assert (drive / "code.py").read_text("utf-8") == 'print("Hello World!")\n'


def test_a_folder_without_boot_out_is_not_a_circuitpython_drive(tmp_path: Path, capsys):
    folder = tmp_path / "stick"
    folder.mkdir()
    assert main(["scanner", "install", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "is not a CircuitPython drive (it has no boot_out.txt)" in err
    assert "/media/$USER/CIRCUITPY" in err
    assert list(folder.iterdir()) == []
    assert main(["scanner", "install", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_another_board_is_warned_about_not_refused(tmp_path: Path):
    drive = _drive(tmp_path, "Adafruit CircuitPython 10.0.3 on 2025-10-17; "
                             "Adafruit Feather M4 Express with samd51j19")
    said = install(drive)
    assert any(line.startswith("warning: this is not a Raspberry Pi Pico") for line in said)
    _everything_copied(drive)


@pytest.mark.parametrize(("line", "version", "major", "board"), [
    (PICO_9, "9.2.1", 9, "Raspberry Pi Pico with rp2040"),
    ("Adafruit CircuitPython 10.0.0-beta.2 on 2025-08-01; Raspberry Pi Pico W with rp2040",
     "10.0.0-beta.2", 10, "Raspberry Pi Pico W with rp2040"),
    ("Adafruit CircuitPython 8.2.10 on 2024-02-14; Raspberry Pi Pico with rp2040",
     "8.2.10", 8, "Raspberry Pi Pico with rp2040"),
])
def test_boot_out_first_lines(line, version, major, board):
    found = parse_boot_out(line + "\nBoard ID:raspberry_pi_pico\n")
    assert (found.version, found.major, found.name, found.is_pico) == (
        version, major, board, True)


def test_a_boot_out_that_names_no_version_is_refused():
    with pytest.raises(ScannerInstallError, match="does not say which CircuitPython"):
        parse_boot_out("hello\n")


@pytest.mark.parametrize(("code", "words"), [
    (errno.EROFS, "cannot write to the CIRCUITPY drive"),
    (errno.EACCES, "read-only or not yours"),
    (errno.ENOSPC, "is full"),
])
@pytest.mark.parametrize("step", ["write", "replace"])
def test_a_drive_that_refuses_writes_gets_words_and_no_leftovers(
        tmp_path: Path, capsys, monkeypatch, code, words, step):
    drive = _drive(tmp_path)  # root may write anywhere: the drive's refusal is simulated
    real_replace = os.replace
    real_open = open
    calls = []

    def refuse(*args):
        calls.append(args)
        if len(calls) == 3:  # the first two files go on, the third is refused
            raise OSError(code, os.strerror(code))

    def replace(source, target):
        if step == "replace":
            refuse(target)
        real_replace(source, target)

    def open_(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        if step == "write" and "w" in mode and str(file).endswith(".obelisk-part"):
            try:
                refuse(file)
            except OSError:
                handle.close()
                raise
        return handle

    monkeypatch.setattr(scanner_install.os, "replace", replace)
    monkeypatch.setattr("builtins.open", open_)
    assert main(["scanner", "install", str(drive)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("obelisk: ") and words in err and "Traceback" not in err
    assert "already written: lib/neopixel.py, obelisk_proto.py" in err
    assert not [path for path in drive.rglob("*") if ".obelisk-part" in path.name]
    assert (drive / "code.py").read_text("utf-8") == 'print("Hello World!")\n'  # untouched
    assert not (drive / "boot.py").exists()


def test_without_the_neopixel_package_it_says_how_to_install_it(tmp_path: Path, monkeypatch):
    import importlib.util

    drive = _drive(tmp_path)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ScannerInstallError, match="adafruit-circuitpython-neopixel"):
        install(drive)
    assert (drive / "code.py").read_text("utf-8") == 'print("Hello World!")\n'


@pytest.mark.processes
def test_obelisk_run_does_not_load_the_installer():
    import subprocess
    import sys

    code = ("import sys, firmware.cli; from firmware.cli_parser import parser_for; "
            "parser_for(['run']); "
            "print('hardware.scanner_install' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=SCANNER.parent.parent)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("make", [huge, fifo, folder, device])
def test_a_drive_file_that_is_no_such_file_is_refused_or_replaced_never_read_for_ever(
        tmp_path: Path, make):
    """Anything may lie on a drive: boot_out.txt that is a pipe, a link to /dev/zero or a
    huge file is refused in words; such a file where a scanner file goes is replaced."""
    drive = _drive(tmp_path)
    (drive / "boot_out.txt").unlink()
    make(drive / "boot_out.txt")
    got = outcome_within(lambda: install(drive), 20)
    assert got is not HUNG, f"reading boot_out.txt as {make.__name__} never ended"
    assert isinstance(got, ScannerInstallError) and "boot_out.txt" in str(got), got
    drive = _drive(tmp_path / "second")
    if make is not folder:  # a folder where code.py goes stays the owner's to move
        (drive / "code.py").unlink()
        make(drive / "code.py")
        got = outcome_within(lambda: install(drive), 20)
        assert got is None, got  # copied over whatever was there
        assert (drive / "code.py").read_bytes() == (SCANNER / "code.py").read_bytes()
