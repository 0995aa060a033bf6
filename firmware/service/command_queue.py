"""A command on its way through the service's one queue: its deadline, and its answer once.

The command socket (``firmware.service.command_socket``) puts each well-formed command on the
service's queue as a ``Request`` and waits; the loop carries it out. A command the loop
comes to after its asker stopped waiting is never carried out.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import TYPE_CHECKING

from firmware.service.commands import Command, CommandRefused
from firmware.store.journal import JournalError

if TYPE_CHECKING:
    from firmware.service.command_runner import CommandRunner

log = logging.getLogger("obelisk.control")  # the command socket's log, as ever

ANSWER_S = 5.0
"""How long a command waits for the table's loop to take it up; past that it is dropped."""

TOO_LATE = "the table did not answer in time, so nothing was done: try again"


def refusal(words: str) -> dict:
    """The answer to a command that was refused."""
    return {"ok": False, "error": words}


class Request:
    """A command on its way through the service's queue, and its answer.

    Giving up on it (``withdraw``, when the table did not answer in time) and
    the loop taking it up (``carry_out``) exclude each other under one lock: a
    command refused as too late is never carried out later, and one the loop
    has begun is waited for, never refused while it runs.
    """

    def __init__(self, command: Command, runner: CommandRunner,
                 received: float | None = None) -> None:
        self.command = command
        self.runner = runner  # who carries it out, in the service's loop
        received = time.monotonic() if received is None else received
        self.deadline = min(received + ANSWER_S, command.deadline if command.deadline
                            is not None else math.inf)
        self.answer: dict | None = None
        self.done = threading.Event()
        self._lock = threading.Lock()
        self._state = "queued"  # then "taken" by the loop, "withdrawn" by the asker, or
        # "expired": the loop came to it past its deadline (the service was stopped a while)

    def abandon(self) -> None:
        """The socket closes: give up on it unless the loop has begun it (then its asker
        hears it was too late, as it would once its deadline passed)."""
        if self.withdraw():
            self.answer = refusal(TOO_LATE)
            self.done.set()

    def withdraw(self) -> bool:
        """Give up on a command the loop has not begun; False when it already has."""
        with self._lock:
            if self._state == "queued":
                self._state = "withdrawn"
            return self._state == "withdrawn"

    def _take(self) -> bool:
        with self._lock:
            if self._state == "queued":
                late = time.monotonic() - self.deadline
                self._state = "taken" if late <= 0 else "expired"
                if late > 0:
                    log.warning("dropped the %s command: the table came to it %.1f s after "
                                "its asker stopped waiting", self.command.name, late)
            return self._state == "taken"

    def carry_out(self, now: float) -> None:
        """In the service's loop: do it, and answer (a journal refusal is also the loop's);
        nothing at all when the asker gave up on it or its deadline has passed."""
        if not self._take():
            if self._state == "expired":
                self.answer = refusal(TOO_LATE)
                self.done.set()
            return
        try:
            self.answer = self.runner.carry_out(self.command, now)
        except CommandRefused as exc:
            self.answer = refusal(str(exc))
        except JournalError as exc:
            self.answer = refusal(str(exc))
            raise
        finally:
            if self.answer is None:
                self.answer = refusal("the table could not do that")
            self.done.set()
