"""``obelisk play GAME``: a whole table with no table: board, service and page, hands included.

Three processes, as on a real table: the simulated scanner board
(``hardware.sim_board``, with hands on ``hands.sock``), the table service on
it (``obelisk run`` with the board's profile), and the page (``obelisk
web``), whose hands panel acts on the board. Each runs in a session of its
own, so Ctrl-C reaches only this command, which stops them in order: the
service (its journal closed), the board, the page. A child that fails is
named with what it said; no traceback reaches the person.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.errors import ObeliskError
from firmware.control import SOCKET as CONTROL_SOCKET
from firmware.pin import read_pin
from hardware.line_socket import LineSocketError, ask
from hardware.sim_board import HANDS

START_S = 30.0
"""How long each process may take to start on a busy machine."""
LOG = "service.log"
"""The table service's log, in the state directory."""


class PlayError(ObeliskError):
    """``obelisk play`` cannot start or keep running (a port taken, a game without hands)."""


def _python(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]


class Play:
    """The three processes of ``obelisk play``; ``start()``, then ``wait()``, then ``stop()``."""

    def __init__(self, game: str, state_dir: str | Path, port: int = 8080,
                 address: str = "127.0.0.1", flags: list[str] | None = None) -> None:
        if importlib.util.find_spec(f"firmware.{game}.hands") is None:
            raise PlayError(f"the simulated hands for {game} are not built yet: try "
                            "`obelisk play towers`, or watch bots play it with "
                            f"`obelisk demo {game}`")
        self.game, self.dir, self.port, self.address = game, Path(state_dir), port, address
        self.flags = list(flags or [])  # the game's options, as typed (--size 4x4)
        self.profile = "sim-maze" if game == "maze" else "sim"
        self.url = ""
        self.web: subprocess.Popen | None = None
        self.board: subprocess.Popen | None = None
        self.service: subprocess.Popen | None = None

    def _spawn(self, command: list[str], **kwargs) -> subprocess.Popen:
        return subprocess.Popen(command, start_new_session=True, stdin=subprocess.DEVNULL,
                                text=True, **kwargs)

    def start(self) -> Play:
        """Start the page, the board and the service, each once the one before is ready."""
        self.dir.mkdir(parents=True, exist_ok=True)
        try:
            self._start_web()
            self._start_board()
            self._prepare()
            self._start_service()
        except BaseException:
            self.stop()
            raise
        return self

    def _start_web(self) -> None:
        self.web = self._spawn(_python("firmware.cli", "web", "--address", self.address,
                                       "--port", str(self.port), "--state-dir", str(self.dir)),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        said = self.web.stdout.readline()
        if "http://" not in said:
            raise PlayError(f"the page could not start: {self._last_words(self.web)}")
        self.url = said[said.index("http://"):].split()[0]

    def _start_board(self) -> None:
        self.board = self._spawn(_python("hardware.sim_board", "--state-dir", str(self.dir),
                                         "--profile", self.profile, "--game", self.game),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        said = self.board.stdout.readline()
        try:
            self.board_profile = json.loads(said)["profile"]
        except (ValueError, KeyError, TypeError):
            raise PlayError("the simulated board could not start: "
                            f"{self._last_words(self.board)}") from None

    def _prepare(self) -> None:
        """What the game's hands do before the service starts (High Rise: calibrate)."""
        prepare = getattr(importlib.import_module(f"firmware.{self.game}.hands"), "prepare",
                          None)
        if prepare is None:
            return
        try:
            prepare(self.dir, self.board_profile, lambda request: ask(self.dir / HANDS, request))
        except (ObeliskError, LineSocketError) as exc:
            raise PlayError(f"the simulated {self.game} table could not be made ready: "
                            f"{exc}") from None

    def _start_service(self) -> None:
        log = open(self.dir / LOG, "a", encoding="utf-8")  # noqa: SIM115 (the child keeps it)
        with log:
            self.service = self._spawn(
                _python("firmware.cli", "run", "--profile", self.board_profile, "--state-dir",
                        str(self.dir), "--game", self.game, *self.flags), stdout=log,
                stderr=log)
        ready = [self.dir / "buttons.sock", self.dir / CONTROL_SOCKET]  # hands, then controls
        deadline = time.monotonic() + START_S
        while not all(path.exists() for path in ready):
            if self.service.poll() is not None:
                raise PlayError(f"the table service stopped: {self._log_tail()}")
            if time.monotonic() > deadline:
                raise PlayError(f"the table service did not start in {START_S:g} s; its log "
                                f"is {self.dir / LOG}")
            time.sleep(0.05)

    def _log_tail(self) -> str:
        try:
            lines = (self.dir / LOG).read_text("utf-8", "replace").strip().splitlines()
        except OSError:
            return f"see {self.dir / LOG}"
        last = lines[-1] if lines else "it said nothing"
        return last.removeprefix("obelisk: ")

    @staticmethod
    def _last_words(process: subprocess.Popen) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        words = (process.stderr.read() if process.stderr else "").strip().splitlines()
        return (words[-1] if words else "it said nothing").removeprefix("obelisk: ")

    def wait(self) -> int:
        """Until Ctrl-C (130) or a process stops by itself (2, with what it said)."""
        while True:
            for name, process in (("table service", self.service),
                                  ("simulated board", self.board), ("page", self.web)):
                if process is not None and process.poll() is not None:
                    why = self._log_tail() if process is self.service else \
                        self._last_words(process)
                    raise PlayError(f"the {name} stopped: {why}")
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop each process we started, by its own handle: the service first."""
        for process in (self.service, self.board, self.web):
            if process is None or process.poll() is not None:
                continue
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        for process in (self.web, self.board):
            if process is not None:
                for stream in (process.stdout, process.stderr):
                    if stream is not None:
                        stream.close()


def run_play(game: str, state_dir: str | None, port: int, address: str,
             flags: list[str] | None = None) -> int:
    """``obelisk play``: start everything, print the address, stop all on Ctrl-C."""
    where = state_dir or tempfile.mkdtemp(prefix=f"obelisk-play-{game}-")
    play = Play(game, where, port, address, flags)
    try:
        play.start()
        print(f"obelisk play: open {play.url} in a browser and play {game} with the hands "
              f"panel (the table on {where}, its log in {Path(where) / LOG}; Ctrl-C stops)",
              flush=True)
        pin = read_pin(where)
        if pin is not None:
            print(f"obelisk play: the table PIN, for the page's controls (new game, pause...): "
                  f"{pin}", flush=True)
        return play.wait()
    except KeyboardInterrupt:
        print("obelisk play: stopped", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut the stop short
        play.stop()
