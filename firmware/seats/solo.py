"""Playing alone: the computer takes one seat, and the person makes its moves for it.

``Computer`` is what a table holds when ``--solo A|B`` is given. When the
computer's seat is to act, it chooses at once with the engine's search
(``engine.search``), under a thinking-time cap kept with the monotonic
clock so the service loop is never held up for long, and the table shows
the move: the game's LEDs (``firmware/<game>/solo.py``: ``lights``), the
turn's words (``make the computer's move: ...``: only the asked one is
taken) and an ``asked`` event. The person makes it; the sensors read it like
any other move, and another move for the computer is refused with what
differs. Moves that need no hands (a towers bonus declined, the Maze Master
passing) the table plays itself. The asked move is kept beside the journal
(``asked.json``), so a restart asks the same one again.

A hold of the person's own button while nothing else is asked of them asks for
a hint: the move the computer would play in their place lights up (``hint``).

Each game's ``firmware/<game>/solo.py`` says how its moves light up, how
they read in words, when a made move is the asked one, and which moves the
computer plays in one go (the towers' two zone blocks).
"""

from __future__ import annotations

import contextlib
import gc
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from engine.errors import ObeliskError
from engine.players import Player
from firmware.core import palette
from firmware.games import GAMES
from firmware.seats.far_seat import FarSeat, movers
from firmware.store.state_dir import StateDirError, write_whole
from hardware.files import read_limited

if TYPE_CHECKING:
    from engine.core import S, State
    from firmware.core.hooks import CoreTable, V

ASKED_FILE = "asked.json"
"""The computer's move asked and not yet made, beside the journal (``Computer._keep``)."""

THINK_CAP_S = (0.05, 0.1, 0.2, 0.3)
"""The longest the computer thinks per move at levels 1 to 4 (real seconds): the loop
answers nothing else meanwhile, so this stays short (the issue allows 1 s on a Pi Zero 2 W
at the top level; the budgets usually end the search well before)."""


def think(opponent: Any, state: State, seed: int, cap_s: float,
          clock: Callable[[], float] = time.monotonic) -> tuple[Any, float]:
    """The opponent's move in ``state`` and the seconds it took: its level's budget, cut
    short before ``cap_s`` on ``clock``: no simulation starts that would end past it if it
    took as long as the longest so far (a rollout's length varies; the mean let the stones
    top level end 2 ms past its cap on over 1 % of its moves). The engine reads no clock,
    so the cap lives here, where the table and ``bench/opponents.py`` both search through
    it (the bench measures the opponents as the table plays them)."""
    collecting = gc.isenabled()
    gc.disable()  # a search makes thousands of objects, none in a cycle (reference counts
    try:          # free its tree): the collector's passes would only add to its time
        started = clock()
        last = longest = 0.0  # seconds since started

        def spent() -> bool:  # asked after each simulation: could one more end past the cap?
            nonlocal last, longest
            now = clock() - started
            longest, last = max(longest, now - last), now  # the first holds the search's set-up
            return now + longest >= cap_s

        action = opponent.search(state, seed).run(spent, chunk=1)
        return action, clock() - started
    finally:
        if collecting:
            gc.enable()


class SoloError(ObeliskError):
    """A solo setting that cannot be played (a level out of range)."""


@dataclass(frozen=True)
class Solo:
    """Who the computer plays and how well: what ``--solo`` and ``--level`` say."""

    seat: Player
    level: int = 1
    journal_key: ClassVar[str] = "solo"  # the start entry's key (``firmware.seats.seating``)

    def __post_init__(self) -> None:
        if self.level not in (1, 2, 3, 4):
            raise SoloError(f"the computer's level is 1 (easiest) to 4 (hardest), not "
                            f"{self.level}: use --level 1, 2, 3 or 4")

    flags: ClassVar[str] = "--solo and --level"

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat.value, "level": self.level}

    def words(self) -> str:
        return f"the computer plays seat {self.seat.value} at level {self.level}"

    def flag_values(self) -> list[str]:
        """This setting as the command line gives it."""
        return ["--solo", self.seat.value, "--level", str(self.level)]

    def far_seat(self, game_id: str) -> Computer:
        """The computer's seat at a table of ``game_id``."""
        return Computer(self, game_id)

    def marked(self, seats: dict[str, str]) -> dict[str, str]:
        """The seats as the game names them, the computer's marked with its level."""
        seat = self.seat.value
        return {**seats, seat: f"{seats.get(seat, self.seat)} (computer, level {self.level})"}


