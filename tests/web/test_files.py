"""Every file the page's server reads is read with a bound, and a bad one is refused in words.

The page's process reads two files of its own in the state directory: the count of wrong
PINs (``web/wrong-pins.json``) and the phones signed in (``web/sessions.json``). Each may be
made a huge sparse file, a named pipe, a folder or a link to an endless device; read the
usual way, a pipe kept the page from ever starting and ``/dev/zero`` ate gigabytes (issue 45).
Read through ``hardware.files.read_limited``, each is refused at once: a count that cannot be
read keeps PIN entry closed, and the page and its log say which file and what opens it again.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from firmware.readers.web import wrong_pins
from firmware.readers.web.controls import SESSIONS_FILE, Sessions
from firmware.readers.web.wrong_pins import FILE, PinGuard
from firmware.service.pin import table_pin
from tests.support.files import HUNG, device, fifo, folder, huge, outcome_within
from tests.support.http import Phone
from tests.support.web import Web

WEB = Path(wrong_pins.__file__).parent

BAD = {"a huge sparse file": (huge, "larger than"), "a named pipe": (fifo, "named pipe"),
       "a folder": (folder, "directory"), "a link to /dev/zero": (device, "device"),
       "half a file": (lambda p: p.write_text('{"total": 3, "addr'), "damaged")}


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_count_of_wrong_pins_keeps_pin_entry_closed_and_says_why(tmp_path, kind):
    make, what = BAD[kind]
    (tmp_path / "web").mkdir()
    make(tmp_path / FILE)
    got: list[PinGuard] = []
    outcome = outcome_within(lambda: got.append(PinGuard(path=tmp_path / FILE)), 10)
    assert outcome is not HUNG, f"{kind}: the count was still being read after 10 s"
    assert outcome is None, f"{kind}: {outcome!r}"
    guard = got[0]
    assert guard.closed, f"{kind}: PIN entry open though the count cannot be read"
    words = guard.unreadable or ""
    assert "web/wrong-pins.json" in words and what in words, words
    assert "hold the menu button" in words and "Errno" not in words, words


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_sessions_file_signs_no_one_in_and_the_log_says_which(tmp_path, kind, caplog):
    make, what = BAD[kind]
    table_pin(tmp_path)
    (tmp_path / "web").mkdir()
    make(tmp_path / SESSIONS_FILE)
    got: list[Sessions] = []
    with caplog.at_level(logging.WARNING, logger="obelisk.web"):
        outcome = outcome_within(lambda: got.append(Sessions(tmp_path)), 10)
    assert outcome is None, f"{kind}: {outcome!r}"
    assert got[0].sessions == {}
    said = " ".join(r.getMessage() for r in caplog.records)
    assert str(tmp_path / SESSIONS_FILE) in said and what in said, said
    assert "enter the PIN again" in said, said
    with caplog.at_level(logging.WARNING, logger="obelisk.web"):
        cookie, _ = got[0].open(0)  # a phone signs in: its session holds
    assert got[0].session(cookie) is not None
    if kind == "a folder":  # a folder in its place cannot be replaced: kept in memory, said
        assert "cannot keep the phones signed in" in caplog.text, caplog.text
        assert "is a folder, not a file: delete it" in caplog.text, caplog.text
    else:  # anything else is replaced: kept for a restart
        assert Sessions(tmp_path).session(cookie) is not None


@pytest.mark.processes
def test_the_page_starts_with_a_pipe_for_its_count_and_says_pin_entry_is_closed(tmp_path):
    (tmp_path / "pin").write_text("1234\n")
    (tmp_path / "web").mkdir()
    fifo(tmp_path / FILE)
    err = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    web = Web(tmp_path, stderr=err)
    try:
        started = outcome_within(web.start, 30)
        assert started is None, f"obelisk web did not start in 30 s: {started!r}"
        phone = Phone(web.url)
        status, answer, _ = phone.call("GET", "/session")
        assert status == 200 and answer["session"] is False
        assert "web/wrong-pins.json" in answer["closed"], answer
        assert "hold the menu button" in answer["closed"], answer
        status, answer, _ = phone.enter("1234")  # even the right PIN
        assert status == 423 and "web/wrong-pins.json" in answer["error"], answer
    finally:
        web.stop()
    said = err.read_text()
    assert str(tmp_path / FILE) in said and "named pipe" in said, said
    assert "Traceback" not in said
