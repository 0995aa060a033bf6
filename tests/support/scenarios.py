"""Every state of every game's table, brought about on a harness, with an input that leaves it.

Each scenario is (the table's class, a state, how to bring a fresh table to it, an input that
leads out of it). ``tests/core/test_no_dead_ends.py`` proves each state can be left;
``tests/service/test_control.py`` checks what the status offers in each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core import parse_square as maze_sq
from engine.highrise.game import Size
from engine.maze.actions import Move, Orientation, PlaceWall
from engine.stones.sensing import sight
from firmware.highrise.table import HighriseTable
from firmware.maze.table import MazeTable
from firmware.stones.table import StonesTable
from firmware.towers.table import TowersTable
from hardware.buttons import ButtonEvent
from tests.support.stones import position as stones_position
from tests.support.tables import (
    EMPTY,
    A,
    B,
    HighriseHarness,
    MazeHarness,
    StonesHarness,
    TowersHarness,
)
from tests.support.towers import COLUMN_B, cells, column
from tests.support.towers import position as towers_position

# Each scenario: (table class, state, bring(tmp_path, block_set) -> driver,
#                 leave(driver) -> None). ``leave`` is a person's input.
Scenario = tuple[type, str, Callable, Callable]


def _towers(tmp_path, block_set):
    return TowersHarness(block_set, tmp_path)


def _towers_play(tmp_path, block_set):
    return _towers(tmp_path, block_set).start_play()


def _towers_toss(tmp_path, block_set):
    t = _towers(tmp_path, block_set)
    t.see()
    t.press(A)
    return t


def _towers_choose(tmp_path, block_set):
    t = _towers_play(tmp_path, block_set)
    pos = towers_position(t.pos, tower_b=column(block_set, COLUMN_B, owner=B))
    t.put_position(replace(pos, active=A))
    t.see(t.towers())
    t.deal("Y04", "R04")
    t.see(t.place_view(B, cells("a1:9")), (None, None))
    return t


def _towers_repair(tmp_path, block_set):
    t = _towers_play(tmp_path, block_set)
    t.see((cells("b2:1"), EMPTY))                    # a cube nobody placed
    return t


def _towers_paused(tmp_path, block_set):
    t = _towers_play(tmp_path, block_set)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    return t


def _towers_over(tmp_path, block_set):
    t = _towers_play(tmp_path, block_set)
    t.put_position(replace(t.pos, pile=("G01", "G02", "G03")))
    first = t.pos.active
    pads = t.deal("G01", "G02")
    t.see(t.place_view(first.other, cells("a1:1", "b1:1", "a2:1", "b2:1")), (pads[0], None))
    t.see(t.place_view(first, cells("a1:1", "b1:1", "a2:1", "b2:1")), (None, None))
    return t


def stones_table(tmp_path, _block_set, state=None):
    return StonesHarness(tmp_path, state=state)


def _stones_play(tmp_path, block_set):
    return stones_table(tmp_path, block_set).started()


def _stones_choose(tmp_path, block_set):
    state = stones_position({"b2": "Ap", "a3": "Bk", "c3": "Bc", "a1": "Ac", "b1": "Ak",
                             "a6": "Bp"})
    t = stones_table(tmp_path, block_set, state).started()
    t.see(t.after("-b2"))
    return t


def _stones_repair(tmp_path, block_set):
    t = _stones_play(tmp_path, block_set)
    t.see(t.after("+c3"))                            # a stone from nowhere
    return t


def _stones_paused(tmp_path, block_set):
    t = _stones_play(tmp_path, block_set)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    return t


def _stones_over(tmp_path, block_set):
    state = stones_position({"d2": "AcAk", "c1": "Ap", "a4": "Bp", "a6": "Bk", "b6": "Bc"},
                            to_play=A)
    t = stones_table(tmp_path, block_set, state).started()
    t.see(t.after("-c1"))
    t.press(A, "hold")
    return t


def _highrise(tmp_path, _block_set):
    return HighriseHarness(tmp_path)


def _highrise_play(tmp_path, block_set):
    return _highrise(tmp_path, block_set).covers()


def _highrise_repair(tmp_path, block_set):
    t = _highrise_play(tmp_path, block_set)
    t.pads[0].append(Size.MEDIUM)
    t.put(1, Size.MEDIUM)                            # one move at a time: this is two
    return t


def _highrise_paused(tmp_path, block_set):
    t = _highrise_play(tmp_path, block_set)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    return t


def _highrise_choose(tmp_path, block_set):
    """A weight tells the size, so High Rise never asks; if it did, a hold would answer."""
    t = _highrise_play(tmp_path, block_set)
    pos = t.table.position
    t.table.choosing.ask(pos.to_play, tuple((a,) for a in pos.legal_actions()[:2]))
    return t


def _highrise_over(tmp_path, block_set):
    t = _highrise_play(tmp_path, block_set)
    for ply, size in enumerate([Size.SMALL] * 10 + [Size.MEDIUM] * 20 + [Size.LARGE] * 20):
        t.put(ply % 9, size)
    return t


def _maze(tmp_path, _block_set):
    return MazeHarness(tmp_path)


def _maze_play(tmp_path, block_set):
    return _maze(tmp_path, block_set).ready()


def _maze_choose(tmp_path, block_set):
    t = _maze_play(tmp_path, block_set)
    t.wall("d6")
    return t


def _maze_repair(tmp_path, block_set):
    t = _maze_play(tmp_path, block_set)
    t.wall("a1")
    t.pick("B", PlaceWall(maze_sq("a1"), Orientation.NE))     # it would seal a1 off
    return t


def _maze_paused(tmp_path, block_set):
    t = _maze_play(tmp_path, block_set)
    t.press("menu")
    return t


def _maze_over(tmp_path, block_set):
    t = MazeHarness(tmp_path, turns=15).ready(obelisk="a1", segments=("a3", "a5", "a7", "h7"))
    for k in range(11):
        t.press("B")
        here, there = ("a1", "b2") if k % 2 == 0 else ("b2", "a1")
        t.lift(here)
        t.put(there)
    for target in ("a3", "a5", "a7", "h7"):
        t.press("B")
        here = next(n for n in ("b2", "a3", "a5", "a7") if maze_sq(n) == t.table.position.obelisk)
        t.lift(here)
        t.pick("A", Move(maze_sq(target)))
    return t


SCENARIOS: list[Scenario] = [
    (TowersTable, "setup", _towers, lambda t: (t.see(), t.press(A))),
    (TowersTable, "toss", _towers_toss, lambda t: t.wait(2.1)),
    (TowersTable, "play", _towers_play, lambda t: t.see((cells("c3:1"), EMPTY))),
    (TowersTable, "choose", _towers_choose, lambda t: t.press(B, "hold")),
    (TowersTable, "repair", _towers_repair, lambda t: t.see()),
    (TowersTable, "paused", _towers_paused,
     lambda t: t.table.on_button(ButtonEvent("menu", "press"), t.now)),
    (TowersTable, "over", _towers_over, lambda t: t.press(B)),
    (StonesTable, "setup", stones_table,
     lambda t: (t.see(sight(t.table.position)), t.press(A))),
    (StonesTable, "play", _stones_play, lambda t: t.see(t.after("+c3"))),
    (StonesTable, "choose", _stones_choose, lambda t: t.press(A, "hold")),
    (StonesTable, "repair", _stones_repair, lambda t: t.see(t.after())),
    (StonesTable, "paused", _stones_paused,
     lambda t: t.table.on_button(ButtonEvent("menu", "press"), t.now)),
    (StonesTable, "over", _stones_over, lambda t: t.press(B)),
    (HighriseTable, "setup", _highrise, lambda t: t.covers()),
    (HighriseTable, "play", _highrise_play, lambda t: (t.pads[4].append(Size.SMALL),
                                                       t.pads[5].append(Size.SMALL),
                                                       t.settle())),
    (HighriseTable, "repair", _highrise_repair, lambda t: (t.pads[1].pop(), t.settle())),
    (HighriseTable, "choose", _highrise_choose,
     lambda t: t.table.on_button(ButtonEvent(t.table.chooser.value, "hold"), t.now)),
    (HighriseTable, "paused", _highrise_paused,
     lambda t: t.table.on_button(ButtonEvent("menu", "press"), t.now)),
    (HighriseTable, "over", _highrise_over,
     lambda t: t.table.on_button(ButtonEvent("A", "press"), t.now)),
    (MazeTable, "setup", _maze, lambda t: t.ready()),
    (MazeTable, "play", _maze_play, lambda t: t.wall("d6")),
    (MazeTable, "choose", _maze_choose, lambda t: t.press("B", "hold")),
    (MazeTable, "repair", _maze_repair, lambda t: (t.walls.clear(), t.settle())),
    (MazeTable, "paused", _maze_paused, lambda t: t.press("menu")),
    (MazeTable, "over", _maze_over, lambda t: t.press("A")),
]
