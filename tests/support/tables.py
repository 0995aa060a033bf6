"""A game's table in the test's own process: its sensors fed on a clock the test moves.

One harness for every game, made from the game registry as ``obelisk run`` makes a
table: the game's table class and engine come from its declaration, the journal is a real
one in the test's directory, and every event the table emits is checked against the one
vocabulary (``firmware.core.events``) and kept. Time passes only when the test says so
(``wait``), so a settle window or an hourglass runs out exactly where the test wants it.

What differs between games is only what their sensors read, so each game's harness adds
the few words a test needs for that and nothing else: towers see rods and weighed pads,
stones see squares (and stack heights), High Rise weighs each square's pad, the maze sees
its pieces and wall switches. ``harness(game_id, state_dir)`` makes any of them by name.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.core import parse_square, play_chance, seeded_start
from engine.highrise.sensing import Calibration
from engine.maze.sensing import MazeView
from engine.players import Player
from engine.stones.sensing import BoardView
from engine.stones.sensing import sight as stones_sight
from engine.towers.game import TowersGame
from engine.towers.sensing import TowersView, expected_towers
from engine.towers.tower import LEVELS
from engine.towers.turns import Phase
from firmware.core import events
from firmware.games import GAMES
from firmware.readers.terminal.screen import seat_names
from firmware.seats.seating import seated
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent

A, B = Player.A, Player.B
EMPTY: frozenset = frozenset()

SETTLE_S = 0.31
"""A reading held this long has settled: a little more than the table's window (0.3 s)."""

CAL = Calibration(zero=(1000,) * 9, sizes=(700, 1300, 1900), tolerance=190)
"""The load cells of a 3x3 High Rise table as the tests weigh them: each pad reads 1000
empty, and a small, medium and large pyramid (or a cover, which weighs as a large one) adds
700, 1300 and 1900."""


class TableHarness:
    """A game's table (``game_id`` in the registry) fed on a controlled clock.

    ``state``: the position the table starts from (before its setup); ``game``: the engine
    to play (default: the game's own on its default options); ``table_args``: more of what
    the game's table takes (the towers' coin toss, say); ``start``: False for a table
    whose game a test sets itself (``play_random``), never started.
    """

    game_id: ClassVar[str]

    def __init__(self, state_dir: Any, *, seed: int = 3, game: Any = None, state: Any = None,
                 emit: Any = None, start: bool = True, **table_args: Any) -> None:
        spec = GAMES[self.game_id]
        self.events: list[dict] = []
        self.beeps = 0
        self.now = 0.0
        self.journal = Journal(state_dir)
        self.game = game if game is not None else spec.make(spec.options())
        solo = seated(self.journal, self.game_id, table_args.pop("solo", None))  # as made
        self.table = spec.table_class()(self.game, self.journal, *self.table_extras(),
                                        seed=seed, emit=emit or self._emit, beep=self._beep,
                                        solo=solo, **table_args)  # by the service
        if state is not None:
            self.table.game = state.game
            self.table.position, self.table.history = state, [state]
        if start:
            self.table.start(self.now)

    def table_extras(self) -> tuple:
        """What the game's table takes after its journal, before its keywords."""
        return ()

    def _emit(self, event: dict) -> None:
        events.check(event)
        self.events.append(event)

    def _beep(self) -> None:
        self.beeps += 1

    # ---------------------------------------------------------------- time and buttons

    def show(self, view: Any) -> None:
        """The sensors read ``view`` and it holds still until it has settled."""
        self.table.on_view(view, self.now)
        self.wait(SETTLE_S)

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.table.tick(self.now)

    def press(self, button: Player | str, kind: str = "press") -> None:
        """A player's button (or ``"menu"``) pressed or held."""
        name = button.value if isinstance(button, Player) else button
        self.table.on_button(ButtonEvent(name, kind), self.now)

    # ---------------------------------------------------------------- what happened

    def of(self, name: str, /, **fields: Any) -> list[dict]:
        """The events of one name (and with these fields), oldest first."""
        return [e for e in self.events if e["event"] == name
                and all(e.get(k) == v for k, v in fields.items())]

    def last(self, name: str) -> dict:
        return self.of(name)[-1]

    def journalled_actions(self) -> list[dict]:
        return [e for e in self.journal.read().entries if e["t"] == "action"]

    @property
    def pos(self) -> Any:
        return self.table.position

    def put_position(self, state: Any) -> None:
        """Play on from ``state`` as if the game had come to it (a test's shortcut)."""
        self.table.game = state.game
        self.table.position, self.table.history, self.table.actions = state, [state], []

    def play_random(self, n: int, seed: int = 1) -> None:
        """``n`` legal actions (fewer if the game ends) played straight into the table's
        game as the table keeps it (its history and actions), without its sensors."""
        rng = random.Random(seed)
        table = self.table
        pos = seeded_start(table.game, table.seed)[0]
        table.position, table.history, table.actions = pos, [pos], []
        for _ in range(n):
            if pos.is_terminal():
                break
            action = rng.choice(pos.legal_actions())
            pos = play_chance(pos.apply_action(action), _FirstOutcome())
            table.actions.append(action)
            table.history.append(pos)
            table.position = pos


