"""``obelisk demo``, paused with its menu button once it has played some moves, until told
to go on: ``python -m tests.support.paused_demo MOVES demo GAME --state-dir DIR ...``.

A page opened mid-game must be compared with a game still in play, and on a busy machine a
page takes seconds to load while a demo plays dozens of moves. So the demo holds still the
way a person holds a game: the menu button pauses it (the hourglass stops, the bots wait),
and the same press resumes it. It writes ``DIR.paused`` once paused, and goes on when
``DIR.go`` exists.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from firmware.cli_commands import demo
from firmware.cli_parser import parser_for

POLL_S = 0.005


def paused_at(moves: int, state_dir: Path):
    """The demo's hook: a thread that pauses the table at ``moves`` actions played."""
    paused, go = state_dir.with_name(state_dir.name + ".paused"), \
        state_dir.with_name(state_dir.name + ".go")

    def until(condition) -> None:
        while not condition():
            time.sleep(POLL_S)

    def hold(table, devices) -> None:
        until(lambda: len(table.actions) >= moves and table.state in ("play", "over"))
        if table.state == "over":
            return  # too short a game to pause: the test sees no .paused and says so
        devices.buttons.press("menu")
        until(lambda: table.state == "paused")
        paused.write_text(f"{len(table.actions)}\n")
        until(go.exists)
        devices.buttons.press("menu")

    def hook(table, devices) -> None:
        threading.Thread(target=hold, args=(table, devices), name="pauser", daemon=True).start()

    return hook


def main(argv: list[str]) -> int:
    moves, words = int(argv[0]), argv[1:]
    args = parser_for(words).parse_args(words)
    return demo(args, hook=paused_at(moves, Path(args.state_dir)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
