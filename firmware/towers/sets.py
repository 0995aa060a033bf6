"""Reading towers block sets from disk: the packaged default or an owner's file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.errors import BlockSetError
from engine.towers.blocks import BlockSet, block_set_from_dict, parse_block_set
from firmware.resume import ResumeError

DEFAULT_SET = "default_set.toml"
MAX_SET_BYTES = 1_000_000


def load_block_set(path: str | Path | None = None) -> BlockSet:
    """The default set, or the one described in ``path``; refused with a clear reason."""
    if path is None:
        text = resources.files("engine.towers").joinpath("data", DEFAULT_SET).read_text("utf-8")
        return parse_block_set(text, source=f"default set ({DEFAULT_SET})")
    path = Path(path)
    try:
        if path.exists() and (not path.is_file() or path.stat().st_size > MAX_SET_BYTES):
            raise BlockSetError(f"set file {path}: not a set file (a set file is a small TOML "
                                "text file)")
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise BlockSetError(f"set file {path}: not found; check the path") from None
    except UnicodeDecodeError:
        raise BlockSetError(f"set file {path}: not a text file; a set file is TOML") from None
    except OSError as exc:
        raise BlockSetError(f"set file {path}: cannot be read ({exc.strerror})") from None
    return parse_block_set(text, source=f"set file {path}")


def towers_block_set(resolved, set_path: str | Path | None) -> BlockSet:
    """The set a towers game plays with: the one its journal kept, or ``--set``'s, or ours.

    An unfinished game goes on with the set it began with; a ``--set`` that
    names another set for it is refused rather than mixed in.
    """
    asked = load_block_set(set_path) if set_path is not None else None
    kept = resolved.unfinished.start.get("set") if resolved.unfinished else None
    if not isinstance(kept, dict):
        return asked or load_block_set()
    where = f"{resolved.unfinished.path} line {resolved.unfinished.first_line}"
    journal_set = block_set_from_dict(kept, f"the set kept in {where}")
    if asked is not None and asked != journal_set:
        raise ResumeError(f"the unfinished towers game in {resolved.unfinished.path.parent} "
                          f"is played with the set {journal_set.name!r}, not the one in "
                          f"{set_path}: leave out --set to continue it, or add --new-game to "
                          "start afresh with your set (the unfinished game is kept)")
    return journal_set