class _FirstOutcome:
    """Chance in the middle of a game (none of the four has any): the first outcome."""

    def below(self, n: int) -> int:
        return 0


class TowersHarness(TableHarness):
    """Towers: the rods' switches (a set of cells a tower) and the zone's two pads."""

    game_id = "towers"

    def __init__(self, block_set: Any, state_dir: Any, seed: int = 3, **more: Any) -> None:
        self.block_set = block_set
        super().__init__(state_dir, seed=seed, game=TowersGame(block_set), toss_s=2.0, **more)

    def see(self, towers: Any = (EMPTY, EMPTY), pads: Any = (None, None)) -> None:
        self.show(TowersView(tuple(towers), tuple(pads)))

    def towers(self) -> Any:
        """What the rods read for the position as the game has it."""
        return expected_towers(self.pos)

    def start_play(self) -> TowersHarness:
        """A clear table, a press, the coin toss: the first turn under way."""
        self.see()
        assert self.table.state == "setup" and "press a player button" in self.table.problem
        self.press(A)
        assert self.table.state == "toss"
        self.wait(2.1)
        assert self.table.state == "play"
        return self

    def zone_of(self, *ids: str) -> tuple:
        """What the zone's pads weigh with these blocks on them (colours; None: empty)."""
        colours = [self.block_set[b].colour for b in ids]
        return tuple(colours) + (None,) * (2 - len(colours))

    def deal(self, mine: str, theirs: str) -> tuple:
        """The active player weighs two blocks into the zone; the pads."""
        self.see(self.towers(), self.zone_of(mine))
        self.see(self.towers(), self.zone_of(mine, theirs))
        assert self.pos.phase is Phase.TAKE
        return self.zone_of(mine, theirs)

    def place_view(self, player: Player, cells: Any) -> tuple:
        """The rods with ``cells`` added to ``player``'s tower (those under the top)."""
        towers = list(self.towers())
        towers[player.index] = towers[player.index] | frozenset(
            c for c in cells if c[2] < LEVELS)
        return tuple(towers)


class StonesHarness(TableHarness):
    """Stones: a switch a square, and with ``levels`` above 1 how high each stack stands."""

    game_id = "stones"

    def __init__(self, state_dir: Any, state: Any = None, game: Any = None, levels: int = 1,
                 **more: Any) -> None:
        self.levels = levels
        super().__init__(state_dir, game=game, state=state, **more)

    def see(self, seen: Any) -> None:
        """Settle on a BoardView, or on a set of occupied squares (switches only)."""
        if not isinstance(seen, BoardView):
            seen = BoardView.of((square, 1) for square in seen)
        self.show(seen)

    def started(self) -> StonesHarness:
        self.see(stones_sight(self.table.position, self.levels))
        self.press(A)
        assert self.table.state == "play"
        return self

    def after(self, *changes: str) -> set:
        """The squares the switches read after ``changes`` ("-b2" lifted, "+c3" put)."""
        seen = set(stones_sight(self.table.position).squares)
        for change in changes:
            (seen.discard if change[0] == "-" else seen.add)(parse_square(change[1:]))
        return seen


