"""The maze table: segments, walls picked with the button, refusals, claims, the end."""

from __future__ import annotations

import pytest

from engine.errors import NothingPlacedError
from engine.maze.game import MazeGame, MazeOptions, Move, Orientation, Pass, PlaceSegment, PlaceWall
from engine.maze.sensing import MazeSensingError, MazeView, read_view, sight
from firmware.journal import Journal
from firmware.maze.table import MazeTable
from hardware.buttons import ButtonEvent
from tests.test_maze import sq


class Table:
    def __init__(self, journal_dir, turns=20):
        self.events: list[dict] = []
        self.now = 0.0
        self.journal = Journal(journal_dir)
        self.pieces: set = set()
        self.walls: set = set()
        self.table = MazeTable(MazeGame(MazeOptions(turns=turns)), self.journal,
                               emit=self.events.append)
        self.table.start(self.now)

    def settle(self):
        self.table.on_view(MazeView(frozenset(self.pieces), frozenset(self.walls)), self.now)
        self.now += 0.31
        self.table.tick(self.now)

    def put(self, *names):
        self.pieces |= {sq(n) for n in names}
        self.settle()

    def lift(self, name):
        self.pieces.discard(sq(name))
        self.settle()

    def wall(self, name):
        self.walls.add(sq(name))
        self.settle()

    def press(self, button, kind="press"):
        self.table.on_button(ButtonEvent(button, kind), self.now)

    def pick(self, button, wanted):
        for _ in range(len(self.table.candidates)):
            if self.table.candidates[self.table.pick] == wanted:
                break
            self.press(button)
        self.press(button, "hold")

    def ready(self, obelisk="d4", segments=("a8", "h8", "h1", "b1")):
        self.put(obelisk)
        for name in segments:
            self.put(name)
        assert self.table.state == "play" and self.table.position.phase.value == "wall"
        return self


@pytest.fixture
def t(tmp_path):
    return Table(tmp_path).ready()


def test_setup_takes_the_obelisk_then_four_segments(tmp_path):
    t = Table(tmp_path)
    assert "Architect: put segment 1" in t.table.problem
    t.put("d4")
    assert t.table.position.obelisk == sq("d4") and "4 to go" in t.table.problem
    t.wall("c3")                                   # no walls before the first turn
    assert t.table.state == "repair" and "no walls before the first turn" in t.table.problem
    t.walls.clear()
    t.settle()
    assert t.table.state == "setup"
    t.put("a8", "h8")                              # two at once is fine
    t.put("h1", "b1")
    assert t.table.state == "play" and t.table.position.segments == {
        sq("a8"), sq("h8"), sq("h1"), sq("b1")}


def test_a_wall_is_turned_with_the_button_and_confirmed_by_holding(t):
    t.wall("d6")
    assert t.table.state == "choose"
    frame = t.table.led_frame(t.now, 16)
    first = t.table.candidates[0]
    assert frame[("board", "", 5 * 8 + 3)] == (255, 255, 255)          # the wall's square
    for side in first.orientation.sides:                               # and what it shuts
        r, c = 5 + side.value[0], 3 + side.value[1]
        assert frame[("board", "", r * 8 + c)] == (255, 0, 0)
    t.press("A")                                   # not the Maze Master's button
    assert t.table.pick == 0
    t.pick("B", PlaceWall(sq("d6"), Orientation.SW))
    assert t.table.position.walls == (PlaceWall(sq("d6"), Orientation.SW),)
    assert t.table.position.phase.value == "move" and t.events[-1]["event"] == "wall"


def test_the_maze_master_passes_with_a_press(t):
    t.press("B")
    assert t.table.position.phase.value == "move" and t.events[-1]["event"] == "pass"


def test_a_sealing_wall_is_refused_and_waited_out(t):
    t.wall("a1")
    t.pick("B", PlaceWall(sq("a1"), Orientation.NE))
    assert t.table.state == "repair" and "shut a1 off" in t.table.problem
    assert t.table.position.walls == ()
    assert t.table.led_frame(t.now, 16)[("board", "", 0)] == (255, 0, 0)
    t.walls.clear()
    t.settle()
    assert t.table.state == "play" and t.table.position.phase.value == "wall"


def test_moving_out_of_turn_is_waited_out(t):
    t.lift("d4")
    t.put("d5")
    assert t.table.state == "repair" and "walls or passes first" in t.table.problem
    t.lift("d5")
    t.put("d4")
    assert t.table.state == "play"


def test_a_lifted_obelisk_lights_its_moves_and_a_move_is_played(t):
    t.press("B")
    t.lift("d4")
    frame = t.table.led_frame(t.now, 16)
    assert frame[("board", "", 7 * 8 + 3)] == (0, 0, 200)            # d8, straight up
    assert frame[("board", "", 4 * 8 + 4)] == (0, 0, 200)            # e5
    t.put("d7")
    assert t.table.position.obelisk == sq("d7") and t.table.position.turn == 1
    t.press("B")
    t.lift("d7")
    t.put("f6")                                    # not a queen move
    assert t.table.state == "repair" and "cannot go from d7 to f6" in t.table.problem


def test_a_claim_is_picked_with_the_architects_button(t):
    t.press("B")
    t.lift("d4")                                   # onto h8: only d4 empties
    assert t.table.state == "choose"
    assert t.table.candidates == (Move(sq("h8")),)   # the one segment in line with d4
    t.pick("A", Move(sq("h8")))
    pos = t.table.position
    assert pos.obelisk == sq("h8") and pos.claimed == 2 and t.events[-1]["new_claim"]


def test_claiming_the_last_segment_on_the_last_turn_ends_the_game(tmp_path):
    t = Table(tmp_path, turns=15).ready(obelisk="a1", segments=("a3", "a5", "a7", "h7"))
    for k in range(11):
        t.press("B")
        here, there = ("a1", "b2") if k % 2 == 0 else ("b2", "a1")
        t.lift(here)
        t.put(there)
    for target in ("a3", "a5", "a7", "h7"):
        t.press("B")
        here = next(n for n in ("b2", "a3", "a5", "a7") if sq(n) == t.table.position.obelisk)
        t.lift(here)
        t.pick("A", Move(sq(target)))
    assert t.table.state == "over"
    assert t.events[-1] == {"event": "game_over", "game": "maze", "winner": "architect",
                            "claimed": 5, "turns_used": 15, "walls_used": 0}


def test_a_restart_resumes_from_the_journal(tmp_path):
    t = Table(tmp_path).ready()
    t.wall("d6")
    t.pick("B", PlaceWall(sq("d6"), Orientation.SW))
    t.lift("d4")
    t.put("c4")
    again = Table(tmp_path)
    assert again.table.state == "play" and again.table.position == t.table.position


def test_reading_a_view_names_what_is_wrong():
    pos = MazeGame().new_initial_state()
    with pytest.raises(NothingPlacedError):
        read_view(pos, sight(pos))
    for name in ("d4", "a8", "h8", "h1", "b1"):
        pos = pos.apply_action(PlaceSegment(sq(name)))
    moving = pos.apply_action(Pass())
    seen = sight(moving)
    with pytest.raises(MazeSensingError, match="only at the start of a turn") as caught:
        read_view(moving, MazeView(seen.pieces, seen.walls | {sq("c6")}))
    assert caught.value.squares == (sq("c6"),)
    with pytest.raises(MazeSensingError, match="only the obelisk moves"):
        read_view(moving, MazeView(seen.pieces - {sq("a8")}, seen.walls))
