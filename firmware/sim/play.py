"""``obelisk play GAME``: a whole table with no table: board, service and page, hands included.

Three processes, as on a real table: the simulated scanner board
(``firmware.sim.hands_board``: ``hardware.sim.board`` with the game's hands on
``hands.sock``), the table service on it (``obelisk run`` with the board's
profile), and the page (``obelisk web``), whose hands panel acts on the board.
Each runs in a session of its own, so Ctrl-C reaches only this command, which
stops them in order: the service (its journal closed), the board, the page. A
child that fails is named with what it said; no traceback reaches the person.

- **Nothing lost.** Each process writes what it says straight to a file of
  its own in the state directory (``LOGS``), never to a pipe that this
  command would have to read: nothing the page or the service prints can
  stall them, even while this command is busy. Each file is cut at
  ``LOG_CAP``, the part before kept as ``<name>.1``.
- **No way in.** This command takes the directory's lock (``state_dir``'s
  "One owner") before it makes or removes anything, and lends it to its
  table service; a second play on the same directory is refused in words.
- **Found again.** With no --state-dir a game's table lives in its own directory under
  the default one (``state_dir.play_state_dir``: ``play/<game>``), the same each time: the
  same ``obelisk play GAME`` typed again resumes the unfinished game (other options typed
  for it are refused before anything starts), and ``obelisk games`` lists what was played.
- **Stopped whole.** Ctrl-C, SIGTERM and SIGHUP (a closed terminal) each
  stop all three; if this command dies outright (SIGKILL), the kernel sends
  each of them SIGTERM (``PR_SET_PDEATHSIG``). A process that stops by itself
  (or is killed) is not started again: play stops the others and says which.
  One paused from outside (SIGSTOP) is said, with how to let it go on, and
  its going on is said too; one paused while it starts ends the start.
- **Picked up again.** The board keeps its pieces in the state directory
  after every act (``firmware.sim.hands_board``) and the service its journal,
  so the same command again finds the table as it was and plays on; pieces
  that could not be put back are said in one line on stderr.
- **The same address.** The page's address is kept in the state directory
  (``PAGE``): with ``--port 0`` the next run serves the page on the same port
  when it is free, so a tab left open finds it again by itself; when it is
  taken, on any free one. The first line printed is the address to open, and
  says when it is not the last run's (a tab left open must be reopened).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from engine.errors import ObeliskError
from firmware.games import GAMES
from firmware.service.command_socket import SOCKET as CONTROL_SOCKET
from firmware.service.pin import read_pin
from firmware.store.journal import Journal
from firmware.store.resume import resolve
from firmware.store.state_dir import StateDir, StateDirError, play_state_dir, write_whole
from hardware.files import read_limited
from hardware.sim.board import HANDS
from hardware.sim.line_socket import LineSocketError, ask

START_S = 30.0
"""How long each process may take to start on a busy machine."""
LOGS = {"service": "service.log", "board": "board.log", "page": "page.log", "link": "link.log"}
"""What each process says, in the state directory."""
LOG = LOGS["service"]
"""The table service's log, in the state directory."""
PAGE = "page.url"
"""The address the page was last served at, in the state directory."""
LOG_CAP = 1 << 20
"""A log longer than this (bytes) is cut: its text moves to ``<name>.1``, the older one
dropped. A line written in the very instant of the cut may be lost with the older one."""
TICK_S = 0.05
"""How often this command looks at its processes and their logs."""
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Ctrl-C, ``kill`` and a closed terminal: each stops the whole play."""
_PR_SET_PDEATHSIG = 1
WHAT = {"service": "table service", "board": "simulated board", "page": "page",
        "link": "link to the other table"}
"""Each process of the play, as a person is told of it."""
T = TypeVar("T")


class PlayError(ObeliskError):
    """``obelisk play`` cannot start or keep running (a port taken, a game without hands)."""


class Stopped(BaseException):
    """A signal asked ``obelisk play`` to stop; everything it started is stopped on the way
    out. A BaseException, as KeyboardInterrupt, so that no ``except Exception`` keeps it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class Signals:
    """Turns the first Ctrl-C, SIGTERM or SIGHUP into ``Stopped`` (later ones change nothing:
    the stop is under way), except while a process is being started (``held``): a child must
    never be started and then forgotten."""

    def __init__(self) -> None:
        self._holding = 0
        self._pending: int | None = None
        self._raised = False

    def install(self) -> None:
        for signum in STOPS:
            signal.signal(signum, self._arrived)

    @staticmethod
    def ignore() -> None:
        """While stopping: a second Ctrl-C or a closed terminal cannot cut the stop short."""
        for signum in STOPS:
            signal.signal(signum, signal.SIG_IGN)

    def _arrived(self, signum: int, _frame: object) -> None:
        if self._holding:
            self._pending = self._pending or signum
        elif not self._raised:
            self._raised = True
            raise Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No ``Stopped`` inside: one that came is raised on the way out."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
        if not self._holding and self._pending is not None and not self._raised:
            self._raised = True
            raise Stopped(self._pending)


