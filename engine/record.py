"""What every game's record shares: the record itself, replay, options as plain data.

A record holds only what was decided: the game, its options, the seed that
decides its chance (a coin toss, hidden values) and the players' actions in
order. Positions are always rebuilt through the rules (``replay``), so a
record can never hold a position the rules would not reach. Each game says
how one of its actions reads as plain data (``engine/<game>/record.py``).

Options are frozen dataclasses whose fields are numbers, text, flags or
enums, so one pair of functions writes and reads them for every game, and
refuses a value of the wrong kind or a key the options do not have, naming it.
An option added to the rules later is missing from the records written
before it; the options class says in ``RECORDED_WITHOUT`` what such a record
meant (a rule it did not have is off), so an old game replays as it was played.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar

from engine.core import ChanceStream, Game, S, play_chance, seeded_start
from engine.errors import ObeliskError

_UNION = type(int | None)
_NONE = type(None)


class Options(Protocol):
    """A game's options: a dataclass, whose fields ``dataclasses.fields`` lists."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


OptionsT = TypeVar("OptionsT", bound=Options)


class RecordError(ObeliskError):
    """A record entry that does not describe an action, options or a start."""


@dataclass(frozen=True)
class Record:
    """A whole game as plain data: what ``replay`` needs to rebuild every position.

    ``extras`` holds what else the game is made of (a towers game's own set).
    """

    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[dict[str, Any], ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "seed": self.seed,
                "actions": list(self.actions), **({"extras": self.extras} if self.extras else {})}

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """A record read back from plain data (an export); RecordError says what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record is an object with game, options, seed and actions")
        game, options, seed = data.get("game"), data.get("options", {}), data.get("seed")
        actions, extras = data.get("actions", []), data.get("extras", {})
        if not isinstance(game, str) or not isinstance(options, dict) or type(seed) is not int \
                or not isinstance(actions, list) or not isinstance(extras, dict):
            raise RecordError("a record needs game (text), options (an object), seed (a whole "
                              "number), actions (a list) and, if any, extras (an object)")
        return cls(game, options, seed, tuple(actions), extras)


def replay(start: S, actions: Iterable[object],
           stream: ChanceStream | None = None) -> list[S]:
    """Every position from ``start`` through ``actions``, chance resolved from ``stream``.

    RecordError names the first action that the rules refuse.
    """
    states = [start]
    state = start
    for number, action in enumerate(actions, 1):
        try:
            state = state.apply_action(action)
        except ObeliskError as exc:
            raise RecordError(f"action {number} ({action}) does not replay: {exc}") from None
        if stream is not None:
            state = play_chance(state, stream)
        states.append(state)
    return states


def replay_record(game: Game[S], record: Record,
                  action_from_dict: Callable[[object], object]) -> list[S]:
    """Every position of a recorded game, the first after the seeded chance."""
    start, stream = seeded_start(game, record.seed)
    return replay(start, (action_from_dict(a) for a in record.actions), stream)


def options_to_dict(options: Options) -> dict[str, Any]:
    """Plain data for a game's options (JSON-ready)."""
    return {f.name: _plain(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def options_from_dict(cls: type[OptionsT], data: object) -> OptionsT:
    """``cls``'s options from plain data; missing keys take what records without them
    meant (``cls.RECORDED_WITHOUT``), else their defaults.

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
    without = getattr(cls, "RECORDED_WITHOUT", {})
    values = {name: meant for name, meant in without.items() if name not in data}
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
    return _scalar(hint, raw)


def _scalar(hint: object, raw: object) -> object:
    """``raw`` as a bool, int, float or str, checked strictly: JSON's true is no number."""
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