class HighriseHarness(TableHarness):
    """High Rise: what lies on each square's pad (covers and pyramids), weighed."""

    game_id = "highrise"

    def __init__(self, state_dir: Any, seed: int = 1, **more: Any) -> None:
        self.pads: list[list] = [[] for _ in range(9)]
        self.frames: list[dict] = []
        super().__init__(state_dir, seed=seed, **more)

    def table_extras(self) -> tuple:
        return (CAL,)

    def reading(self) -> tuple:
        return tuple(CAL.zero[i] + sum(CAL.sizes[s.value - 1] for s in pad)
                     for i, pad in enumerate(self.pads))

    def settle(self) -> None:
        """The pads weigh what lies on them; the LED frame after is kept in ``frames``."""
        self.show(self.reading())
        self.frames.append(self.table.led_frame(self.now, 16))

    def covers(self) -> HighriseHarness:
        """A cover on every square, then a press: the game under way."""
        from engine.highrise.game import Size

        for pad in self.pads:
            pad[:] = [Size.LARGE]
        self.settle()
        self.press(A)
        return self

    def put(self, index: int, size: Any) -> None:
        self.pads[index].append(size)
        self.settle()


class MazeHarness(TableHarness):
    """The maze: the squares' switches (pieces) and the wall switches."""

    game_id = "maze"

    def __init__(self, state_dir: Any, turns: int = 20, seed: int = 7, **more: Any) -> None:
        from engine.maze.game import MazeGame, MazeOptions

        self.pieces: set = set()
        self.walls: set = set()
        super().__init__(state_dir, seed=seed, game=MazeGame(MazeOptions(turns=turns)), **more)

    def settle(self) -> None:
        self.show(MazeView(frozenset(self.pieces), frozenset(self.walls)))

    def put(self, *names: str) -> None:
        self.pieces |= {parse_square(n) for n in names}
        self.settle()

    def lift(self, name: str) -> None:
        self.pieces.discard(parse_square(name))
        self.settle()

    def wall(self, name: str) -> None:
        self.walls.add(parse_square(name))
        self.settle()

    def pick(self, button: str, wanted: Any) -> None:
        """Press through the table's candidates until ``wanted`` is lit, then hold."""
        for _ in range(len(self.table.candidates)):
            if self.table.candidates[self.table.pick] == (wanted,):
                break
            self.press(button)
        self.press(button, "hold")

    def ready(self, obelisk: str = "d4",
              segments: tuple[str, ...] = ("a8", "h8", "h1", "b1")) -> MazeHarness:
        """The obelisk, then the four segments set out: the game under way."""
        self.put(obelisk)
        for name in segments:
            self.put(name)
        assert self.table.state == "play" and self.table.position.phase.value == "wall"
        return self


HARNESSES: dict[str, type[TableHarness]] = {
    h.game_id: h for h in (TowersHarness, StonesHarness, HighriseHarness, MazeHarness)}


def harness(game_id: str, state_dir: Any, **args: Any) -> TableHarness:
    """Any game's table, on its defaults, before its first game (its sensors read nothing
    yet); for towers the default set."""
    if game_id == "towers":
        from firmware.towers.sets import load_block_set

        return TowersHarness(load_block_set(), state_dir, **args)
    return HARNESSES[game_id](state_dir, **args)


def made(table: Any, *actions: Any) -> list[str]:
    """These actions played one after another into the table's game: its moves list read as
    the terminal reads it."""
    names = seat_names(table.game.id)
    for action in actions:
        table.actions.append(action)
        table.position = table.position.apply_action(action)
        table.history.append(table.position)
    return [f"{names.get(m['player'], 'player ' + m['player'])} {m['text']}"
            for m in table.public_state()["moves"]]