def _python(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]


def _dies_with(parent: int) -> Callable[[], None] | None:
    """For Popen's ``preexec_fn``: the child gets SIGTERM when ``parent`` dies, even by
    SIGKILL (Linux's PR_SET_PDEATHSIG; kept through exec). Without it (another system),
    children are still stopped by every signal this command itself hears."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, not in the child
    except (OSError, AttributeError):
        return None

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # it died before the line above: go with it
            os._exit(0)

    return arm


def trim_log(path: Path, cap: int = LOG_CAP) -> None:
    """Keep ``path`` under ``cap``: its text moves to ``<name>.1`` and it starts empty. The
    process writing it appends (O_APPEND), so its next line lands at the new start."""
    try:
        if path.stat().st_size <= cap:
            return
        shutil.copyfile(path, path.with_name(path.name + ".1"))
        os.truncate(path, 0)
    except OSError:
        pass  # a full disk: the log stops growing by itself; the table plays on


def paused(pid: int) -> bool:
    """Whether process ``pid`` is stopped (SIGSTOP and the like): its state in /proc is T."""
    try:  # gone, or no /proc: not paused as far as anyone can tell
        stat = read_limited(f"/proc/{pid}/stat", 4096).decode("ascii", "replace")
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:][:1] in ("T", "t")


def last_line(path: Path, since: int = 0) -> str:
    """The last thing said in ``path`` (from ``since``, where this run's part began)."""
    try:
        with open(path, "rb") as log:
            size = log.seek(0, os.SEEK_END)
            log.seek(since if since <= size else 0)
            text = log.read().decode("utf-8", "replace")
    except OSError:
        return f"see {path}"
    lines = text.strip().splitlines()
    return (lines[-1] if lines else "it said nothing").removeprefix("obelisk: ")


def last_page(where: Path) -> str:
    """The address the page was last served at from ``where`` ("": none kept)."""
    try:
        url = read_limited(where / PAGE, 256).decode("ascii").strip()
        port = urlsplit(url).port  # one out of range is a ValueError
    except (OSError, ValueError):
        return ""
    return url if url.startswith("http://") and port else ""


def free(address: str, port: int) -> bool:
    """Whether the page could listen on ``port`` now (bound as ``obelisk web`` binds it)."""
    import tornado.netutil

    try:
        sockets = tornado.netutil.bind_sockets(port, address or None)
    except OSError:
        return False
    for bound in sockets:
        bound.close()
    return True


class Play:
    """The three processes of ``obelisk play``; ``start()``, then ``wait()``, then ``stop()``."""

    def __init__(self, game: str, state_dir: str | Path, port: int = 8080,
                 address: str = "127.0.0.1", flags: list[str] | None = None,
                 signals: Signals | None = None, chosen: dict | None = None,
                 link: list[str] | None = None) -> None:
        """``flags``: the service's (the game's options, --solo, --new-game); ``chosen``: the
        option fields typed, checked against an unfinished game (None: a new game starts);
        ``link``: a remote match's link to the broker (``obelisk remote``'s flags)."""
        declared = GAMES.get(game)
        if declared is None or not declared.hands:
            raise PlayError(f"the simulated hands for {game} are not built yet: try "
                            "`obelisk play towers`, or watch bots play it with "
                            f"`obelisk demo {game}`")
        self.game, self.dir, self.port, self.address = game, Path(state_dir), port, address
        self.declared = declared
        self.flags = list(flags or [])  # the game's options, as typed (--size 4x4)
        self.profile = declared.profile  # the simulated table it plays on
        self.signals = signals or Signals()
        self.url = ""
        self.before = ""  # the page's address in the last run on this directory ("": none)
        self.later: list[str] = []  # what to say once the address is said
        self.web: subprocess.Popen | None = None
        self.board: subprocess.Popen | None = None
        self.service: subprocess.Popen | None = None
        self.link: subprocess.Popen | None = None
        self.link_flags = link  # None: no match with another table
        self.state: StateDir | None = None
        self.chosen = chosen
        self.resumes: int | None = None  # the unfinished game's actions, when it resumes
        self._since: dict[str, int] = {}  # where each log's part of this run begins
        self._paused: set[str] = set()  # the processes said to be stopped (SIGSTOP)

    def log(self, name: str) -> Path:
        """Where process ``name`` (service, board, page) writes what it says."""
        return self.dir / LOGS[name]

    def _spawn(self, name: str, command: list[str], **kwargs) -> subprocess.Popen:
        """Start one process, its words going to its log; kept in ``self.<attribute>``
        before any signal may stop us."""
        attribute = {"page": "web", "board": "board", "service": "service", "link": "link"}[name]
        path = self.log(name)
        trim_log(path)
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **kwargs.pop("env", {})}
        with open(path, "ab") as log, self.signals.held():
            self._since[name] = log.tell()
            setattr(self, attribute, subprocess.Popen(
                command, start_new_session=True, stdin=subprocess.DEVNULL, stdout=log,
                stderr=log, env=env, preexec_fn=_dies_with(os.getpid()), **kwargs))
        return getattr(self, attribute)

    def start(self) -> Play:
        """Hold the directory, then start the page, the board and the service, each once the
        one before is ready."""
        where = self.dir
        self.state = state = StateDir(where).open(
            f"obelisk play {self.game} --state-dir {where}")
        try:
            self._unfinished()
            self._start_web()
            self._start_board()
            self._prepare()
            self._start_service(state)
            if self.link_flags is not None:  # a match: the link to the other table
                self._spawn("link", _python("firmware.cli", "remote", "--state-dir",
                                            str(self.dir), *self.link_flags))
        except BaseException:
            self.stop()
            raise
        return self

    def _unfinished(self) -> None:
        """Before anything starts: an unfinished game here resumes (``resumes``: its actions
        so far), unless other options were typed for it, which is refused with how to go on."""
        chosen = self.chosen
        if chosen is None:
            return
        named = "" if self.dir == play_state_dir(self.game) else f" --state-dir {self.dir}"
        resolved = resolve(Journal(self.dir), self.game, lambda _game: chosen,
                           continue_with=f"`obelisk play {{game}}{named}` without game options")
        if resolved.unfinished:
            self.resumes = resolved.unfinished.standing()

    def _said(self, name: str, process: subprocess.Popen,
              check: Callable[[str], T | None]) -> T | None:
        """Wait for the line ``check`` accepts in the process's log (its first words)."""
        deadline = time.monotonic() + START_S
        while True:
            with contextlib.suppress(OSError), open(self.log(name), "rb") as log:
                log.seek(self._since[name])
                for line in log.read().decode("utf-8", "replace").splitlines():
                    found = check(line)
                    if found:
                        return found
            if process.poll() is not None:
                return None
            self._not_paused(name, process)
            if time.monotonic() > deadline:
                raise PlayError(f"the {name} did not start in {START_S:g} s; what it said is "
                                f"in {self.log(name)}")
            time.sleep(TICK_S)

    def _not_paused(self, name: str, process: subprocess.Popen) -> None:
        """While it starts: a process paused from outside ends the start, said so."""
        if paused(process.pid):
            raise PlayError(f"the {WHAT.get(name, name)} was stopped (a SIGSTOP from outside "
                            "the play) before it was ready, so the play stops; nothing is "
                            f"lost, and `obelisk play {self.game} --state-dir {self.dir}` "
                            "starts again from where it was")

    @property
    def moved(self) -> bool:
        """Whether the page is not where the last run on this directory served it."""
        return bool(self.before) and self.before != self.url

    def _page_port(self) -> int:
        """The port asked; for any free one (0), the last run's when it is free."""
        self.before = last_page(self.dir)
        port = urlsplit(self.before).port if self.before else None
        return port if self.port == 0 and port and free(self.address, port) else self.port

    def _start_web(self) -> None:
        web = self._spawn("page", _python(
            "firmware.cli", "web", "--address", self.address, "--port", str(self._page_port()),
            "--state-dir", str(self.dir)))
        said = self._said("page", web, lambda line: line if "http://" in line else None)
        if not said:
            raise PlayError(f"the page could not start: {self._last_words('page')}")
        self.url = said[said.index("http://"):].split()[0]
        with contextlib.suppress(StateDirError):  # a full disk: the next run picks a port
            write_whole(self.dir / PAGE, f"{self.url}\n".encode())

    def _start_board(self) -> None:
        board = self._spawn("board", _python(
            "firmware.sim.hands_board", "--state-dir", str(self.dir), "--profile", self.profile,
            "--game", self.game))

        def ready(line: str) -> dict | None:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                said = json.loads(line)
                return said if isinstance(said["profile"], str) else None
            return None

        said = self._said("board", board, ready)
        if not said:
            raise PlayError("the simulated board could not start: "
                            f"{self._last_words('board')}")
        self.board_profile = said["profile"]
        if said.get("said"):  # the pieces it kept could not be put back: the person is told,
            self.later.append(said["said"])  # after the address

    def _prepare(self) -> None:
        """What the game's hands do before the service starts (High Rise: calibrate)."""
        prepare = self.declared.prepare_play()
        if prepare is None:
            return
        try:
            prepare(self.dir, self.board_profile, lambda request: ask(self.dir / HANDS, request))
        except (ObeliskError, LineSocketError) as exc:
            raise PlayError(f"the simulated {self.game} table could not be made ready: "
                            f"{exc}") from None

    def _start_service(self, state: StateDir) -> None:
        """Start the table service on the directory ``state`` holds, lent to it."""
        ready = [self.dir / "buttons.sock", self.dir / CONTROL_SOCKET]  # hands, then controls
        for left in ready:  # a killed service's: we hold the directory, so they are no one's
            with contextlib.suppress(FileNotFoundError):
                left.unlink()  # else they would say ready before this service has resumed
        lock, env = state.lend()  # the service holds our directory with us
        service = self._spawn("service", _python(
            "firmware.cli", "run", "--profile", self.board_profile, "--state-dir",
            str(self.dir), "--game", self.game, *self.flags), env=env, pass_fds=(lock,))
        deadline = time.monotonic() + START_S
        while not all(path.exists() for path in ready):
            if service.poll() is not None:
                raise PlayError(f"the table service stopped: {self._last_words('service')}")
            self._not_paused("service", service)
            if time.monotonic() > deadline:
                raise PlayError(f"the table service did not start in {START_S:g} s; its log "
                                f"is {self.log('service')}")
            time.sleep(TICK_S)

    def _last_words(self, name: str) -> str:
        """What a process that ended said last, or that it was killed (by which signal)."""
        process = {"page": self.web, "board": self.board, "service": self.service,
                   "link": self.link}[name]
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)  # its last words are written before it ends
            with contextlib.suppress(ValueError, TypeError):
                return f"it was killed ({signal.Signals(-process.returncode).name})"
        return last_line(self.log(name), self._since.get(name, 0))

    def wait(self) -> int:
        """Until a signal (``Stopped``) or a process stops by itself (PlayError, with what it
        said); meanwhile each log is kept under its cap."""
        while True:
            for name, process in (("service", self.service), ("board", self.board),
                                  ("page", self.web), ("link", self.link)):
                if process is not None and process.poll() is not None:
                    raise PlayError(self._stopped(name, process))
                if process is not None:
                    self._watch_paused(name, process)
                trim_log(self.log(name))
            time.sleep(TICK_S * 4)

    def _watch_paused(self, name: str, process: subprocess.Popen) -> None:
        """Say when a process is paused from outside (SIGSTOP: the table waits for it, not a
        fault of the game) and when it goes on again."""
        now = paused(process.pid)
        if now == (name in self._paused):
            return
        (self._paused.add if now else self._paused.discard)(name)
        words = (f"was stopped (a SIGSTOP from outside the play), and the table waits for it: "
                 f"`kill -CONT {process.pid}` lets it go on; Ctrl-C stops the whole play, "
                 "nothing lost") if now else "goes on"
        with contextlib.suppress(OSError):  # a closed terminal takes no more words
            print(f"obelisk play: the {WHAT.get(name, name)} {words}", file=sys.stderr,
                  flush=True)

    def _stopped(self, name: str, process: subprocess.Popen) -> str:
        """Why one stopped by itself, and that the same command again picks the game up."""
        return (f"the {WHAT.get(name, name)} stopped: {self._last_words(name)}; the game and "
                f"the pieces on the table are kept, so `obelisk play {self.game} --state-dir "
                f"{self.dir}` goes on from where it was")

    def stop(self) -> None:
        """Stop each process we started, by its own handle: the service first; then let
        the directory go."""
        for process in (self.link, self.service, self.board, self.web):
            if process is None or process.poll() is not None:
                continue
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
                process.send_signal(signal.SIGCONT)  # one paused hears the stop only now
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        if self.state is not None:
            self.state.close()


