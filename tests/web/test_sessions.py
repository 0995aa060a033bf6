"""The page's sign-in outlives a restart of the page's process (obelisk play restarts it
with the table): a phone signed in with the PIN stays signed in, as the docs promise."""

from __future__ import annotations

import os
import stat

from firmware.readers.web.controls import SESSION_S, Sessions
from firmware.service.pin import read_table_pin, table_pin


def test_a_session_outlives_the_page_process_and_ends_as_before(tmp_path):
    table_pin(tmp_path)
    pin = read_table_pin(tmp_path)
    now = [1000.0]
    first = Sessions(tmp_path, clock=lambda: now[0], steady=lambda: now[0])
    cookie, made = first.open(pin.generation)
    # the page's process started again
    again = Sessions(tmp_path, clock=lambda: now[0], steady=lambda: now[0])
    kept = again.session(cookie)
    assert kept is not None and kept.token == made.token
    assert again.session("another cookie") is None
    kept_file = next((tmp_path / "web").glob("sessions*"))
    assert cookie not in kept_file.read_text()  # only a hash of it: the file signs no one in
    assert stat.S_IMODE(os.stat(kept_file).st_mode) & 0o077 == 0
    again.close(cookie)  # signed out: not back after another restart
    assert Sessions(tmp_path, clock=lambda: now[0], steady=lambda: now[0]).session(cookie) is None
    cookie, made = again.open(pin.generation)
    now[0] += SESSION_S + 1  # and a session still ends on time
    assert Sessions(tmp_path, clock=lambda: now[0], steady=lambda: now[0]).session(cookie) is None


def test_a_damaged_sessions_file_signs_no_one_in_and_is_no_error(tmp_path):
    table_pin(tmp_path)
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "sessions.json").write_text("{not json")
    sessions = Sessions(tmp_path)
    assert sessions.session("x") is None
    cookie, _ = sessions.open(0)
    assert sessions.session(cookie) is not None
