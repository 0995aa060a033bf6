"""``obelisk play GAME`` as a person runs it: started, its address read, stopped with Ctrl-C.

One handle for every test that plays on the simulated table through the real command (its
board, service and page as processes): what the command prints goes to files beside its
state directory (a pipe nobody reads could fill and freeze it), the hands and the buttons
are reached through their sockets as the page's hands panel reaches them, and a test ends
it as a person does, with Ctrl-C, or for good if it will not end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.service.command_socket import send
from hardware.sim.line_socket import ask
from tests.support.processes import OBELISK, interrupt, on_directory, until

START_S = 90.0
"""How long a play may take to start on a busy 2-core machine."""
GONE_S = 20.0
"""How long its processes may take to stop (the service closes its journal first)."""


class Play:
    """``obelisk play GAME FLAGS...`` on ``state_dir`` (None: the default directory, as a
    person types it), printing into ``logs`` (default: beside the state directory).

    ``start`` runs the command; ``url`` waits for the address it prints. Each start prints
    into files of its own (``out``/``err`` are the latest run's).
    """

    def __init__(self, game: str, state_dir: Path | None, *flags: str, port: int = 0,
                 env: dict[str, str] | None = None, logs: Path | None = None,
                 name: str = "") -> None:
        self.game, self.dir, self.flags, self.port, self.env = game, state_dir, flags, port, env
        self.logs = logs or (state_dir.parent if state_dir is not None else Path.cwd())
        self.name = name or f"{state_dir.name if state_dir is not None else 'default'}-play"
        self.process: subprocess.Popen | None = None
        self.runs = 0
        self.out = self.err = self.logs / f"{self.name}.out"
        self._url = ""

    @property
    def command(self) -> list[str]:
        where = ["--state-dir", str(self.dir)] if self.dir is not None else []
        return [OBELISK, "play", self.game, "--port", str(self.port), *where, *self.flags]

    def start(self) -> Play:
        """Type the command (again); what it prints goes to this run's files."""
        self.runs += 1
        suffix = "" if self.runs == 1 else f"-{self.runs}"
        self.out = self.logs / f"{self.name}{suffix}.out"
        self.err = self.logs / f"{self.name}{suffix}.err"
        self.logs.mkdir(parents=True, exist_ok=True)
        with open(self.out, "w") as out, open(self.err, "w") as err:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=err, env=self.env)
        self._url = ""
        return self

    def started(self) -> Play:
        """``start``, then wait until it says where its page is (its three processes run)."""
        self.start()
        assert self.url
        return self

    def said(self) -> str:
        """The first line it printed, once it has printed one ("" before)."""
        text = self.out.read_text()
        return text.partition("\n")[0] if "\n" in text else ""

    def _address(self) -> str:
        first = self.said()
        if "http://" in first:
            return first
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"obelisk play {self.game} stopped: {self.err.read_text()}")
        return ""

    def wait_started(self, timeout: float = START_S) -> str:
        """Its first line, once it says where the page is (AssertionError if it stops)."""
        return until(self._address, timeout, f"obelisk play {self.game} to print its address")

    @property
    def url(self) -> str:
        """The page's address it printed (waited for)."""
        if not self._url:
            first = self.wait_started()
            self._url = first[first.index("http://"):].split()[0]
        return self._url

    def page(self, path: str = "/") -> int:
        """The page's answer's status (0: no answer in 10 s, a frozen page)."""
        try:
            with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except (TimeoutError, urllib.error.URLError):
            return 0

    # ---------------------------------------------------------------- the table

    def act(self, act: dict) -> dict:
        """One act of the hands, through their socket (what a click on the panel sends); a
        press goes to the table's buttons."""
        assert self.dir is not None, "the default directory's table: name it to act on it"
        if act["act"] == "press":
            return ask(self.dir / "buttons.sock", {"button": act["seat"],
                                                   "hold": bool(act.get("hold"))})
        return ask(self.dir / "hands.sock", act)

    def look(self) -> dict:
        """What stands on the simulated table, as the hands see it."""
        return self.act({"act": "look"})["table"]

    def press(self, button: str, hold: bool = False) -> dict:
        assert self.dir is not None
        return ask(self.dir / "buttons.sock", {"button": button, "hold": hold})

    def status(self) -> dict:
        """The table service's status, through its command socket."""
        assert self.dir is not None
        return send(self.dir, {"command": "status"})

    def until_status(self, check: Callable[[dict], Any], what: str,
                     timeout: float = 60.0) -> dict:
        """The table's status, once ``check`` holds for it."""
        def seen() -> dict | None:
            status = self.status()
            return status if check(status) else None

        return until(seen, timeout, what, every=0.1)

    # ---------------------------------------------------------------- stopping

    def ctrl_c(self) -> None:
        """Ctrl-C, without waiting for the command to end."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)

    def wait_ended(self, timeout: float = GONE_S) -> int | None:
        """Its exit status once it ends (it is killed if it will not)."""
        if self.process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.process.wait(timeout)
        interrupt(self.process)
        return self.process.returncode

    def restart(self) -> str:
        """Ctrl-C, then the same command typed again; its address."""
        self.stop()
        self.start()
        return self.url

    def stop(self) -> None:
        """Ctrl-C, as a person stops it; for good if it will not end."""
        if self.process is not None:
            interrupt(self.process)

    def close(self) -> None:
        """End it and whatever it started, each by its own pid (a failed test's leftovers)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self.dir is not None:
            for pid in on_directory(self.dir):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
