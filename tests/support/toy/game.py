"""Noughts and crosses with the one game API: three in a row on a 3x3 board wins."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import NoChance, Outcome, Turns, parse_square, returns_of, square_name
from engine.errors import IllegalActionError
from engine.players import Player

Square = tuple[int, int]
SIZE = 3
LINES = ([[(r, c) for c in range(SIZE)] for r in range(SIZE)]
         + [[(r, c) for r in range(SIZE)] for c in range(SIZE)]
         + [[(i, i) for i in range(SIZE)], [(i, SIZE - 1 - i) for i in range(SIZE)]])


class SquareTakenError(IllegalActionError):
    """A mark on a square that already holds one."""


@dataclass(frozen=True)
class NoughtsOptions:
    """No options: the board is always 3x3."""


@dataclass(frozen=True)
class NoughtsGame:
    options: NoughtsOptions = NoughtsOptions()
    id = "noughts"

    def new_initial_state(self) -> NoughtsState:
        return NoughtsState(self, (), Player.A)


@dataclass(frozen=True)
class NoughtsState(Turns, NoChance):
    game: NoughtsGame
    marks: tuple[tuple[Square, Player], ...]
    to_play: Player

    @property
    def board(self) -> dict[Square, Player]:
        return dict(self.marks)

    def line_of(self) -> tuple[Player, list[Square]] | None:
        board = self.board
        for line in LINES:
            owners = {board.get(sq) for sq in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop(), line
        return None

    def is_terminal(self) -> bool:
        return self.line_of() is not None or len(self.marks) == SIZE * SIZE

    def current_player(self) -> Player | None:
        return None if self.is_terminal() else self.to_play

    def legal_actions(self) -> list[Square]:
        if self.is_terminal():
            return []
        board = self.board
        return [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in board]

    def apply_action(self, square: Square) -> NoughtsState:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if square in self.board:
            raise SquareTakenError(f"{square_name(square)} already holds a mark: "
                                   "choose an empty square")
        if not all(0 <= v < SIZE for v in square):
            raise IllegalActionError(f"{square_name(square)} is off the 3x3 board")
        return NoughtsState(self.game, (*self.marks, (square, self.to_play)), self.to_play.other)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        line = self.line_of()
        if line is None:
            return Outcome("full_board", None, breakdown=(("no line",), ("no line",)))
        winner, squares = line
        said = f"three in a row: {'-'.join(square_name(s) for s in squares)}"
        return Outcome("three_in_a_row", winner,
                       breakdown=tuple((said,) if p is winner else () for p in Player))

    def returns(self) -> tuple[float, float]:
        return returns_of(self.outcome())

    def action_to_string(self, square: Square) -> str:
        return square_name(square)

    def string_to_action(self, text: str) -> Square:
        return parse_square(text)

    def observation(self) -> dict:
        return {"game": "noughts", "marks": {square_name(sq): p.value for sq, p in self.marks},
                "to_play": None if self.is_terminal() else self.to_play.value}
