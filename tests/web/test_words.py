"""What the page's server says of a fault of the machine is in a person's terms: the problem and
its fix, never an exception's text (an OS error's own words, ``[Errno ...]``, a codec's).

Issue 45 asked it of every message: the ones here once carried the system's words ("File
exists", "Connection refused", "Name or service not known") where a person needed ours.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import subprocess

import pytest

from firmware.readers.web.controls import Sessions
from firmware.readers.web.server import listen_words
from firmware.readers.web.wrong_pins import FILE, PinGuard, StateDirError
from firmware.service.pin import table_pin
from tests.support.http import Phone
from tests.support.processes import OBELISK
from tests.support.web import Web

SYSTEM_WORDS = [os.strerror(n) for n in (errno.EEXIST, errno.ENOTDIR, errno.ECONNREFUSED,
                                         errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL,
                                         errno.ENOMEM)]
SYSTEM_WORDS += ["Errno", "Name or service not known", "codec", "Traceback"]


def _ours(words: str) -> str:
    for system in SYSTEM_WORDS:
        assert system not in words, f"{system!r} in {words!r}"
    return words


def test_a_file_where_the_pages_folder_goes_is_said_with_its_fix(tmp_path, caplog):
    (tmp_path / "web").write_text("not a folder")
    guard = PinGuard(path=tmp_path / FILE)
    assert guard.closed  # (its count cannot be read either: the worst case)
    assert "is a file, not a folder" in _ours(guard.unreadable or ""), guard.unreadable
    with pytest.raises(StateDirError) as refused:
        guard.missed("10.0.0.1")
    words = _ours(str(refused.value))
    assert "is a file, not a folder" in words and "delete it" in words, words
    table_pin(tmp_path)
    with caplog.at_level(logging.WARNING, logger="obelisk.web"):
        Sessions(tmp_path).open(0)  # signed in, but it cannot be kept for a restart
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "cannot keep the phones signed in" in _ours(said), said


@pytest.mark.parametrize("fault", [errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL,
                                   errno.ENOMEM, "no such name"])
def test_a_place_the_page_cannot_listen_on_is_said_with_its_fix(fault):
    if fault == "no such name":
        exc: OSError = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    else:
        exc = OSError(fault, os.strerror(fault))
    words = _ours(listen_words("192.0.2.1", 80, exc))
    assert "192.0.2.1" in words and ("--port" in words or "--address" in words), words


@pytest.mark.processes
def test_an_address_that_is_no_name_is_said_in_our_words(tmp_path):
    run = subprocess.run([OBELISK, "web", "--address", "no-such-table.invalid", "--port", "0",
                          "--state-dir", str(tmp_path)], capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 2 and "no-such-table.invalid" in _ours(run.stderr), run.stderr
    assert "--address" in run.stderr


@pytest.mark.processes
def test_hands_that_do_not_answer_are_said_in_our_words(tmp_path):
    (tmp_path / "pin").write_text("1234\n")
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(tmp_path / "hands.sock"))  # left by a simulated table that stopped
    stale.close()
    web = Web(tmp_path).start()
    try:
        phone = Phone(web.url)
        assert phone.enter("1234")[0] == 200
        status, answer, _ = phone.call("POST", "/hands", {"act": "look"})
        assert status == 503 and "obelisk play" in _ours(answer["error"]), answer
        assert "hands.sock" not in answer["error"], answer
    finally:
        web.stop()


def test_a_pin_that_cannot_be_read_is_said_with_its_fix(tmp_path, caplog):
    (tmp_path / "pin").mkdir()  # no PIN file: a folder in its place
    with caplog.at_level(logging.WARNING, logger="obelisk.web"):
        pin, why = Sessions(tmp_path).pin_now()
    assert pin is None and "obelisk pin --new" in _ours(why or ""), why
    assert str(tmp_path / "pin") in caplog.text  # the log names the file
