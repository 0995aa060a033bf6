"""Every silence has a deadline: a broker that takes the connection and never answers (no
CONNACK) is named, as a refused port is, on the log and on the link's status the table's
page shows, and tried again.

The "broker" is ``tests.support.broker.Silent``: a plain TCP server that reads and never
writes. ``HANDSHAKE_S`` (10 s, stated in docs/clubs.md) is the deadline the commands keep;
the tests in this process shorten it to keep the quick tier quick.
"""

from __future__ import annotations

import subprocess
import threading
import time

import pytest

from firmware.match.link import Link
from firmware.readers.club import connect
from firmware.readers.club.config import config_from
from firmware.service import command_socket
from tests.support import ROOT
from tests.support.broker import Silent
from tests.support.club import ended, start_publisher
from tests.support.play import Play
from tests.support.processes import OBELISK, until

STATED_S = 10.0
"""The deadline docs/clubs.md states."""


def _said(path, words: str) -> str:
    """The first line of the log at ``path`` that holds ``words`` ("" before)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return ""
    return next((line for line in text.splitlines() if words in line), "")


def test_the_stated_deadline_is_the_one_kept():
    assert connect.HANDSHAKE_S == STATED_S
    docs = (ROOT / "docs" / "clubs.md").read_text()
    assert f"{STATED_S:g} s" in docs and "CONNACK" in docs


@pytest.mark.processes
@pytest.mark.parametrize("command", ["mqtt", "club"])
def test_a_broker_that_never_answers_is_named_within_the_deadline_and_tried_again(tmp_path,
                                                                                command):
    silent = Silent()
    log = tmp_path / "reader.log"
    try:
        if command == "mqtt":
            proc = start_publisher(tmp_path, silent)
            log = tmp_path / "publisher.log"
        else:
            with open(log, "w") as out:
                proc = subprocess.Popen([OBELISK, "club", "--broker", silent.url, "--port", "0",
                                         "--address", "127.0.0.1"], stdout=out, stderr=out)
        until(lambda: silent.accepted >= 1, 60, "the reader's first connection")
        first = time.monotonic()
        line = until(lambda: _said(log, "gave no MQTT answer"), STATED_S + 50,
                     f"the silent broker named in {log}")
        waited = time.monotonic() - first
        assert silent.url.removeprefix("mqtt://") in line and f"within {STATED_S:g} s" in line
        assert "tries again" in line or "waits for it" in line, line
        assert waited >= STATED_S - 1, f"named after {waited:.1f} s, before its deadline"
        until(lambda: silent.accepted >= 2, 60, "the reader trying again")
        assert proc.poll() is None  # it goes on trying, as for a refused port
        assert ended(proc) == 0
    finally:
        silent.close()
    text = log.read_text()
    assert text.count("gave no MQTT answer") == 1, text  # said once, not at every attempt
    assert "Traceback" not in text


def test_the_link_names_a_silent_broker_on_the_tables_page_and_tries_again(tmp_path,
                                                                          monkeypatch):
    """What the link tells its table (the ``link`` command, shown on every page) says the
    broker does not answer; the link keeps trying, and a refused port is told the same way."""
    monkeypatch.setattr(connect, "HANDSHAKE_S", 1.0, raising=False)
    told: list[dict] = []
    monkeypatch.setattr(command_socket, "send", lambda d, c, timeout=0: told.append(c)
                        or {"ok": True})
    silent = Silent()
    link = Link(config_from({"broker": silent.url, "table": "ta"}), tmp_path)
    runner = threading.Thread(target=link.run, daemon=True)
    runner.start()
    try:
        said = until(lambda: [c for c in told if c["command"] == "link"], 30,
                     "the link telling its table")
        assert said[0]["state"] == "apart" and "gave no MQTT answer" in said[0]["message"]
        until(lambda: silent.accepted >= 2, 30, "the link trying again")
        assert len([c for c in told if c["command"] == "link"]) == 1  # told once
    finally:
        link.stop()
        runner.join(30)
        silent.close()
    refused = Link(config_from({"broker": f"mqtt://127.0.0.1:{silent.port}",
                                "table": "ta"}), tmp_path)
    told.clear()
    runner = threading.Thread(target=refused.run, daemon=True)
    runner.start()
    try:
        said = until(lambda: [c for c in told if c["command"] == "link"], 30,
                     "the link telling its table of a refused port")
        assert said[0]["state"] == "apart" and "nothing answers on port" in said[0]["message"]
    finally:
        refused.stop()
        runner.join(30)


@pytest.mark.processes
def test_obelisk_play_with_a_silent_broker_says_so_on_the_page_and_plays_on(tmp_path):
    from firmware.service.stream import read_events

    silent = Silent()
    play = Play("stones", tmp_path / "table", "--remote", "m", "--seat", "A", "--broker",
                silent.url)
    remote: list[dict] = []

    def follow() -> None:
        for event in read_events(tmp_path / "table", timeout=None):
            if event.get("event") == "remote":
                remote.append(event)

    try:
        play.started()
        threading.Thread(target=follow, daemon=True).start()
        until(lambda: remote, STATED_S + 60, "the link's state on the page")
        assert remote[0]["state"] == "apart", remote
        assert "gave no MQTT answer" in remote[0]["message"], remote
        assert play.page() == 200 and play.process.poll() is None
        assert "gave no MQTT answer" in _said(tmp_path / "table" / "link.log", "MQTT answer")
        logs = next(line for line in play.out.read_text().splitlines() if "Ctrl-C stops" in line)
        assert "service.log, board.log, page.log and link.log" in logs, logs  # all it writes
    finally:
        play.stop()
        silent.close()
