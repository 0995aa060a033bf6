"""What every game's simulated hands share: their error, the seats, pieces stacked on squares.

Each game has its hands in ``firmware/<game>/hands.py`` (the simulated board
process, ``firmware.sim.hands_board``, makes one from the game's declared
``hands``). Stones and the maze both stand pieces on the board's squares, one
on another: ``SquareHands`` keeps which piece is where (a person sees the
pieces; the table sees only its switches) and tells the simulated switches
each change, as ``SimTable.put`` and ``take`` do for the demos' bots. What the
hands know is plain data too (``physical``): the board keeps it in its state
directory and gives it back to new hands when it starts again (``restore``).
The same ``restore`` sweeps the table for a person in one act (``Sweeps``):
``clear`` puts every piece away, ``setup`` sets them out for a new game.
"""

from __future__ import annotations

from typing import ClassVar

from engine.core import counted, parse_square, square_name
from engine.errors import ObeliskError
from hardware.sim.table import SimTable

SEATS = ("A", "B")

Square = tuple[int, int]


class HandsError(ObeliskError):
    """An act the hands cannot do on the table as it physically is (the page says why)."""


def seat_of(request: dict) -> str:
    """Whose hand does the act (``seat`` A or B)."""
    seat = request.get("seat")
    if seat not in SEATS:
        raise HandsError(f"whose hand? say seat A or B, not {seat!r}")
    return seat


def square_of(request: dict, rows: int, cols: int, key: str = "square") -> Square:
    """The square an act names, as ``"b3"`` or ``[row, col]``, on a board this size."""
    given = request.get(key)
    try:
        if isinstance(given, str):
            square = parse_square(given)
        elif isinstance(given, list | tuple) and len(given) == 2 \
                and all(type(v) is int for v in given):
            square = (given[0], given[1])
        else:
            raise ValueError
    except ValueError:
        raise HandsError(f"which square? name one like b3, not {given!r}") from None
    if not (0 <= square[0] < rows and 0 <= square[1] < cols):
        raise HandsError(f"{given!r} is off the {rows}x{cols} board")
    return square


class Sweeps:
    """Two acts of every game's hands that move all the pieces at once, as a person's arm
    sweeps the board: ``clear`` puts every piece away (the pile, beside the board, the box,
    as the game's set has it; what the hands hold too), ``setup`` sets them out as the
    game's table expects before a new game. Both go through ``restore``, so the sensors
    change as for any other act and the table learns of it through them.

    A game's hands say what a table with nothing on it is (``cleared``, as ``physical``
    would say it) and, when its start is not that, what is set out (``set_out``).
    """

    def cleared(self) -> dict:
        raise NotImplementedError

    def set_out(self, request: dict) -> dict:
        """What stands on the table before a new game (by default: nothing)."""
        return self.cleared()

    def restore(self, data: dict) -> None:
        raise NotImplementedError

    def sweeps(self) -> dict:
        """The two acts, by name, for a game's ``act``."""
        return {"clear": lambda request: self.restore(self.cleared()),
                "setup": lambda request: self.restore(self.set_out(request))}