def solo_in_start(start: dict[str, Any]) -> Solo | None:
    """The solo setting a journal's start entry records (None: two people play)."""
    kept = start.get("solo")
    if kept is None:
        return None
    if not isinstance(kept, dict) or kept.get("seat") not in ("A", "B") \
            or type(kept.get("level")) is not int:
        raise ValueError(f"the computer's seat and level {kept!r} are not a seat A or B and "
                         "a level 1 to 4")
    return Solo(Player(kept["seat"]), kept["level"])


class Computer(FarSeat):
    """The computer's seat at one table: what it asks of the person, and the hints."""

    hints = True

    def __init__(self, solo: Solo, game_id: str, *, cap_s: float | None = None) -> None:
        from engine.search import opponent  # only a solo table loads the search

        super().__init__(solo, solo.seat, game_id)
        self.opponent = opponent(GAMES[game_id].opponent_tuning(), solo.level)
        self.cap_s = THINK_CAP_S[solo.level - 1] if cap_s is None else cap_s
        self.thinks: list[float] = []  # real seconds per search, for tests and benches

    # ---------------------------------------------------------------- choosing

    def _search(self, state: State, seed: int, cap_s: float) -> Any:
        action, seconds = think(self.opponent, state, seed, cap_s)
        self.thinks.append(seconds)
        return action

    def _plan(self, table: CoreTable[V, S], seat: Player) -> tuple[Any, ...]:
        """The move ``seat`` would make now: one action, or those the game plays in one go
        (the towers' two zone blocks, the maze's segments), all within one think cap: the
        loop answers nothing else meanwhile. The computer's own move, once asked, is kept
        beside the journal: a restart asks the same again (a search capped in time may
        choose otherwise the second time)."""
        kept = self._kept(table) if seat is self.seat else ()
        if kept:
            return kept
        actions = self._search_move(table, seat)
        if seat is self.seat:
            self._keep(table, actions)
        return actions

    def _kept(self, table: CoreTable[V, S]) -> tuple[Any, ...]:
        """What is left of the move asked before a restart, if still legal (else ()): asked
        at this very point, or earlier with part of it made since (a towers choice of two
        blocks, one of them fetched)."""
        try:
            kept = json.loads(read_limited(table.journal.dir / ASKED_FILE, 64 * 1024))
            n = kept.get("n")
            if type(n) is not int or not 0 <= n <= len(table.actions) \
                    or kept.get("seed") != table.seed:
                return ()
            actions = tuple(table.record.action_from_dict(a) for a in kept["actions"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ObeliskError):
            return ()
        return self._still_legal(table.position, self._unmade(actions, table, n))

    def _keep(self, table: CoreTable[V, S], actions: tuple[Any, ...]) -> None:
        kept = {"n": len(table.actions), "seed": table.seed,
                "actions": [table.record.action_to_dict(a) for a in actions]}
        with contextlib.suppress(StateDirError, OSError, TypeError, ValueError):  # a full
            write_whole(table.journal.dir / ASKED_FILE, json.dumps(kept).encode())  # disk: asked

    def _search_move(self, table: CoreTable[V, S], seat: Player) -> tuple[Any, ...]:
        first = table.position
        state, actions = first, list[Any]()
        seed = (table.seed * 1_000_003 + len(table.actions)) % 2**63
        deadline = time.monotonic() + self.cap_s
        while seat in movers(state) and (not actions or self.rules.together(first, state)):
            left = max(0.0, deadline - time.monotonic())  # a late one still searches once
            action = self._search(self.rules.searched(state, seat), seed + len(actions), left)
            actions.append(action)
            state = state.apply_action(action)
        return tuple(actions)

    # ---------------------------------------------------------------- hints

    def button(self, table: CoreTable[V, S], player: Player, kind: str) -> bool:
        """A hold of the person's button asks for a hint; True when it was one."""
        if kind != "hold" or player is not self.person:
            return False
        pos = table.position
        if self.person not in movers(pos):
            table.tell("notice", player=player.value,
                       message="a hint is for your own move: wait for the computer's")
            return True
        self.hinted = self._plan(table, self.person)
        if self.hinted:
            table.tell("hint", **self._said(table, self.hinted, self.person))
        return True


def computer_seat(table: CoreTable[V, S]) -> Player:
    """The computer's seat at a table played alone, where the demo's hands act for it."""
    assert table.solo is not None, "only a table played alone has the computer's seat"
    return table.solo.seat


def shade(asked: bool) -> tuple[palette.RGB, palette.RGB]:
    """(where a piece goes, where it comes from) for the computer's move or a hint."""
    return (palette.ASK, palette.ASK_FROM) if asked else (palette.HINT, palette.HINT_FROM)


# -------------------------------------------------------------------- what most games share


def asks(pos: State) -> bool:
    """Whether the computer's move is asked in this position (by default always)."""
    return True


def together(first: State, state: State) -> bool:
    """Whether the computer plays on in one go (by default one action a turn)."""
    return False


def searched(state: State, seat: Player) -> Any:
    """The position the search starts from for ``seat`` (by default the table's own)."""
    return state


def hands_free(action: Any) -> bool:
    """Whether an action needs no hands, so the table plays it itself (by default none)."""
    return False


def same(pos: State, wanted: Any, made: Any) -> bool:
    """Whether the move made is the one asked (by default: the same action)."""
    return bool(wanted == made)  # (actions are each game's own values)


def words(pos: State, actions: tuple[Any, ...]) -> str:
    """The asked actions in a player's words."""
    return "; ".join(str(a) for a in actions)


def notation(pos: State, actions: tuple[Any, ...]) -> str:
    """The asked actions in the game's notation, as the ``asked`` event carries them."""
    return "; ".join(pos.action_to_string(a) for a in actions)


def differs(pos: State, asked: tuple[Any, ...], made: Any, by: str = "the computer") -> str:
    """What a player reads when the move made for the computer is not the one asked: what
    was made and how to put it right (the turn line says the move asked: not again here)."""
    return (f"{by} asked for another move; this is {made}: put it back as it was and make "
            "the lit move")


# -------------------------------------------------------------------- reading the LEDs

Pixel = Callable[[tuple[str, str, int]], "palette.RGB"]
"""One LED's colour by its key (``("board", "", 5)``): the simulated strip's pixels for the
demo's hands (``devices.leds[key]``), or a frame (``table.led_frame``) in a test."""

K = TypeVar("K")
"""What names a colour a decoder looks for (a word, a rod's levels)."""

SAME_LIGHT = 12.0
"""How far (in RGB units) a pixel may be from a colour and still be read as it: the
table's own colours lie 25 or more apart."""


def pixels_of(leds: Any) -> Pixel:
    """What the hands look at: a frame (a dict, dark where it says nothing) or a strip."""
    if isinstance(leds, dict):
        return lambda key: tuple(leds.get(key, palette.OFF))
    return lambda key: tuple(leds[key])


def seen_as(rgb: Sequence[int], colours: Mapping[K, palette.RGB]) -> K | None:
    """Which of ``colours`` (name -> RGB) a pixel shows, or None: read as a person reads
    it, by the nearest colour, if it is that colour at all."""
    best, far = None, SAME_LIGHT ** 2
    for name, colour in colours.items():
        d = sum((a - b) ** 2 for a, b in zip(colour, rgb, strict=True))
        if d <= far:
            best, far = name, d
    return best


def lit(pixel: Pixel, part: str, owner: str, count: int,
        colours: Mapping[K, palette.RGB]) -> dict[int, K]:
    """The pixels of one part (``board``, ``tower A``...) lit in one of ``colours``: index ->
    the colour's name. The decoders of each game's asked move start here."""
    out = {}
    for i in range(count):
        name = seen_as(pixel((part, owner, i)), colours)
        if name is not None:
            out[i] = name
    return out


ASKED = {"to": palette.ASK, "from": palette.ASK_FROM}
"""The computer's asked move on the board: where a piece goes, where it comes from."""
