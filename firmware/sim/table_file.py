"""What stands on a simulated table, kept in its state directory as the wooden set keeps it.

A real table's pieces stay where they are when its Pi loses power or a
program stops; a simulated table's live in a process. So whoever moves them
(a demo's bots, ``obelisk play``'s board with a person's hands) writes them as
plain data to a file of the state directory after every act, whole
(``write_whole``: a temporary file, synced, renamed), and reads them back when
it starts there again: ``{"game": id, "table": ..., and what else it keeps}``.

A file that cannot be read, or that another game wrote, is no crash: the
table starts empty, the file is moved aside (kept, never deleted, never
replaced) and one line in a player's words says why (``said``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from firmware.store.state_dir import StateDirError, sync_dir, write_whole
from hardware.files import MIB, read_limited

LIMIT = 1 * MIB
"""No table's pieces take more; a bigger file is no table's."""
ASIDE = "set-aside"
"""In the name of a file moved aside: ``sim-hands.set-aside-20250101-120000.json``."""


class TableFile:
    """The pieces a simulated table keeps in ``path``, for ``game``; ``name`` says them."""

    def __init__(self, path: str | Path, game: str, name: str) -> None:
        self.path = Path(path)
        self.game = game
        self.name = name  # how lines said to stderr begin (the game, or the board)
        self.said = ""  # why what was kept could not be used, in one line ("" if it could)
        self._failed = False
        self._last = b""

    # ------------------------------------------------------------ keeping

    def save(self, table: Any, **beside: Any) -> None:
        """Replace the file with ``table`` (and ``beside`` it, such as a demo's seed); the
        same pieces again are not written twice. A failure to write is said once on stderr:
        the journal is what matters, and the pieces are saved at the next act that can."""
        data = json.dumps({"game": self.game, **beside, "table": table}).encode()
        if data == self._last:
            return
        try:
            write_whole(self.path, data)
        except StateDirError as exc:
            if not self._failed:
                print(f"{self.name}: {exc}", file=sys.stderr, flush=True)
            self._failed = True
            return
        self._last = data

    # ------------------------------------------------------------ reading back

    def load(self) -> dict | None:
        """What this game kept here (``{"table": ..., ...}``); None when nothing was kept, or
        when the file is damaged or another game's: then it is moved aside and ``said``
        says so."""
        try:
            raw = read_limited(self.path, LIMIT)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self.set_aside(f"cannot be read ({exc.strerror or exc})")
            return None
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError:  # cut short, or not text at all
            self.set_aside("cannot be read (it is cut short or damaged)")
            return None
        if not isinstance(data, dict):
            self.set_aside("cannot be read (it holds no table's pieces)")
            return None
        game = data.get("game", self.game)  # kept before the game was written beside: ours
        if game != self.game:
            self.set_aside(f"are from a game of {str(game)[:40]}, not {self.game}")
            return None
        return data if "table" in data else {"table": data}  # before the seed was kept too

    def set_aside(self, why: str) -> None:
        """Move the file aside (kept, never over another kept before) and say ``why`` the
        table starts empty."""
        target = self._aside()
        try:
            os.rename(self.path, target)
            sync_dir(self.path.parent)
            kept = f"the file is kept as {target}"
        except OSError as exc:
            kept = f"the file stays where it is ({exc.strerror or exc})"
        self.said = (f"the pieces the simulated table kept in {self.path} {why}: the table "
                     f"starts empty, so set the pieces out again; {kept}")

    def _aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        stem, suffix = self.path.stem, self.path.suffix
        target = self.path.with_name(f"{stem}.{ASIDE}-{stamp}{suffix}")
        n = 1
        while target.exists():  # two in one second keep both
            target = self.path.with_name(f"{stem}.{ASIDE}-{stamp}.{n}{suffix}")
            n += 1
        return target