class SquareHands(Sweeps):
    """Pieces standing on the board's squares, in stacks, or in a hand, or beside the board.

    A subclass names its pieces (``PIECES``) and may add acts of its own.
    The acts: ``take`` a piece from beside the board, ``lift`` the top pieces
    of a square (``count``, default all a person would lift: see ``lifting``),
    ``put`` what the hand holds on a square, ``back`` beside the board, and
    ``knock`` a square: its top piece falls off beside the board; ``clear`` and
    ``setup`` (``Sweeps``).
    """

    PIECES: tuple[str, ...] = ()
    NAMES: ClassVar[dict[str, str]] = {seat: f"player {seat}" for seat in SEATS}
    """The seats as the game names them in what the hands say (the maze's roles)."""

    def __init__(self, sim: SimTable) -> None:
        self.sim = sim
        self.rows = sim.layout.get("rows") or 8
        self.cols = sim.layout.get("cols") or 8
        self.squares: dict[Square, tuple[str, ...]] = {}  # bottom..top
        self.held: dict[str, tuple[str, ...]] = {seat: () for seat in SEATS}

    # ------------------------------------------------------------ what is where

    def beside(self) -> list[str]:
        """The pieces lying beside the board (none at all on it, none in a hand)."""
        used = {p for stack in self.squares.values() for p in stack}
        used |= {p for held in self.held.values() for p in held}
        return [p for p in self.PIECES if p not in used]

    def look(self) -> dict:
        """The physical board as plain data, for a page to draw and act on."""
        return {"rows": self.rows, "cols": self.cols,
                "squares": {square_name(sq): list(stack)
                            for sq, stack in sorted(self.squares.items())},
                "held": {seat: list(held) for seat, held in self.held.items()},
                "beside": self.beside()}

    # ------------------------------------------------------------ kept across restarts

    def physical(self) -> dict:
        """Which piece stands where, and what each hand holds, as plain data."""
        return {"squares": {square_name(sq): list(stack)
                            for sq, stack in sorted(self.squares.items())},
                "held": {seat: list(held) for seat, held in self.held.items()}}

    def restore(self, data: dict) -> None:
        """Put back what ``physical`` gave, switches included; HandsError,
        nothing changed, when it cannot be these pieces on this board."""
        squares = {self._square({"square": name}): self._pieces(stack)
                   for name, stack in data["squares"].items()}
        held = {seat: self._pieces(data["held"][seat], empty=True) for seat in SEATS}
        everywhere = [p for stack in (*squares.values(), *held.values()) for p in stack]
        if len(set(everywhere)) != len(everywhere):
            raise HandsError("a piece is in two places at once")
        shown = set(self.squares) | set(squares)
        self.squares, self.held = squares, held
        for square in shown:
            self._show(square)

    def cleared(self) -> dict:
        """No piece on the board, none in a hand: all of them beside it."""
        return {"squares": {}, "held": {seat: [] for seat in SEATS}}

    def _pieces(self, stack: list, empty: bool = False) -> tuple[str, ...]:
        pieces = tuple(stack)
        if not all(isinstance(p, str) and p in self.PIECES for p in pieces):
            raise HandsError(f"no such pieces here: {str(stack)[:60]}")
        if not pieces and not empty:
            raise HandsError("a square holding no piece")
        return pieces

    # ------------------------------------------------------------ acting

    def acts(self) -> dict:
        """The acts these hands know, by name."""
        return {"take": self._take, "lift": self._lift, "put": self._put, "back": self._back,
                "knock": self._knock, **self.sweeps()}

    def act(self, request: dict) -> None:
        """Do one act (``request["act"]`` names it); HandsError says why it cannot be done."""
        name = request.get("act")
        known = self.acts()
        doing = known.get(name)
        if doing is None:
            raise HandsError(f"the hands cannot {name!r}: they {', '.join(known)}")
        doing(request)

    def _square(self, request: dict, key: str = "square") -> Square:
        return square_of(request, self.rows, self.cols, key)

    def _show(self, square: Square) -> None:
        """Tell the simulated switches what stands on ``square`` now."""
        stack = self.squares.get(square, ())
        if stack:
            self.sim.put(square, len(stack))
        else:
            self.sim.take(square)

    def _take(self, request: dict) -> None:
        """A piece from beside the board into the hand (with what it already holds)."""
        seat = seat_of(request)
        piece = request.get("piece")
        if piece not in self.beside():
            raise HandsError(f"{piece!r} is not lying beside the board")
        self.held[seat] = (*self.held[seat], piece)

    def lifting(self, stack: tuple[str, ...], seat: str) -> int:
        """How many pieces off the top ``seat``'s hand lifts when no count is given (all)."""
        return len(stack)

    def _lift(self, request: dict) -> None:
        """The top pieces of a square into an empty hand."""
        seat = seat_of(request)
        if self.held[seat]:
            raise HandsError(f"{self.NAMES[seat]}'s hand is full: put down what it holds first")
        square = self._square(request)
        stack = self.squares.get(square, ())
        if not stack:
            raise HandsError(f"nothing stands on {square_name(square)}")
        count = request.get("count", self.lifting(stack, seat))
        if type(count) is not int or not 1 <= count <= len(stack):
            raise HandsError(f"{square_name(square)} holds {counted(len(stack), 'piece')}: lift "
                             f"1 to {len(stack)} of them")
        self.held[seat] = stack[len(stack) - count:]
        self._set(square, stack[: len(stack) - count])

    def _put(self, request: dict) -> None:
        """What the hand holds, set on a square (on top of what stands there)."""
        seat = seat_of(request)
        if not self.held[seat]:
            raise HandsError(f"{self.NAMES[seat]}'s hand is empty: lift or take a piece first")
        square = self._square(request)
        self._set(square, (*self.squares.get(square, ()), *self.held[seat]))
        self.held[seat] = ()

    def _back(self, request: dict) -> None:
        """What the hand holds, laid beside the board."""
        self.held[seat_of(request)] = ()

    def _knock(self, request: dict) -> None:
        """A hand knocks a square: its top piece falls off, beside the board."""
        square = self._square(request)
        stack = self.squares.get(square, ())
        if not stack:
            raise HandsError(f"nothing stands on {square_name(square)} to knock")
        self._set(square, stack[:-1])

    def _set(self, square: Square, stack: tuple[str, ...]) -> None:
        if stack:
            self.squares[square] = stack
        else:
            self.squares.pop(square, None)
        self._show(square)
