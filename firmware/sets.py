"""Reading towers block sets from disk: the packaged default or an owner's file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.blocks import BlockSet, parse_block_set
from engine.errors import BlockSetError

DEFAULT_SET = "towers_default_set.toml"


def load_block_set(path: str | Path | None = None) -> BlockSet:
    """The default set, or the one described in ``path``; refused with a clear reason."""
    if path is None:
        text = resources.files("engine").joinpath("data", DEFAULT_SET).read_text("utf-8")
        return parse_block_set(text, source=f"default set ({DEFAULT_SET})")
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise BlockSetError(f"set file {path}: not found; check the path") from None
    except UnicodeDecodeError:
        raise BlockSetError(f"set file {path}: not a text file; a set file is TOML") from None
    except OSError as exc:
        raise BlockSetError(f"set file {path}: cannot be read ({exc.strerror})") from None
    return parse_block_set(text, source=f"set file {path}")
