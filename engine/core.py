"""One game API for every game: what a bot, the table and a test all call.

The shape is OpenSpiel's. A game is a ``Game`` (fixed facts: its id, its
options, ``new_initial_state()``) and positions are immutable ``State``
values with:

- ``current_player()``: who acts next (None at a chance node or the end);
- ``legal_actions()``, ``apply_action(action)`` (a new state, or a specific
  ``ObeliskError`` in a player's words), ``is_terminal()``;
- ``outcome()``: one ``Outcome`` for every game (why it ended, who won or a
  draw, scores where the game counts them, a breakdown a person reads),
  and ``returns()`` for search;
- ``action_to_string(action)`` and ``string_to_action(text)``, each the
  other's inverse (a notation people can read and type);
- ``observation()``: the public facts, as plain data (what anyone at the
  table may see; never what the rules hide);
- chance: ``is_chance_node()`` and ``chance_outcomes()`` (a coin toss, hidden
  dice). ``play_chance`` resolves chance nodes from a seed, the same seed
  always the same way, so a seed and the players' actions are a whole game.

Nothing here reads a clock, a file or the network: chance is a seeded,
fixed generator (splitmix64), written out so it is the same on every Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

from engine.players import PLAYERS, Player

MASK = 0xFFFFFFFFFFFFFFFF


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, the same shape for every game.

    ``termination`` says why in a word (``over_the_top``, ``obelisk``...),
    the records keep; ``winner`` is None for a draw, ``scores`` holds each
    player's points where the game counts points (None where it only has a
    winner), ``breakdown`` a few lines per player that explain the result, and
    ``ended`` why it ended as the game's rules sheet says it (``move limit``
    for ``ply_limit``; by default the termination's own words).
    """

    termination: str
    winner: Player | None
    scores: tuple[int, int] | None = None
    breakdown: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    ended: str = ""

    def returns(self) -> tuple[float, float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw."""
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner is Player.A else (-1.0, 1.0)

    def words(self, seats: Mapping[str, str] | None = None) -> str:
        """The result in one line a person reads, each seat named as the game names it
        (``{"A": "the Architect", ...}``; by default "player A")."""
        winner = self.winner
        who = "a draw" if winner is None else \
            f"{(seats or {}).get(winner.value, str(winner))} wins"
        if self.scores is not None:  # the winner's points first: "B wins, 24 to 15"
            first = self.winner.index if self.winner is not None else 0
            who += f", {self.scores[first]} to {self.scores[1 - first]}"
        return f"{who} (the game ended: {self.ended or self.termination.replace('_', ' ')})"

    def to_dict(self, seats: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Plain data for events, journals and pages (``seats``: as for ``words``)."""
        return {"termination": self.termination,
                "winner": self.winner.value if self.winner else None,
                "scores": None if self.scores is None else dict(zip("AB", self.scores,
                                                                    strict=True)),
                "breakdown": {p.value: list(self.breakdown[p.index]) for p in PLAYERS},
                "words": self.words(seats)}


def returns_of(outcome: Outcome | None) -> tuple[float, float]:
    """``returns()`` for any state: 0 each until the game is over."""
    return (0.0, 0.0) if outcome is None else outcome.returns()


class State(Protocol):
    """What every game's state offers (see the module's docstring).

    Actions are each game's own values (``Any`` here: the search, the bots and the table
    pass them back to the state they came from); a state's ``apply_action`` returns a
    state of its own game.
    """

    def current_player(self) -> Player | None: ...

    def legal_actions(self) -> list[Any]: ...

    def apply_action(self, action: Any) -> Self: ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def returns(self) -> tuple[float, float]: ...

    def action_to_string(self, action: Any) -> str: ...

    def string_to_action(self, text: str) -> Any: ...

    def observation(self) -> dict[str, Any]: ...

    def is_chance_node(self) -> bool: ...

    def chance_outcomes(self) -> list[tuple[Any, float]]: ...

    def to_move(self) -> tuple[Player, ...]: ...

    def actor(self, action: Any) -> Player | None: ...

    def describe_phase(self) -> str: ...


S = TypeVar("S", bound=State)
"""Some game's state: what goes in comes back out, a towers state as a towers state."""


class _NamesThePlayer(Protocol):
    """What ``Turns`` needs of the state it is mixed into."""

    def current_player(self) -> Player | None: ...


class Turns:
    """For a game where one player acts at a time: who may act, who made an action and
    what the turn is about follow from ``current_player`` (towers, where both players
    may place at once, says more)."""

    def to_move(self: _NamesThePlayer) -> tuple[Player, ...]:
        """The players who may act now."""
        player = self.current_player()
        return (player,) if player is not None else ()

    def actor(self: _NamesThePlayer, action: Any) -> Player | None:
        """Who makes ``action``: the player to move."""
        return self.current_player()

    def describe_phase(self) -> str:
        """What the player to act is to do, in a sentence."""
        return "your move"


class NoChance:
    """For a game that leaves nothing to chance: no chance node, ever."""

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return []


S_co = TypeVar("S_co", bound=State, covariant=True)


class Game(Protocol[S_co]):
    """What every game offers: its id and options, and the first position (a ``Game[S]``
    starts states of type ``S``)."""

    @property
    def id(self) -> str: ...

    @property
    def options(self) -> object: ...  # each game's own frozen options

    def new_initial_state(self) -> S_co: ...


# ------------------------------------------------------------------ chance


def mix(x: int) -> int:
    """One splitmix64 step: a fixed, well-spread sequence from any seed."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class ChanceStream:
    """Uniform draws from a seed, one after another, the same on every machine."""

    def __init__(self, seed: int) -> None:
        self._state = mix(mix(seed & MASK) ^ (seed >> 64 & MASK))

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, every one equally likely."""
        limit = (1 << 64) - (1 << 64) % n  # reject the top sliver
        while True:
            self._state = (self._state + 0x9E3779B97F4A7C15) & MASK
            z = mix(self._state)
            if z < limit:
                return z % n


def play_chance(state: S, stream: ChanceStream) -> S:
    """Resolve chance nodes from ``stream`` until a player (or the end) is to act.

    Each node's outcomes are taken in the order the game lists them and drawn
    by their weights (all games here have equally likely outcomes).
    """
    while state.is_chance_node():
        outcomes: Sequence[tuple[Any, float]] = state.chance_outcomes()
        state = state.apply_action(outcomes[stream.below(len(outcomes))][0])
    return state


def seeded_start(game: Game[S], seed: int) -> tuple[S, ChanceStream]:
    """The first position a player acts in, chance resolved from ``seed``, and the stream
    (games with chance later on draw from it as they go)."""
    stream = ChanceStream(seed)
    return play_chance(game.new_initial_state(), stream), stream


def square_name(square: tuple[int, int]) -> str:
    """Board squares as people read them: column letter, row number from A's edge."""
    return f"{'abcdefgh'[square[1]]}{square[0] + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """``square_name``'s inverse; ValueError for anything else."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square like a1 or h8")
    return (int(text[1]) - 1, "abcdefgh".index(text[0]))


def plural(n: int, noun: str, many: str = "") -> str:
    """The noun as a count of ``n`` takes it: ``action`` for 1 (and -1), ``actions`` for any
    other (``many``: a noun's own plural where an s will not do)."""
    return noun if n in (1, -1) else many or noun + "s"


def counted(n: int, noun: str, many: str = "") -> str:
    """A count and its noun as people write it: ``1 action``, ``2 actions``, ``0 points``."""
    return f"{n} {plural(n, noun, many)}"