def run_play(game: str, state_dir: str | None, port: int, address: str,
             flags: list[str] | None = None, chosen: dict | None = None,
             link: list[str] | None = None) -> int:
    """``obelisk play``: start everything, print the address, stop all on Ctrl-C, SIGTERM
    or SIGHUP (128 + the signal's number). With no ``state_dir``, the game's own directory
    (``play_state_dir``): the same each time, so an unfinished game resumes. ``chosen``:
    the option fields typed (None: ``--new-game``, nothing to check)."""
    signals = Signals()
    play = None
    try:
        signals.install()
        where = Path(state_dir) if state_dir else play_state_dir(game)
        play = Play(game, where, port, address, flags, signals, chosen, link)
        play.start()
        moved = f" (a new address: a tab left open at {play.before} no longer finds the " \
            "page; reopen it at this one)" if play.moved else ""
        print(f"obelisk play: open {play.url} in a browser and play {game} from the page "
              f"(it moves the pieces for you){moved}", flush=True)
        logs = [LOGS[name] for name in ("service", "board", "page")] + (
            [LOGS["link"]] if link is not None else [])
        print(f"obelisk play: the table on {where}; what its processes say is in {where}/"
              f"{', '.join(logs[:-1])} and {logs[-1]}; Ctrl-C stops", flush=True)
        for words in play.later:
            print(f"obelisk play: {words}", file=sys.stderr, flush=True)
        if play.resumes is not None:
            actions = f"{play.resumes} action{'' if play.resumes == 1 else 's'}"
            print(f"obelisk play: the unfinished {game} game kept there resumes, {actions} "
                  "in (to start another instead, add --new-game: this one is then kept in an "
                  "archived journal)", flush=True)
        pin = read_pin(where)
        if pin is not None:
            print(f"obelisk play: the table PIN, for the page's controls (new game, pause...): "
                  f"{pin}", flush=True)
        return play.wait()
    except Stopped as stopped:
        with contextlib.suppress(OSError):  # a closed terminal takes no more words
            print(f"obelisk play: stopped ({stopped})", file=sys.stderr, flush=True)
        return 128 + stopped.signum
    finally:
        signals.ignore()
        if play is not None:
            play.stop()
