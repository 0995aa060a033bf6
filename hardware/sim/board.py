"""The simulated scanner board as a process of its own, with hands to move its pieces.

A real scanner board is hardware of its own, on a USB cable; its twin here
is a process of its own behind a pseudo-terminal::

    python -m hardware.sim.board --state-dir DIR [--profile sim|sim-maze] [--game towers]

It runs the board's own code (``hardware/scanner/``) on the simulated table
(``SimTable``), links the pty at ``DIR/scanner``, and writes
``DIR/sim-board.toml``: the profile, with its scanner port that path. The
service runs on that profile exactly as on a real board
(``obelisk run --profile DIR/sim-board.toml --state-dir DIR``).

With ``--game``, the board also takes a person's physical acts on
``DIR/hands.sock`` (one JSON object a line, answered with one): the game's
hands (``firmware/<game>/hands.py``) turn each act into changes of the
simulated sensors only, and ``{"act": "look"}`` answers what is on the table.
The hands are made for the state directory (``hands(sim, state_dir)``): they
keep what stands on the table there and put it back when a board starts there
again, before its first scan, as a wooden table keeps its pieces.
When it is ready it prints one JSON line (``{"port": ..., "profile": ...}``,
with ``"said"``: why the pieces kept before could not be put back, if they
could not); SIGTERM or Ctrl-C stop it and remove what it made (never the
pieces it keeps).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import signal
import sys
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Protocol

from hardware.profile import (
    BUILT_IN,
    ProfileError,
    board_layout,
    load_profile,
    parse_profile,
    read_profile_file,
)
from hardware.sim.line_socket import JsonObject, LineServer
from hardware.sim.table import SimTable

HANDS = "hands.sock"
"""The hands' socket, in the state directory."""
PROFILE = "sim-board.toml"
"""The profile the service uses for this board, written in the state directory."""


def board_profile(profile: str, port: str) -> str:
    """The text of ``profile`` with its scanner port set to ``port`` (a board's pty)."""
    if profile in BUILT_IN:
        text = resources.files("hardware").joinpath("profiles", f"{profile}.toml")\
            .read_text("utf-8")
    else:
        text = read_profile_file(Path(profile))
    text = re.sub(r'(?m)^name\s*=.*$', 'name = "sim board"', text, count=1)
    changed, found = re.subn(r'(?m)^port\s*=\s*"sim"', f"port = {json.dumps(port)}", text,
                             count=1)
    if not found:
        raise ProfileError(f"profile {profile}: its scanner port is not \"sim\", so it is no "
                           "simulated table: use --profile sim (or sim-maze)")
    return changed


class GameHands(Protocol):
    """A game's hands on the simulated table (``firmware/<game>/hands.py``)."""

    def act(self, request: JsonObject) -> None:
        """Do one act of a person (raises the engine's ObeliskError when it cannot be)."""

    def look(self) -> JsonObject:
        """What is on the table now."""


class SimBoard:
    """The simulated table and its board, their pty in ``state_dir``; hands if a game is given."""

    def __init__(self, state_dir: str | Path, profile: str = "sim",
                 hands: Callable[[SimTable, Path], GameHands] | None = None) -> None:
        self.dir = Path(state_dir)
        self.profile_name = profile
        loaded = load_profile(profile)
        if not loaded.simulated:
            raise ProfileError(f"profile {profile}: its scanner port is {loaded.scanner.port!r}, "
                               "not the simulated board: use --profile sim (or sim-maze)")
        self.sim = SimTable(board_layout(loaded), link_dir=str(self.dir))
        # a game's hands come from above (firmware declares each game's): none, no socket;
        # they put back the pieces kept in the directory before the board's first scan
        self.hands = hands(self.sim, self.dir) if hands is not None else None
        self._lock = threading.Lock()  # one act at a time, whoever sends it
        self._server: LineServer | None = None
        self.profile_path = self.dir / PROFILE

    def start(self) -> SimBoard:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.sim.start()
        text = board_profile(self.profile_name, self.sim.port_path)
        parse_profile(text, str(self.profile_path))  # refuse here, not in the service
        self.profile_path.write_text(text, "utf-8")
        if self.hands is not None:
            self._server = LineServer(self.dir / HANDS, self.answer).open()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        self.sim.stop()
        with contextlib.suppress(FileNotFoundError):
            self.profile_path.unlink()

    def __enter__(self) -> SimBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, request: JsonObject) -> JsonObject:
        """One act of a hand; the table as it is after it, or why the act cannot be done."""
        from engine.errors import ObeliskError  # the hands' errors are in a player's words

        hands = self.hands
        if hands is None:  # its socket is served only with hands: a caller of its own
            return {"ok": False, "error": "this board has no hands: start it with --game"}
        with self._lock:
            if request.get("act") != "look":
                try:
                    hands.act(request)
                except ObeliskError as exc:
                    return {"ok": False, "error": str(exc), "table": hands.look()}
                except (TypeError, ValueError, KeyError, IndexError, AttributeError,
                        OverflowError) as exc:
                    # any local program may write to the hands' socket: a field of the
                    # wrong kind (a list for a name) is refused, and the board lives on
                    act = request.get("act")
                    name = act if isinstance(act, str) else "do that"
                    return {"ok": False, "table": hands.look(),
                            "error": f"the hands cannot {name[:40]} with those fields: one of "
                                     f"them is not of the kind the act takes "
                                     f"({type(exc).__name__})"}
            return {"ok": True, "table": hands.look()}


def main(argv: list[str] | None = None,
         hands_for: Callable[[str], Callable[[SimTable, Path], GameHands]] | None = None,
         prog: str = "python -m hardware.sim.board") -> int:
    """The board as a process; ``hands_for(game)`` gives a game's hands for ``--game`` (the
    firmware's ``python -m firmware.sim.hands_board`` passes it: the games live up there)."""
    parser = argparse.ArgumentParser(prog=prog,
                                     description="The simulated scanner board, as a process "
                                     "of its own, with hands on its table.")
    parser.add_argument("--state-dir", required=True, help="where its pty, profile and hands' "
                        "socket go (the table's state directory)")
    parser.add_argument("--profile", default="sim", help="sim (default) or sim-maze, or a "
                        "simulated profile file")
    parser.add_argument("--game", default=None, help="take a person's acts for this game on "
                        f"{HANDS}")
    args = parser.parse_args(argv)
    if args.game is not None and hands_for is None:
        parser.error("--game needs the games' hands: run python -m firmware.sim.hands_board")
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        hands = hands_for(args.game) if args.game is not None and hands_for else None
        board = SimBoard(args.state_dir, args.profile, hands).start()
    except (ProfileError, OSError, LookupError) as exc:
        print(f"sim board: {exc}", file=sys.stderr, flush=True)
        return 2
    try:
        ready = {"port": board.sim.port_path, "profile": str(board.profile_path)}
        said = getattr(board.hands, "said", "")
        print(json.dumps({**ready, "said": said} if said else ready), flush=True)
        while not stopping.wait(1.0):
            pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
