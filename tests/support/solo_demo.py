"""``obelisk demo`` playing alone, that also keeps how long the computer thought for each of
its moves: ``python -m tests.support.solo_demo THINKS demo GAME --solo SEAT ...`` writes the list of
seconds (``Computer.thinks``) to the file THINKS once the game is over.

A person sees the computer's moves, not its thinking; the tests check that too, so the solo
games can be played as a person runs them, side by side, ahead of the tests that check them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from firmware.cli_commands import demo
from firmware.cli_parser import parser_for


def main(argv: list[str]) -> int:
    thinks, words = Path(argv[0]), argv[1:]
    args = parser_for(words).parse_args(words)
    tables: list = []
    code = demo(args, hook=lambda table, devices: tables.append(table))
    thinks.write_text(json.dumps(tables[0].solo.thinks if tables else []))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
