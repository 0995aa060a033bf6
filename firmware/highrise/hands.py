"""A person's hands on the simulated High Rise board: covers and pyramids on the load cells.

Each square of the 3x3 board sits on its own load cell (the simulated
profile has nine). A hand puts a cover on a square or takes it off, sets one
of its player's pyramids (small, medium or large) on a square, lifts the top
pyramid off again (back to its owner), or, by mistake, leans a pyramid
across two squares so each carries half of it. Each change reaches only the
simulated load cells, weighed as the demo's bots weigh them
(``hardware.sim.table.pad_grams``); the table learns of it by weight alone.
``clear`` takes every pyramid and cover off the board (the pyramids back to
their owners); ``setup`` does so and puts a cover on every square, as the
table waits for before a new game.

A table that was never calibrated is calibrated first by ``prepare``, as a
person does it with ``obelisk calibrate highrise``: the hands empty the board
and set one pyramid of each size alone on a1, and the board's own readings
are measured through the link.

What the hands know is plain data too (``physical``): the board keeps it in its
state directory and gives it back to new hands when it starts again
(``restore``); each player's supply is what is not on the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core import square_name
from engine.highrise.game import HighriseOptions, Size
from engine.highrise.sensing import CalibrationError
from firmware.sim.hands import SEATS, HandsError, Sweeps, seat_of, square_of
from hardware.sim.table import SimTable, pad_grams

OPTIONS = HighriseOptions()
"""The board the simulated table weighs: 3x3, a load cell a square."""
SIZES = {size.label: size.value for size in Size}


@dataclass(frozen=True)
class Pyramid:
    """One pyramid on the board: whose, and its pips (1 small, 2 medium, 3 large)."""

    seat: str
    pips: int

    def words(self) -> str:
        return f"{self.seat} {Size(self.pips).label}"


@dataclass(frozen=True)
class Leaning:
    """A pyramid set across two squares: each pad carries half of it."""

    piece: Pyramid
    squares: tuple[int, int]


class HighriseHands(Sweeps):
    """Both players' hands on the High Rise board; every act goes through ``act``."""

    def __init__(self, sim: SimTable) -> None:
        self.sim = sim
        self.rows, self.cols = OPTIONS.rows, OPTIONS.cols
        cells = self.rows * self.cols
        self.covers = [False] * cells
        self.stacks: list[tuple[Pyramid, ...]] = [()] * cells
        self.leaning: Leaning | None = None
        owned = {size.value: n for size, n in OPTIONS.pieces().items()}
        self.supply = {seat: dict(owned) for seat in SEATS}

    def look(self) -> dict:
        """The physical board as plain data, for a page to draw and act on."""
        return {"rows": self.rows, "cols": self.cols,
                "squares": [{"square": square_name(self._square(i)), "cover": self.covers[i],
                             "pyramids": len(self.stacks[i]),  # nested: only the top shows
                             "top": self.stacks[i][-1].words() if self.stacks[i] else None}
                            for i in range(len(self.covers))],
                "leaning": None if self.leaning is None else {
                    "pyramid": self.leaning.piece.words(),
                    "squares": [square_name(self._square(i)) for i in self.leaning.squares]},
                "supply": {seat: {Size(pips).label: n for pips, n in left.items()}
                           for seat, left in self.supply.items()},
                "counts": list(self.sim.load_counts()[: len(self.covers)])}

    def _square(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def _index(self, request: dict, key: str = "square") -> int:
        row, col = square_of(request, self.rows, self.cols, key)
        return row * self.cols + col

    # ------------------------------------------------------------ kept across restarts

    def physical(self) -> dict:
        """The covers, the pyramids on each square and one leaning, as plain data."""
        leaning = self.leaning
        return {"covers": list(self.covers),
                "stacks": [[[p.seat, p.pips] for p in stack] for stack in self.stacks],
                "leaning": None if leaning is None else {
                    "pyramid": [leaning.piece.seat, leaning.piece.pips],
                    "squares": list(leaning.squares)}}

    def restore(self, data: dict) -> None:
        """Put back what ``physical`` gave, load cells included; HandsError (nothing changed)
        when it cannot be these pieces on this board."""
        cells = len(self.covers)
        covers = [bool(c) for c in data["covers"]]
        stacks = [tuple(self._pyramid(p) for p in stack) for stack in data["stacks"]]
        if len(covers) != cells or len(stacks) != cells:
            raise HandsError(f"a board of {len(covers)} squares, not {cells}")
        leaning = data["leaning"]
        if leaning is not None:
            squares = tuple(leaning["squares"])
            if len(squares) != 2 or len(set(squares)) != 2 or \
                    not all(type(i) is int and 0 <= i < cells for i in squares):
                raise HandsError("a pyramid leaning across no two squares")
            leaning = Leaning(self._pyramid(leaning["pyramid"]), squares)
        on_board = [p for stack in stacks for p in stack] + ([leaning.piece] if leaning else [])
        supply = {seat: {size.value: n for size, n in OPTIONS.pieces().items()}
                  for seat in SEATS}
        for piece in on_board:
            supply[piece.seat][piece.pips] -= 1
        if any(n < 0 for left in supply.values() for n in left.values()):
            raise HandsError("more pyramids on the board than the players have")
        self.covers, self.stacks, self.leaning, self.supply = covers, stacks, leaning, supply
        for i in range(cells):
            self._weigh(i)

    def cleared(self) -> dict:
        """No cover, no pyramid on the board: every pyramid back in its owner's supply."""
        cells = len(self.covers)
        return {"covers": [False] * cells, "stacks": [[] for _ in range(cells)],
                "leaning": None}

    def set_out(self, request: dict) -> dict:
        """Before a new game: a cover on every square, nothing on them."""
        return {**self.cleared(), "covers": [True] * len(self.covers)}

    @staticmethod
    def _pyramid(data: list) -> Pyramid:
        seat, pips = data
        if seat not in SEATS or type(pips) is not int or pips not in SIZES.values():
            raise HandsError(f"no such pyramid: {str(data)[:40]}")
        return Pyramid(seat, pips)

    # ------------------------------------------------------------ acting

    def act(self, request: dict) -> None:
        """Do one act (``request["act"]`` names it); HandsError says why it cannot be done."""
        name = request.get("act")
        known = {"cover": self._cover, "uncover": self._uncover, "set": self._set,
                 "lift": self._lift, "lean": self._lean, **self.sweeps()}
        doing = known.get(name)
        if doing is None:
            raise HandsError(f"the hands cannot {name!r}: they {', '.join(known)}")
        doing(request)

    def _cover(self, request: dict) -> None:
        i = self._index(request)
        if self.covers[i]:
            raise HandsError(f"{square_name(self._square(i))} has its cover already")
        self.covers[i] = True
        self._weigh(i)

    def _uncover(self, request: dict) -> None:
        i = self._index(request)
        if self.stacks[i]:
            raise HandsError(f"pyramids stand on {square_name(self._square(i))}'s cover: "
                             "lift them first")
        if not self.covers[i]:
            raise HandsError(f"{square_name(self._square(i))} has no cover")
        self.covers[i] = False
        self._weigh(i)

    def _piece(self, request: dict) -> Pyramid:
        """One of the seat's own pyramids of the size asked, out of its supply."""
        seat = seat_of(request)
        pips = SIZES.get(request.get("size", ""))  # no size named: none of them
        if pips is None:
            raise HandsError(f"which pyramid? small, medium or large, not {request.get('size')!r}")
        if not self.supply[seat][pips]:
            raise HandsError(f"player {seat} has no {Size(pips).label} pyramid left")
        self.supply[seat][pips] -= 1
        return Pyramid(seat, pips)

    def _set(self, request: dict) -> None:
        """One of the seat's pyramids set on a square's stack."""
        i = self._index(request)
        if self.leaning is not None and i in self.leaning.squares:
            raise HandsError("a pyramid leans across that square: lift it first")
        self.stacks[i] = (*self.stacks[i], self._piece(request))
        self._weigh(i)

    def _lean(self, request: dict) -> None:
        """By mistake: a pyramid set across two squares, half its weight on each."""
        i, j = self._index(request), self._index(request, "other")
        if i == j or self.leaning is not None:
            raise HandsError("a pyramid leans across two different squares, one at a time")
        self.leaning = Leaning(self._piece(request), (i, j))
        self._weigh(i)
        self._weigh(j)

    def _lift(self, request: dict) -> None:
        """The top pyramid of a square (or one leaning on it) back to its owner."""
        i = self._index(request)
        if self.leaning is not None and i in self.leaning.squares:
            piece, self.leaning = self.leaning.piece, None
            self.supply[piece.seat][piece.pips] += 1
            for k in range(len(self.stacks)):
                self._weigh(k)
            return
        if not self.stacks[i]:
            raise HandsError(f"no pyramid stands on {square_name(self._square(i))}")
        piece = self.stacks[i][-1]
        self.stacks[i] = self.stacks[i][:-1]
        self.supply[piece.seat][piece.pips] += 1
        self._weigh(i)

    def _weigh(self, i: int) -> None:
        grams = pad_grams((p.pips for p in self.stacks[i]), self.covers[i])
        if self.leaning is not None and i in self.leaning.squares:
            grams += pad_grams([self.leaning.piece.pips], covered=False) / 2
        self.sim.weigh(i, grams)


def prepare(state_dir: str | Path, board_profile: str, ask) -> None:
    """Calibrate a table never calibrated: the hands do each step, the link measures.

    ``ask(request)`` sends one act to the board's hands and returns its answer.
    """
    from firmware.highrise.calibrate import calibrate, load_calibration, save_calibration
    from hardware.devices import open_table
    from hardware.profile import load_profile

    try:
        load_calibration(state_dir, OPTIONS.cells)
        return
    except CalibrationError:
        pass
    with open_table(load_profile(board_profile)) as devices:
        if devices.link.wait_for(lambda snap: True, 10.0) is None:
            raise CalibrationError("the simulated board does not answer, so it cannot be "
                                   "calibrated: start `obelisk play highrise` again")
        on_a1: list[str] = []

        def step(name: str, words: str) -> None:
            if on_a1:
                ask({"act": "lift", "square": "a1"})
            on_a1.clear()
            if name != "empty":
                ask({"act": "set", "seat": "A", "square": "a1", "size": name})
                on_a1.append(name)
            counts = tuple(ask({"act": "look"})["table"]["counts"])
            devices.link.wait_for(lambda snap: tuple(snap.loads[: len(counts)]) == counts, 5.0)

        cal = calibrate(devices.link, step)
        step("empty", "")
    save_calibration(state_dir, cal)


Hands = HighriseHands
"""What the simulated board process makes for this game."""

__all__ = ["Hands", "HandsError", "HighriseHands", "prepare"]
