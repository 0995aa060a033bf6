"""What every game's record shares: options as plain data and back, and its error.

A record holds only what was decided (the options, the seed, the accepted
actions); positions are always rebuilt through the rules. Options are frozen
dataclasses whose fields are numbers, text, flags or enums, so one pair of
functions writes and reads them for every game, and refuses a value of the
wrong kind or a key the options do not have, naming it.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum

from engine.errors import ObeliskError

_UNION = type(int | None)
_NONE = type(None)


class RecordError(ObeliskError):
    """A record entry that does not describe an action, options or a start."""


def options_to_dict(options: object) -> dict:
    """Plain data for a game's options (JSON-ready)."""
    return {f.name: _plain(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def options_from_dict(cls: type, data: object) -> typing.Any:
    """``cls``'s options from plain data; missing keys keep their defaults.

    The options class checks its own values (``__post_init__``); anything it
    refuses, or a value of the wrong kind, becomes a RecordError.
    """
    if not isinstance(data, dict):
        raise RecordError(f"options must be an object, not {data!r}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise RecordError(f"{unknown[0]!r} is not an option of this game (its options are "
                          f"{', '.join(names)})")
    values = {}
    for name, raw in data.items():
        try:
            values[name] = _typed(hints[name], raw)
        except (TypeError, ValueError):
            raise RecordError(f"option {name} = {raw!r} is not valid") from None
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"options {data!r} are not valid ({exc})") from None


def _typed(hint: object, raw: object) -> object:
    """``raw`` as the type ``hint`` names, or TypeError/ValueError."""
    args = typing.get_args(hint)
    if isinstance(hint, _UNION) or typing.get_origin(hint) is typing.Union:
        if raw is None and _NONE in args:
            return None
        (hint,) = [a for a in args if a is not _NONE]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(raw)
    if hint is bool:
        if not isinstance(raw, bool):
            raise TypeError("not true or false")
        return raw
    if hint is int:
        if type(raw) is not int:
            raise TypeError("not a whole number")
        return raw
    if hint is float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise TypeError("not a number")
        return float(raw)
    if hint is str:
        if not isinstance(raw, str):
            raise TypeError("not text")
        return raw
    raise TypeError(f"options of type {hint} cannot be read from a record")


def square(raw: object, name: str = "square") -> tuple[int, int]:
    """A board square written as [row, column]; the rules check it is on their board."""
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(type(v) is int and 0 <= v < 8 for v in raw)):
        raise RecordError(f"{name} {raw!r} is not a square [row, column] with both 0 to 7")
    return (raw[0], raw[1])
