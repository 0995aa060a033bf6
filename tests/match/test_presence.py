"""Whether the other table of a match is there (issue 47): a link that stops cleanly says
offline before it goes, a killed one leaves its last will, and either way the other table
says it is out of touch within the time docs/clubs.md states, through a real mosquitto."""

from __future__ import annotations

import signal
import subprocess
import threading

from tests.support.remote import OBELISK, LinkedPair, StandIn
from tests.support.processes import until

STOPPED_S = 5.0
"""docs/clubs.md: a table stopped, or its link killed, is out of touch at the other table
within 5 s."""

GONE = ("the other table (player B) is out of touch since ", ": the match waits; its "
        "player's hourglass is stopped here")


def _out_of_touch(table: StandIn) -> list[str]:
    return [c["message"] for c in table.told("link") if c["state"] == "apart"]


def _said_gone(words: list[str]) -> bool:
    return any(w.startswith(GONE[0]) and w.endswith(GONE[1]) for w in words)


def test_a_link_stopped_cleanly_is_out_of_touch_at_the_other_table_at_once(
        tmp_path, broker, monkeypatch):
    pair = LinkedPair(tmp_path, broker, monkeypatch)
    try:
        assert _out_of_touch(pair.a) == []
        pair.links["tb"].stop()  # as SIGTERM, Ctrl-C or obelisk play stopping does
        until(lambda: _said_gone(_out_of_touch(pair.a)), STOPPED_S,
              "table A saying table B out of touch")
    finally:
        pair.close()


def test_a_killed_link_is_out_of_touch_at_the_other_table_by_its_last_will(
        tmp_path, broker, monkeypatch):
    from firmware.match.link import Link
    from firmware.match.seat import match_seed
    from firmware.readers.club.config import config_from
    from firmware.service import command_socket

    seed = match_seed("m", "tulip")
    a = StandIn(tmp_path / "ta", "m", "A", seed)
    b = StandIn(tmp_path / "tb", "m", "B", seed)
    monkeypatch.setattr(command_socket, "send", lambda where, command, timeout=0:
                        a.take(command))
    link = Link(config_from({"broker": broker.url, "table": "ta"}), a.dir)
    running = threading.Thread(target=link.run, daemon=True)
    running.start()
    other = subprocess.Popen(  # table B's link as its own process, to be killed
        [*OBELISK, "remote", "--state-dir", str(b.dir), "--broker", broker.url,
         "--table", "tb"], stdout=subprocess.DEVNULL, stderr=open(tmp_path / "tb.log", "w"))
    try:
        until(lambda: link.broker.other.proven, 30, "table A's link finding table B's")
        other.send_signal(signal.SIGKILL)
        other.wait(10)
        until(lambda: _said_gone(_out_of_touch(a)), STOPPED_S,
              "table A saying table B out of touch")
    finally:
        if other.poll() is None:
            other.kill()
            other.wait(10)
        link.stop()
        running.join(30)
