"""Reading towers block sets from disk: the packaged default or an owner's file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.errors import BlockSetError
from engine.towers.blocks import BlockSet, block_set_from_dict, parse_block_set
from engine.towers.game import TowersGame, TowersOptions
from hardware.files import MIB, FileRefused, read_limited

DEFAULT_SET = "default_set.toml"
MAX_SET_BYTES = 1 * MIB


def load_block_set(path: str | Path | None = None) -> BlockSet:
    """The default set, or the one described in ``path``; refused with a clear reason."""
    if path is None:
        text = resources.files("engine.towers").joinpath("data", DEFAULT_SET).read_text("utf-8")
        return parse_block_set(text, source=f"default set ({DEFAULT_SET})")
    path = Path(path)
    try:
        text = read_limited(path, MAX_SET_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise BlockSetError(f"set file {path}: not a set file ({exc.strerror}; a set file is "
                            "a small TOML text file)") from None
    except FileNotFoundError:
        raise BlockSetError(f"set file {path}: not found; check the path") from None
    except UnicodeDecodeError:
        raise BlockSetError(f"set file {path}: not a text file; a set file is TOML") from None
    except OSError as exc:
        raise BlockSetError(f"set file {path}: cannot be read ({exc.strerror})") from None
    return parse_block_set(text, source=f"set file {path}")



def make_game(options: TowersOptions, extras: dict) -> TowersGame:
    """A towers game with the set a record kept (``extras["set"]``), else the default set."""
    kept = extras.get("set")
    block_set = block_set_from_dict(kept, "the set kept with the game") \
        if isinstance(kept, dict) else load_block_set()
    return TowersGame(block_set, options)
