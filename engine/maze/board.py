"""The maze board: its squares, the steps a wall cuts, and where the obelisk can go.

A straight step is blocked by a wall side; a diagonal step is blocked only
when both ways around its corner point (two straight steps) are cut. The
plain functions (``wall_edges``, ``step_open``, ``reachable``,
``queen_moves``) work square by square; those under "walls, fast" work on
the whole board at once, its squares as the bits of one integer.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from engine.maze.actions import PlaceWall, Square

SIZE = 8
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def on_board(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def wall_edges(wall: PlaceWall) -> frozenset[frozenset[Square]]:
    """The square-to-square crossings a wall cuts (sides on the board's edge cut none)."""
    r, c = wall.square
    out = set()
    for side in wall.orientation.sides:
        dr, dc = side.value
        n = (r + dr, c + dc)
        if on_board(n):
            out.add(frozenset((wall.square, n)))
    return frozenset(out)


def step_open(cut: frozenset[frozenset[Square]], a: Square, b: Square) -> bool:
    """Whether one step (straight or diagonal) from ``a`` to the neighbour ``b`` is free."""
    if a[0] == b[0] or a[1] == b[1]:
        return frozenset((a, b)) not in cut
    via1, via2 = (a[0], b[1]), (b[0], a[1])  # the two ways around the corner point
    around1 = frozenset((a, via1)) in cut or frozenset((via1, b)) in cut
    around2 = frozenset((a, via2)) in cut or frozenset((via2, b)) in cut
    return not (around1 and around2)


def reachable(cut: frozenset[frozenset[Square]], start: Square) -> frozenset[Square]:
    """Every square the obelisk can get to from ``start``, step by step."""
    seen = {start}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for dr, dc in DIRECTIONS:
            b = (a[0] + dr, a[1] + dc)
            if on_board(b) and b not in seen and step_open(cut, a, b):
                seen.add(b)
                todo.append(b)
    return frozenset(seen)


def queen_moves(cut: frozenset[frozenset[Square]], start: Square) -> list[Square]:
    """Squares one queen move away: along a line, every step free of walls."""
    out = []
    for dr, dc in DIRECTIONS:
        a = start
        while True:
            b = (a[0] + dr, a[1] + dc)
            if not on_board(b) or not step_open(cut, a, b):
                break
            out.append(b)
            a = b
    return out


# ------------------------------------------------------------------ walls, fast
#
# Listing the legal walls asks, for each of up to 256 walls, whether the board
# stays in one piece. Two shortcuts make that cheap. A wall cuts only steps
# next to its own square; when each of them has a detour inside the 3x3
# block around the square, and no other wall stands in that block (only a
# wall on a square cuts the steps beside it), the board stays in one piece.
# For the rest, the squares are bits of one integer, and the obelisk's reach
# floods in all eight directions at once, a few shifts a step.

ALL = (1 << SIZE * SIZE) - 1
_NOT_FIRST_COL = sum(1 << (r * SIZE) for r in range(SIZE)) ^ ALL  # lands in column a: wrapped
_NOT_LAST_COL = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE)) ^ ALL


def square_bit(square: Square) -> int:
    return 1 << (square[0] * SIZE + square[1])


def _shift(bits: int, dr: int, dc: int) -> int:
    """Every square of ``bits`` moved one step in (dr, dc); what leaves the board is gone."""
    n = dr * SIZE + dc
    moved = (bits << n if n > 0 else bits >> -n) & ALL
    if dc == 1:
        moved &= _NOT_FIRST_COL
    elif dc == -1:
        moved &= _NOT_LAST_COL
    return moved


_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def cut_masks(cut: frozenset[frozenset[Square]]) -> dict[tuple[int, int], int]:
    """For each straight direction, the squares whose side that way is walled (bits)."""
    masks = dict.fromkeys(_ORTHOGONAL, 0)
    for edge in cut:
        a, b = tuple(edge)
        masks[(b[0] - a[0], b[1] - a[1])] |= square_bit(a)
        masks[(a[0] - b[0], a[1] - b[1])] |= square_bit(b)
    return masks


def steps_from(cut: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """For each direction, the squares a step that way may start from (``step_open`` for
    the whole board at once: a diagonal is shut only when both ways round the corner are)."""
    steps = {}
    for dr, dc in DIRECTIONS:
        on_board = _shift(ALL, -dr, -dc)
        if dr == 0 or dc == 0:
            steps[(dr, dc)] = on_board & ~cut[(dr, dc)]
        else:
            across, along = cut[(0, dc)], cut[(dr, 0)]
            round_one = across | _shift(along, 0, -dc)
            round_two = along | _shift(across, -dr, 0)
            steps[(dr, dc)] = on_board & ~(round_one & round_two)
    return steps


def open_steps(cut: frozenset[frozenset[Square]]) -> dict[tuple[int, int], int]:
    """For each direction, the squares a step that way may start from."""
    return steps_from(cut_masks(cut))


def _mask_after(dc: int) -> int:
    return _NOT_FIRST_COL if dc == 1 else _NOT_LAST_COL if dc == -1 else ALL


_UP = tuple(((dr, dc), dr * SIZE + dc, _mask_after(dc)) for dr, dc in DIRECTIONS
            if dr * SIZE + dc > 0)
_DOWN = tuple(((dr, dc), -(dr * SIZE + dc), _mask_after(dc)) for dr, dc in DIRECTIONS
              if dr * SIZE + dc < 0)


def flood(steps: dict[tuple[int, int], int], start: Square) -> int:
    """The squares reachable from ``start`` as bits (``reachable``, a row of bits at a time)."""
    up = [(steps[d], n, m) for d, n, m in _UP]
    down = [(steps[d], n, m) for d, n, m in _DOWN]
    reach = square_bit(start)
    while True:
        grown = reach
        for allowed, n, mask in up:
            grown |= ((reach & allowed) << n) & mask
        for allowed, n, mask in down:
            grown |= ((reach & allowed) >> n) & mask
        if grown == reach:
            return reach
        reach = grown


@lru_cache(maxsize=SIZE * SIZE * 4)
def wall_bits(wall: PlaceWall) -> tuple[tuple[tuple[int, int], int], ...]:
    """What a wall adds to ``cut_masks``: (direction, square bit) for each side it walls."""
    return tuple(cut_masks(wall_edges(wall)).items())


def block_around(square: Square) -> list[Square]:
    r, c = square
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if on_board((r + dr, c + dc))]


@lru_cache(maxsize=SIZE * SIZE * 4)
def locally_safe(wall: PlaceWall) -> bool:
    """Every step this wall alone cuts has a detour inside the 3x3 block around it."""
    block = set(block_around(wall.square))
    cut = wall_edges(wall)
    for a in block:
        for b in block:
            if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
                continue
            if step_open(cut, a, b):
                continue
            seen, todo = {a}, [a]
            while todo:
                x = todo.pop()
                for y in block:
                    if y not in seen and max(abs(x[0] - y[0]), abs(x[1] - y[1])) == 1 \
                            and step_open(cut, x, y):
                        seen.add(y)
                        todo.append(y)
            if b not in seen:
                return False
    return True
