"""The table's commands from the page: the same inputs its buttons make, on a local socket.

The service listens on ``<state dir>/control.sock`` (mode 0660: the table's
owner and group, so ``obelisk web`` and nobody else). A client writes one
JSON object a line, ``{"command": "pause"}``, and reads one JSON line back:
``{"ok": true, ...}`` or ``{"ok": false, "error": "<why, in a player's words>"}``.

What a command may say, and how it is read, is ``firmware.service.commands``; a
well-formed one is put on the service's one queue and answered once its
loop has carried it out (``firmware.service.command_queue``).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from firmware.service.command_queue import ANSWER_S, TOO_LATE, Request, refusal
from firmware.service.command_runner import CommandRunner
from firmware.service.commands import CommandRefused, parse
from firmware.service.table_maker import TableMaker
from firmware.store.state_dir import LOCK
from hardware.files import read_limited
from hardware.local_socket import LocalServer, read_lines

log = logging.getLogger("obelisk.control")

SOCKET = "control.sock"
"""The command socket's name in the state directory."""
MAX_LINE = 4096
"""The longest command line taken (a new game's options fit many times over)."""
CARRY_S = 2.0
"""How much longer than its deadline an asker waits: a command the loop took up just in
time still finishes and is answered, so what the asker reports is what happened."""


class ControlUnavailable(OSError):
    """No table answers on the command socket (none runs there, or no permission)."""


# ---------------------------------------------------------------------- the socket


class CommandServer:
    """Listens on ``<state dir>/control.sock`` and hands each command to the service's queue."""

    def __init__(self, directory: str | Path, service: Any, maker: TableMaker) -> None:
        self.path = Path(directory) / SOCKET
        self.service = service
        self.runner = CommandRunner(service, maker)
        service.after_input.append(self.runner.follow_up)  # what an input agreed to
        self._server = LocalServer(self.path, self._serve, name="control")
        self._waiting: set[Request] = set()  # the commands put on the queue, not answered
        self._lock = threading.Lock()

    def open(self) -> CommandServer:
        """Start listening (a socket file already there is a stale one: the caller holds the
        state directory's lock)."""
        try:
            self._server.open()
        except OSError as exc:
            raise ControlUnavailable(f"cannot open the command socket {self.path}: "
                                     f"{exc.strerror}; the table plays on without "
                                     "controls from the page") from None
        return self

    def close(self) -> None:
        """Stop taking commands; one queued but not begun is given up (too late), so no
        asker's thread is left waiting for a loop that may have stopped."""
        with self._lock:
            waiting = list(self._waiting)
        for request in waiting:
            request.abandon()
        self._server.close()

    def handle(self, line: bytes) -> dict:
        """One command line's answer (waits for the loop to carry it out)."""
        try:
            command = parse(line)
        except CommandRefused as exc:
            return refusal(str(exc))
        request = Request(command, self.runner)
        with self._lock:
            self._waiting.add(request)
        try:
            return self._wait(request)
        finally:
            with self._lock:
                self._waiting.discard(request)

    def _wait(self, request: Request) -> dict:
        self.service.events.put(("control", request))
        if not request.done.wait(max(0.0, request.deadline - time.monotonic())) and \
                request.withdraw():
            log.warning("dropped the %s command: the table did not come to it before its "
                        "deadline", request.command.name)
            return refusal(TOO_LATE)
        request.done.wait()  # begun in the loop: its answer comes in a moment
        assert request.answer is not None
        return request.answer

    def _serve(self, conn: socket.socket) -> None:
        """One client: each line it sends is a command, answered in turn."""
        conn.settimeout(60)
        for line in read_lines(conn, MAX_LINE):
            if len(line) > MAX_LINE:
                conn.sendall(_line(refusal(f"a command is at most {MAX_LINE} bytes")))
                return
            conn.sendall(_line(self.handle(line)))


def _line(answer: dict) -> bytes:
    return (json.dumps(answer) + "\n").encode()


def serve_commands(service: Any, directory: str | Path,
                   maker: TableMaker) -> CommandServer | None:
    """The service's command socket, or None (with a warning) when it cannot open."""
    try:
        return CommandServer(directory, service, maker).open()
    except ControlUnavailable as exc:
        log.warning("%s", exc)
        return None


def _service_starting(directory: Path) -> bool:
    """Whether a table service holds the state directory, though its command socket is not
    open yet: it opens it just after it tells systemd it is ready (``firmware.run``)."""
    try:
        note = read_limited(directory / LOCK, 4096).decode("utf-8", "replace")
    except OSError:
        return False
    words = note.split(maxsplit=2)  # "process 1234 (obelisk run --state-dir ...)"
    if len(words) < 3 or words[0] != "process" or not words[1].isdigit() or \
            not words[2].startswith("(obelisk run"):
        return False
    try:
        os.kill(int(words[1]), 0)
    except PermissionError:
        return True  # alive, as another user
    except (OSError, OverflowError):
        return False  # the note of a service that stopped
    return True


def send(directory: str | Path, command: dict, timeout: float = ANSWER_S + CARRY_S) -> dict:
    """Send one command to the table running on ``directory``; its answer.

    The command carries its deadline, a part of this wait before its end: a table that
    comes to it later (stopped a while, or swamped) drops it, so a command reported as
    not answered is never carried out afterwards. ControlUnavailable (in words) when no
    table answers there.
    """
    path = Path(directory) / SOCKET
    share = ANSWER_S / (ANSWER_S + CARRY_S)  # of the wait, for the table to take it up
    command = {**command, "deadline": time.monotonic() + timeout * share}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        try:
            conn.connect(str(path))
            conn.sendall(_line(command))
            with conn.makefile("rb") as lines:
                reply = lines.readline(1 << 20)
        except FileNotFoundError:
            if _service_starting(Path(directory)):
                raise ControlUnavailable("the table is starting and opens its commands in a "
                                         "moment: try again") from None
            raise ControlUnavailable("no table is running to take commands (a demo takes "
                                     "none): start it (obelisk run, or obelisk play)") from None
        except PermissionError:
            raise ControlUnavailable(f"no permission to use {path}: run as the table's user "
                                     "or a member of its group") from None
        except TimeoutError:
            raise ControlUnavailable(f"the table did not answer within {timeout:g} s, so "
                                     "nothing was done (it drops a command it comes to too "
                                     "late): is it running?") from None
        except (ConnectionRefusedError, OSError) as exc:
            raise ControlUnavailable(f"the table did not answer ({exc.strerror or exc}): is "
                                     "it running?") from None
    try:
        answer = json.loads(reply)
    except ValueError:
        raise ControlUnavailable("the table stopped before it answered: try again") from None
    if not isinstance(answer, dict):
        raise ControlUnavailable("the table's answer made no sense: try again")
    return answer


def running_tables(places: Iterable[str | Path],
                   ask: dict | None = None) -> Iterator[Path]:
    """The directories among ``places`` whose table answers ``ask`` (``status`` when none is
    given), in order: how a command typed with no --state-dir finds the table running."""
    for place in dict.fromkeys(Path(p) for p in places):
        try:
            answer = send(place, ask or {"command": "status"}, timeout=2.0)
        except ControlUnavailable:
            continue
        if answer.get("ok"):
            yield place
