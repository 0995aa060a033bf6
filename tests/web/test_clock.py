"""The wall clock set back or forward: a PIN session still lasts its 12 hours, and a wrong PIN's
wait what it earned, no more, no less.

A Pi has no clock of its own: at its first minute the wall clock jumps to the network's
time, and a person may set it by hand. The page keeps its sessions and wrong PINs on the
wall clock (its files outlive the process), so issue 45 asked what a step does. Each test
here moves the wall clock (``wall``) and the steady one (``steady``, what really passed)
apart, and says what must hold.
"""

from __future__ import annotations

import asyncio

from firmware.readers.web import controls
from firmware.readers.web.controls import ASK_EVERY_S, CLOSE_AFTER, SESSION_S, Sessions
from firmware.readers.web.wrong_pins import FILE, PinGuard
from firmware.service.pin import table_pin

DAY = 86400.0


class Time:
    """A wall clock and a steady one, each moved by the test."""

    def __init__(self) -> None:
        self.wall_at, self.steady_at = 1_800_000_000.0, 5000.0

    def wall(self) -> float:
        return self.wall_at

    def steady(self) -> float:
        return self.steady_at

    def passes(self, seconds: float) -> None:
        self.wall_at += seconds
        self.steady_at += seconds

    def step(self, seconds: float) -> None:
        """The wall clock set by ``seconds`` (back when negative); no time passes."""
        self.wall_at += seconds


def _sessions(state, time: Time, boot: str = "boot-1") -> Sessions:
    return Sessions(state, clock=time.wall, steady=time.steady, boot=boot)


def test_a_session_does_not_outlive_its_twelve_hours_when_the_clock_is_set_back(tmp_path):
    table_pin(tmp_path)
    time = Time()
    sessions = _sessions(tmp_path, time)
    cookie, _ = sessions.open(0)
    time.step(-DAY)
    time.passes(SESSION_S - 60)
    assert sessions.session(cookie) is not None
    time.passes(61)
    assert sessions.session(cookie) is None, "the clock set back a day kept it a day longer"


def test_a_session_does_not_end_at_once_when_the_clock_jumps_forward(tmp_path):
    table_pin(tmp_path)
    time = Time()
    sessions = _sessions(tmp_path, time)
    cookie, _ = sessions.open(0)
    time.passes(60)
    time.step(DAY)  # the network's time, at the Pi's first minute
    assert sessions.session(cookie) is not None, "a jump of the clock signed the phone out"
    time.passes(SESSION_S - 120)
    assert sessions.session(cookie) is not None
    time.passes(61)
    assert sessions.session(cookie) is None


def test_a_restart_of_the_page_keeps_the_session_to_its_time_whatever_the_clock(tmp_path):
    table_pin(tmp_path)
    time = Time()
    cookie, _ = _sessions(tmp_path, time).open(0)
    time.passes(3600)
    time.step(-DAY)
    again = _sessions(tmp_path, time)  # the page's process started again, the same boot
    assert again.session(cookie) is not None
    time.passes(SESSION_S - 3600 + 1)
    assert _sessions(tmp_path, time).session(cookie) is None


def test_after_the_machine_restarts_a_session_whose_age_cannot_be_told_ends(tmp_path):
    """Another boot: the steady clock started again, so only the wall clock tells an age;
    one behind the session's making (a Pi not yet on the network's time) tells none."""
    table_pin(tmp_path)
    time = Time()
    cookie, _ = _sessions(tmp_path, time).open(0)
    time.passes(3600)
    assert _sessions(tmp_path, time, boot="boot-2").session(cookie) is not None
    time.step(-DAY)
    assert _sessions(tmp_path, time, boot="boot-2").session(cookie) is None


def test_a_wrong_pins_wait_is_what_it_earned_whatever_the_clock(tmp_path):
    time = Time()
    guard = PinGuard(time.wall, tmp_path / FILE, steady=time.steady, boot="boot-1")
    for _ in range(3):
        guard.missed("10.0.0.1")  # the third in a row earns 4 s
    time.step(-DAY)
    assert 0 < guard.wait("10.0.0.1") <= 4
    time.passes(4.1)
    assert guard.wait("10.0.0.1") == 0, "the clock set back kept the wait on for a day"
    guard.missed("10.0.0.1")  # the fourth: 8 s
    time.step(DAY)
    time.passes(1)
    assert guard.wait("10.0.0.1") > 6, "the clock jumping forward ended the wait"
    again = PinGuard(time.wall, tmp_path / FILE, steady=time.steady, boot="boot-1")
    assert 6 < again.wait("10.0.0.1") <= 8  # the same after a restart of the page
    time.step(-2 * DAY)
    reboot = PinGuard(time.wall, tmp_path / FILE, steady=time.steady, boot="boot-2")
    assert 0 < reboot.wait("10.0.0.1") <= 8  # another boot, a clock behind: a wait, not a day
    time.passes(8.1)
    assert reboot.wait("10.0.0.1") == 0


def test_closed_pin_entry_still_asks_the_table_when_the_clock_is_set_back(tmp_path,
                                                                           monkeypatch):
    time = Time()
    sessions = _sessions(tmp_path, time)
    for n in range(CLOSE_AFTER):
        sessions.guard.missed(f"10.0.1.{n}")
    marks = iter(["boot-1", "boot-1", "boot-1-held"])
    asked = []

    def send(state_dir, command: dict) -> dict:  # the table, as its status says its holds
        asked.append(command)
        return {"ok": True, "pin_mark": next(marks)}

    monkeypatch.setattr(controls, "send", send)
    assert asyncio.run(sessions.entry_open()) is False
    time.step(-DAY)
    time.passes(ASK_EVERY_S + 0.1)
    assert asyncio.run(sessions.entry_open()) is False
    assert len(asked) == 2, "the clock set back: the table was not asked for a day"
    time.passes(ASK_EVERY_S + 0.1)  # the menu held at the table meanwhile
    assert asyncio.run(sessions.entry_open()) is True


def test_a_phone_whose_session_ended_is_told_so_in_words(tmp_path):
    from types import SimpleNamespace

    from firmware.readers.web.controls import ENDED, GUEST, cookie_name, session_refusal

    table_pin(tmp_path)
    time = Time()
    sessions = _sessions(tmp_path, time)
    cookie, made = sessions.open(0)

    def asking(with_cookie: str | None) -> SimpleNamespace:
        """A request as the handler sees it: its cookie and its token."""
        return SimpleNamespace(
            settings={}, request=SimpleNamespace(headers={"X-Obelisk-Token": made.token}),
            get_cookie=lambda name: with_cookie if name == cookie_name(None) else None)

    assert session_refusal(asking(cookie), sessions) is None
    time.passes(SESSION_S + 1)
    assert session_refusal(asking(cookie), sessions) == ENDED
    assert "session has ended" in ENDED and "enter the table PIN again" in ENDED
    assert session_refusal(asking(None), sessions) == GUEST
