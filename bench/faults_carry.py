"""A stone carried across the board: the short settle window must not take a square on its way.

The fault bench's transients (``faults.py``) last half the short window by
construction, and its demos play at a fast clock where the board's own debounce
alone hides them, so none of them shows a window too short. A hand carrying a
stone is the hard case: every square it rests on is a legal move the game is
sure of, the kind of reading that counts after the short window.

Here the whole stack runs in real time, as ``latency.py``'s processing does: the
simulated board in a process of its own, its scans and debounce, the
pseudo-terminal, the service, a stones table. Each trial takes one of the
mover's stones and carries it across two or three empty squares, each a
legal move that only that stone's move explains, resting ``--dwell-ms`` on each;
then the hand either puts it back where it was (nothing may be recorded) or
sets it down on the last square (that one move must be). A trial whose hand
the machine held longer than asked (the bench's sleep woke late) is
counted as ``overran`` (it rested more than 10 ms longer than asked) and judged
no further.

Ends with `faults_carry: trials=N back=B down=D false_placements=F lost_actions=L
overran=O quick_ms=Q dwell_ms=W`; only a run with F=0 and L=0 passes.
``--quick-ms 0`` (the window a table would have that counts a sure reading at
once) shows what the bench catches.

Run: .venv/bin/python bench/faults_carry.py [--trials 60] [--dwell-ms 50] [--quick-ms MS]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from dataclasses import dataclass

from latency import Timed
from sim_board import BoardProcess

from engine.stones.game import Move, StonesGame, StonesOptions, StonesState
from engine.stones.sensing import BoardView, candidate_moves, sight_after, stack_heights
from firmware.core.settle import QUICK_S
from firmware.stones.table import StonesTable
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent

LEVELS = 3
"""The bench board's stack sensors tell three heights apart."""
LATE_S = 0.01
"""A rest that lasted this much longer than asked (the bench's sleep woke late on a busy
machine) is not the trial asked for: counted as ``overran``, not judged."""
CALM_S = 0.6
"""How long after a trial's last change the table is given to settle: two whole settle
windows (0.3 s), and the re-read."""


@dataclass
class Tally:
    trials: int = 0
    back: int = 0
    down: int = 0
    false: int = 0
    lost: int = 0
    overran: int = 0


def carried(pos: StonesState, rng: random.Random) -> list[Move] | None:
    """Two or three moves of one stone to empty squares, each the only move its board
    means: the squares a hand carries it across."""
    occupied = {sq for sq, _ in pos.stacks}
    by_stone: dict = {}
    for move in pos.legal_actions():
        if move.to not in occupied and \
                candidate_moves(pos, sight_after(pos, move)) == (move,):
            by_stone.setdefault(move.frm, []).append(move)
    stones = [moves for moves in by_stone.values() if len(moves) >= 2]
    if not stones:
        return None
    moves = rng.choice(stones)
    rng.shuffle(moves)
    return moves[:rng.randint(2, min(3, len(moves)))]


def calm(table: StonesTable, seconds: float) -> None:
    """Wait until nothing is settling any more (the last change counted or was let go)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.01)
    while table.settler.deadline() is not None and time.monotonic() < deadline + 2:
        time.sleep(0.01)


def trial(timed: Timed, rng: random.Random, dwell_s: float, tally: Tally) -> bool:
    """One stone carried across its path and put back or set down; False when no stone of
    the mover has two such squares (the game is played on until one has)."""
    t = timed.table
    pos, before = t.position, list(t.actions)
    path = carried(pos, rng)
    if path is None:
        return _play_on(timed, rng)
    start = frozenset(stack_heights(pos))
    down = rng.random() < 0.5
    longest = 0.0
    for move in path:
        timed.board.set_stacks(frozenset(sight_after(pos, move, LEVELS).heights))
        began = time.monotonic()
        if move is path[-1] and down:
            break
        time.sleep(dwell_s)
        longest = max(longest, time.monotonic() - began)
    if not down:
        timed.board.set_stacks(start)
    calm(t, CALM_S)
    tally.trials += 1
    if longest >= dwell_s + LATE_S:  # the machine held the hand there: not the trial asked
        tally.overran += 1
        return True
    want = [*before, path[-1]] if down else before
    if down:
        tally.down += 1
    else:
        tally.back += 1
    got = list(t.actions)
    same = 0
    while same < min(len(want), len(got)) and want[same] == got[same]:
        same += 1
    tally.false += len(got) - same
    tally.lost += len(want) - same
    if got != want:
        print(f"  trial {tally.trials}: carried {[str(m) for m in path]} "
              f"{'down' if down else 'back'}; the table holds {len(got)} actions "
              f"({t.state}), expected {len(want)}", flush=True)
        _put_right(timed, want)
    return True


def _play_on(timed: Timed, rng: random.Random) -> bool:
    """No stone can be carried across two squares: one plain move, to play on; False when
    there is none the sensors see at once."""
    t = timed.table
    pos = t.position
    occupied = {sq for sq, _ in pos.stacks}
    fits = [m for m in pos.legal_actions()
            if m.to not in occupied and candidate_moves(pos, sight_after(pos, m)) == (m,)]
    if not fits:
        return False
    timed.board.set_stacks(frozenset(sight_after(pos, rng.choice(fits), LEVELS).heights))
    calm(t, CALM_S)
    return t.position is not pos


def _put_right(timed: Timed, want: list) -> None:
    """After a wrong trial: the board as the table's game stands, so trials go on."""
    t = timed.table
    timed.board.set_stacks(frozenset(stack_heights(t.position)))
    calm(t, CALM_S)
    if t.offer is not None:  # a transient taken for a move and offered back: take it back
        for seat in t.offer.owners:
            timed.devices.buttons.on_event(ButtonEvent(seat.value, "press"))
        calm(t, CALM_S)


def run(trials: int, dwell_s: float, quick_s: float, seed: int) -> Tally:
    board = BoardProcess()
    table = StonesTable(StonesGame(StonesOptions(ply_limit=10_000)),
                        Journal(tempfile.mkdtemp(prefix="obelisk-carry-")), quick_s=quick_s)
    timed = Timed(board, table)
    rng = random.Random(seed)
    tally = Tally()
    try:
        board.set_stacks(frozenset(stack_heights(table.position)))
        while table.decided != BoardView.of(stack_heights(table.position)):
            time.sleep(0.01)
        timed.devices.buttons.on_event(ButtonEvent("A", "press"))
        while table.state != "play":
            time.sleep(0.01)
        while tally.trials < trials and not table.position.is_terminal():
            if not trial(timed, rng, dwell_s, tally):
                break
    finally:
        timed.close()
        board.close()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--dwell-ms", type=float, default=50.0,
                        help="how long the hand rests the stone on each square on its way")
    parser.add_argument("--quick-ms", type=float, default=QUICK_S * 1000,
                        help="the table's short settle window (default: the table's own)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = run(args.trials, args.dwell_ms / 1000, args.quick_ms / 1000, args.seed)
    print(f"faults_carry: trials={tally.trials} back={tally.back} down={tally.down} "
          f"false_placements={tally.false} lost_actions={tally.lost} overran={tally.overran} "
          f"quick_ms={args.quick_ms:g} dwell_ms={args.dwell_ms:g}")


if __name__ == "__main__":
    main()
