"""The link's side toward its own table: what it tells the table, and what it hands it.

The table service has no network; its link speaks to it as any reader does.
What the other table sends, the link hands to this table as local commands
on its command socket (``peer``, ``negotiation`` for each message of its asks,
``peer_claim``, ``clock``) and says how the match stands (``link``); what
this table tells (``timer``, ``match`` and ``remote`` events), the link
reads from its event stream (a reader that joins gets the standing ones
first, so a restarted link sends them again) and hands to its broker side.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from firmware.match.messages import RESEND_S
from firmware.match.playing import Playing
from firmware.service import command_socket

log = logging.getLogger("obelisk.remote")

class TableSide:
    """The link's talk with its own table, on ``state_dir``: said once, handed once."""

    def __init__(self, state_dir: Path, playing: Playing) -> None:
        self.dir = state_dir
        self.playing = playing
        self.said = ""  # the last words said in the log (the same words are said once)
        self.handed = 0  # the last action number of theirs the table took to light
        self.handed_at = 0.0
        self.owed: dict[str, dict] = {}  # what the other table sent that this one did not
        # take (it was down): handed again at the link's next step (``hand_owed``)

    def say(self, words: str, level: int = logging.WARNING) -> None:
        """Said in the link's log, once for the same words."""
        if words != self.said:
            self.said = words
            log.log(level, "%s", words)

    def tell(self, state: str, words: str) -> None:
        """Show how the match stands on the table's page (and in this log)."""
        self.say(words, logging.INFO if state in ("linked", "back") else logging.WARNING)
        with contextlib.suppress(command_socket.ControlUnavailable):  # said in the log at least
            command_socket.send(self.dir, {"command": "link", "state": state, "message": words},
                                timeout=2.0)

    def set_up(self) -> dict | bool | None:
        """The match the table is set up for (None: none; False: the table did not answer)."""
        try:
            answer = command_socket.send(self.dir, {"command": "status"}, timeout=2.0)
        except command_socket.ControlUnavailable:
            return False
        return answer.get("remote") if isinstance(answer.get("remote"), dict) else None

    def hand_action(self, now: float, match: str, n: int, action: dict, agreed: int) -> None:
        """The other table's next action (number ``n``), to the table to light (again after a
        while: the table may have restarted since, and takes the same action twice as once)."""
        if self.handed == n and now - self.handed_at < RESEND_S:
            return
        try:
            answer = command_socket.send(self.dir, {"command": "peer", "match": match, "n": n,
                                                    "action": action, "agreed": agreed},
                                         timeout=3.0)
        except command_socket.ControlUnavailable as exc:
            self.say(f"the table did not take the other table's move: {exc}")
            return
        if answer.get("ok") and not str(answer.get("message", "")).startswith("waiting"):
            self.handed, self.handed_at = n, now
        elif not answer.get("ok"):
            self.say(f"the table refused the other table's move {n}: {answer.get('error')}")

    def hand_ask(self, part: str, opened: dict | None) -> None:
        """The other table's ask, its player's answer to ours, or its claim: to this table."""
        if not isinstance(opened, dict):
            return
        if part == "claim":  # (with its place, unless from a link before it was sent)
            place = {k: opened[k] for k in ("n", "agreed") if type(opened.get(k)) is int}
            commands = [{"command": "peer_claim", "player": opened.get("by"), **place}]
        else:
            said = opened.get("messages")
            commands = [{"command": "negotiation", "ask": m} for m in (
                said if isinstance(said, list) else []) if isinstance(m, dict)]
        for command in commands:
            try:
                answer = command_socket.send(self.dir, command, timeout=3.0)
            except command_socket.ControlUnavailable as exc:
                self.say(f"the other table's ask did not reach this table: {exc}")
                self.owed[part] = opened  # (retained: the broker will not send it again)
                return
            if not answer.get("ok"):
                log.warning("the other table's %s was refused: %s", part, answer.get("error"))
        self.owed.pop(part, None)

    def hand_owed(self) -> None:
        """What the table did not take while it was down, handed again (a table counts each
        message of the asks once, so a repeat changes nothing)."""
        for part, opened in list(self.owed.items()):
            self.hand_ask(part, opened)

    def hand_clock(self, data: dict) -> None:
        """The other table's hourglass changed: shown on this table's page."""
        fields = {k: data.get(k) for k in ("player", "state", "seconds", "left")}
        if fields["player"] == self.playing.seat():
            return  # this table's own player's: it runs here
        with contextlib.suppress(command_socket.ControlUnavailable):
            answer = command_socket.send(self.dir, {"command": "clock", **fields}, timeout=2.0)
            if not answer.get("ok"):
                log.warning("the other table's hourglass was not shown: %s", answer.get("error"))

    def follow(self, stopping: threading.Event, heard: Callable[[dict], None]) -> None:
        """Every event of this table's stream, to ``heard``, until ``stopping``."""
        from firmware.service.stream import StreamError, read_events

        while not stopping.is_set():
            try:
                for event in read_events(self.dir, timeout=None):
                    if stopping.is_set():
                        return
                    heard(event)
            except (StreamError, OSError):
                stopping.wait(0.5)  # the table is not up yet, or restarted
