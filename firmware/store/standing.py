"""What stood at a stop that the journal does not keep: a pause, a turn's hourglass.

The journal keeps a game's moves, so a table started again rebuilds its
position from them; but a pause, or the sand left in a towers turn's
hourglass, is no move. When the table stops (systemd's stop, Ctrl-C) it writes what
stands beyond its moves to ``standing.json`` in its state directory, whole,
with the game's seed and how many actions it had played. The next start reads
it once and removes it, so it is never used for a later turn.

Nothing kept means the turn starts afresh, as it does after a power cut (no
stop comes then): no file, a file of another game or position, or a damaged
one (then ``Kept.said`` says so in one line).
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from firmware.store.state_dir import sync_dir, write_whole
from hardware.files import read_limited

STANDING = "standing.json"
LIMIT = 64 * 1024
"""What stands beside a game's moves is a few numbers: a bigger file is none of ours."""


@dataclass(frozen=True)
class Kept:
    """What the last stop kept for this game and position (empty: nothing to restore)."""

    values: dict = field(default_factory=dict)
    said: str = ""  # why a file that was there could not be used ("": it could, or none)


def keep(directory: Path, seed: int, actions: int, values: dict) -> None:
    """Write ``values`` for the game of ``seed`` after ``actions`` actions (raises
    StateDirError, with the fix, when the disk refuses)."""
    data = {"seed": seed, "actions": actions, **values}
    write_whole(Path(directory) / STANDING, (json.dumps(data) + "\n").encode())


def take(directory: Path, seed: int, actions: int) -> Kept:
    """What was kept for this game at this many actions; the file is gone afterwards."""
    path = Path(directory) / STANDING
    try:
        raw = read_limited(path, LIMIT)
    except FileNotFoundError:
        return Kept()
    except OSError as exc:
        return _gone(path, Kept(said=f"{path} cannot be read ({exc.strerror or exc})"))
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:
        return _gone(path, Kept(said=f"{path} is damaged"))
    if not isinstance(data, dict):
        return _gone(path, Kept(said=f"{path} holds nothing a table kept"))
    if data.get("seed") != seed or data.get("actions") != actions:
        return _gone(path, Kept())  # another game's, or another position's: not a fault
    return _gone(path, Kept({k: v for k, v in data.items() if k not in ("seed", "actions")}))


def _gone(path: Path, kept: Kept) -> Kept:
    """Remove the file read (used once, whatever it held)."""
    with contextlib.suppress(OSError):
        path.unlink()
        sync_dir(path.parent)
    return kept
