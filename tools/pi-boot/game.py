"""A game on a booted pretend Pi (tools/pi-boot.sh), played and then looked for again.

Runs inside the machine, as pi, with the table's own Python (``.venv/bin/python``):

    game.py play    # a towers game through the command socket, a block set on a pad by
                    # the hands of the scanner board's twin; what the journal holds is kept
    game.py kept    # after a restart or a reboot: the same game, every kept line still in
                    # its journal, the table playing it again

It speaks only the table's own sockets (the command socket, the twin board's hands), as the
page and a person's hands do: nothing of the table is imported, so what it sees is what a
person would. Each wait has a deadline; a FAIL line and status 1 say what never came.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STATE = Path("/var/lib/obelisk")
HANDS = Path("/var/tmp/obelisk-scanner/hands.sock")
KEPT = Path("/var/tmp/obelisk-pi-boot-game.json")
WAIT_S = 900.0
"""Generous: every instruction of the machine is emulated, on a busy host."""


class NeverCame(Exception):
    """What a wait was for did not come before its deadline."""


def _ask(path: Path, message: dict[str, Any]) -> dict[str, Any]:
    """One JSON line to a local socket of the table, and its one JSON line back."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(300)
        conn.connect(str(path))
        conn.sendall((json.dumps(message) + "\n").encode())
        answer: dict[str, Any] = json.loads(conn.makefile().readline())
        return answer


def command(name: str, **fields: Any) -> dict[str, Any]:
    """A command on the table's socket, with a deadline long enough for emulation."""
    return _ask(STATE / "control.sock",
                {"command": name, **fields, "deadline": time.monotonic() + 120})


def until(what: str, check: Callable[[], Any], seconds: float = WAIT_S) -> Any:
    """CHECK's first true answer, asked every 2 s; NeverCame past SECONDS."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            got = check()
        except OSError as exc:  # the table is starting again: its socket is not there yet
            got, why = None, exc
        else:
            why = None
        if got:
            return got
        if time.monotonic() > deadline:
            raise NeverCame(f"{what}: not within {seconds:.0f} s" + (f" ({why})" if why else ""))
        time.sleep(2)


def journal() -> list[str]:
    """The lines of the table's journal of the game on."""
    return (STATE / "journal.jsonl").read_text("utf-8").splitlines()


def moves(lines: list[str]) -> list[dict[str, Any]]:
    """The journal's actions that a person made (the hourglass's timeouts left out)."""
    entries = [json.loads(line) for line in lines]
    return [e for e in entries if e.get("t") == "action" and e["action"].get("a") != "timeout"]


def _readable() -> dict[str, Any] | None:
    status = command("status")
    print(f"status: {status.get('state')}: {status.get('problem')}", flush=True)
    return status if status.get("can", {}).get("start") else None


def play() -> None:
    """Starts a towers game and sets one block on a pad; keeps what the journal then holds."""
    until("the table reading a clear board (can start)", _readable)
    print("new:", command("new", game="towers", options={"hourglass": "600"}), flush=True)
    until("the table reading the board again", _readable)
    print("start:", command("start"), flush=True)
    until("the game on", lambda: command("status").get("state") not in ("setup", None))
    look = _ask(HANDS, {"act": "look"})["table"]
    block = next(b for b in look["pile"] if b["colour"] != "black")
    pad = look["pads"].index(None)
    print("take:", _ask(HANDS, {"act": "take", "seat": "A", "block": block["id"]})["ok"])
    print("set:", _ask(HANDS, {"act": "set", "seat": "A", "pad": pad})["ok"], flush=True)
    until("the block on the pad journalled as a move", lambda: moves(journal()))
    lines = journal()
    status = command("status")
    print(f"journalled: {len(lines)} lines, moves {moves(lines)}; state {status['state']}")
    KEPT.write_text(json.dumps({"lines": lines, "state": status["state"]}), "utf-8")


def kept() -> None:
    """The game played before: its journal lines all still there, the table playing it."""
    before = json.loads(KEPT.read_text("utf-8"))
    status = until("the table answering again",
                   lambda: (s := command("status")).get("ok") and s)
    lines = journal()
    lost = [line for line in before["lines"] if line not in lines]
    print(f"journal: {len(before['lines'])} lines before, {len(lines)} now, "
          f"{len(lost)} lost; moves {moves(lines)}")
    print(f"state: {before['state']} before, {status['state']} now ({status['problem']})")
    if lost or lines[:len(before["lines"])] != before["lines"]:
        raise NeverCame("the journal lost lines of the game")
    if status["game"] != "towers" or status["state"] in ("setup", "over"):
        raise NeverCame(f"the table is not playing the game: {status['game']}, "
                        f"{status['state']}")


def main(argv: list[str]) -> int:
    """``play`` or ``kept``; status 0 when it held, else 1 with a FAIL line."""
    what = {"play": play, "kept": kept}.get(argv[1] if len(argv) > 1 else "")
    if what is None:
        print("usage: game.py play|kept", file=sys.stderr)
        return 2
    try:
        what()
    except (NeverCame, OSError, KeyError, ValueError, StopIteration) as exc:
        print(f"FAIL: {exc}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
