"""One board and what the turn asks in reach, on a phone: the maze (issue 48, points 1, 2, 4).

A person plays a whole maze game of 15 turns at 390x844, at 360x640 and on a laptop, alone
against the computer (it plays the Architect) and two-handed, touching only what is on the
screen (``Finger``): the PIN's form and the table's buttons in the bar fixed at the bottom,
the obelisk and the segments taken from beside the board on the drawing and put down on its
squares, a wall stood on a square and turned with the Maze Master's button (press: the next
way, hold: this one), the obelisk lifted off its square and put down on the next. The
segments lie in a line from the obelisk, so the game ends in four turns. On the way the
drawing shows the table's lights (no separate grid of them), a player's ring around their
card, the lifted obelisk faint on its square, outlined as the place to put right, and the
wall stood drawn facing the way the table lights it; the turn line takes two lines at most.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import square_name
from engine.maze.game import MazeGame, MazeOptions
from engine.maze.plan import plan
from tests.support.finger import (
    Finger,
    asked_after,
    ended,
    position,
    two_lines_at_most,
    walking,
    walks,
)
from tests.support.person import Follow
from tests.support.pictures import Pictures

pytestmark = [pytest.mark.browser, pytest.mark.processes]

OBELISK = "d4"
LAID = ("d5", "d6", "d7", "d8")
"""Where the Maze Master puts segments 2 to 5: a line the obelisk climbs one claim a turn."""
WALL = "h1"
"""Where the Maze Master stands the one wall, away from the obelisk's line."""

def _taken(follow: Follow, before: int, what: str) -> None:
    follow.until(lambda: follow.accepted() > before or follow.over, 60, what)


def _caught_up(finger: Finger, follow: Follow) -> None:
    """Wait until the page shows every action the table took, and no offer once none is on:
    a tap aimed while the board is drawn again in another size (an offer gone) lands on
    another square."""
    played = follow.accepted()
    offered = bool(follow.offer)
    finger.page.wait_for_function(
        """([played, offered]) => document.getElementById('status').textContent
             .startsWith(`${played} action`)
           && document.getElementById('offer').hidden !== offered""",
        arg=[played, offered], timeout=30_000)


def _start(finger: Finger, follow: Follow) -> None:
    """Press A in the bar until the game starts, the lights drawn on the board."""
    follow.until(lambda: follow.state in ("setup", "play"), 30, "the maze table")
    finger.page.wait_for_selector("#players .card[data-ring]", timeout=30_000)
    assert finger.page.is_hidden("#lights"), "the lights drawn twice"
    for _ in range(30):
        if follow.state == "play":
            return
        finger.act('[data-reach="press-A"]')
        try:
            follow.until(lambda: follow.state == "play", 1.0, "the game to start")
        except AssertionError:
            continue
    assert follow.state == "play", f"the game did not start: {follow.problem!r}"


def _set_out(finger: Finger, follow: Follow) -> None:
    """The obelisk, then each segment, taken from beside the board and put on its square."""
    for piece, square in zip(("obelisk", "segment 2", "segment 3", "segment 4", "segment 5"),
                             (OBELISK, *LAID), strict=True):
        _caught_up(finger, follow)
        before = follow.accepted()
        finger.act(f'#drawing [data-tap="beside:{piece}"]')
        finger.page.wait_for_selector(f'#drawing [data-held$=" {piece}"]', timeout=30_000)
        finger.act(f'#drawing [data-tap="{square}"]')
        _taken(follow, before, f"{piece} on {square}")


def _wall(finger: Finger, follow: Follow) -> None:
    """A wall stood on its square, drawn facing the way lit; turned once, then held."""
    _caught_up(finger, follow)
    before = follow.accepted()
    finger.act(f'#drawing [data-tap="{WALL}"]')
    follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                 "the wall's facing offered")
    page = finger.page
    # the buttons the offer waits for stand out in the bar, and only those
    page.wait_for_selector('#reach-buttons [data-reach="hold-B"].asked', timeout=30_000)
    standing = page.eval_on_selector_all("#reach-buttons button.asked",
                                         "(bs) => bs.map((b) => b.dataset.reach)")
    assert sorted(standing) == ["hold-B", "press-B"], standing
    page.wait_for_selector(f'#drawing .wall.wood[data-square="{WALL}"][data-orientation]',
                           timeout=30_000)
    first = page.get_attribute(f'#drawing .wall.wood[data-square="{WALL}"]', "data-orientation")
    finger.act('[data-reach="press-B"]')  # the next facing
    page.wait_for_function(
        f"""(was) => document.querySelector('#drawing .wall.wood[data-square="{WALL}"]')
          ?.dataset.orientation !== was""", arg=first, timeout=30_000)
    finger.act('[data-reach="hold-B"]')
    _taken(follow, before, "the wall")


def _move(finger: Finger, follow: Follow, frm: str, to: str, first: bool) -> None:
    """The obelisk lifted off ``frm`` and put on ``to``; a claim held on the Architect's
    button, once lit (pressed on to it first)."""
    _caught_up(finger, follow)
    before = follow.accepted()
    finger.act(f'#drawing [data-tap="{frm}"]')
    if first:  # in the hand: faint where it stood, outlined; its reach lit on the board
        page = finger.page
        page.wait_for_selector(f'#drawing .obelisk.lifted[data-square="{frm}"]', timeout=30_000)
        page.wait_for_selector(f'#drawing [data-differs="{frm}"]', timeout=30_000)
        page.wait_for_selector(f'#drawing [data-lit="{to}"]', timeout=30_000)
        page.wait_for_selector('#drawing [data-held$=" obelisk"]', timeout=30_000)
    finger.act(f'#drawing [data-tap="{to}"]')
    offer = follow.until(lambda: follow.offer or follow.accepted() > before, 60,
                         f"the obelisk on {to}")
    if follow.accepted() == before:
        names = offer["candidates"]
        target = next(i for i, words in enumerate(names) if f"to {to}" in words)
        for _ in range((target - offer.get("pick", 0)) % len(names)):
            finger.act('[data-reach="press-A"]')
        finger.act('[data-reach="hold-A"]')
    _taken(follow, before, f"the obelisk {frm}-{to}")


def _turns(finger: Finger, follow: Follow, solo: bool, pictures: Pictures) -> None:
    """Every turn to the end: the Maze Master's wall, then passes; the Architect's moves,
    asked by the computer when it plays them."""
    game = MazeGame(MazeOptions(turns=15))
    walled = first = False
    while follow.over is None:
        pos = position(game, follow)
        if pos.is_terminal():
            break
        if pos.phase.value == "wall":
            if walled:
                before = follow.accepted()
                finger.act('[data-reach="press-B"]')  # the Maze Master passes
                _taken(follow, before, "the pass")
            else:
                _wall(finger, follow)
                walled = True
            continue
        to = pos.string_to_action(asked_after(follow, follow.accepted())).to if solo \
            else plan(pos).route[0]
        if solo:  # the ask drawn, and said above the board: the board moved down for it
            finger.page.wait_for_selector(
                f'#drawing .outline.ask[data-square="{square_name(to)}"]', timeout=30_000)
        if solo and first:  # mid-game: the computer's move lit, its square outlined
            pictures.draw(finger.page)
        _move(finger, follow, square_name(pos.obelisk), square_name(to), not first)
        first = True


def _walk(browser, state_dir: Path, viewport: dict, *flags: str) -> dict:
    """A whole maze game at ``viewport``, every act tapped on the screen: its end."""
    with walking(browser, "maze", state_dir, viewport, "--turns", "15",
                 *flags) as (page, finger, follow):
        _start(finger, follow)
        _set_out(finger, follow)
        two_lines_at_most(page)
        _turns(finger, follow, "--solo" in flags, Pictures("maze", viewport, state_dir.parent))
        return ended(page, follow)


@pytest.mark.parametrize(("flags", "viewport"), walks("A"))
def test_a_whole_maze_game_is_played_by_tapping_only_what_is_on_the_screen(
        browser, tmp_path, viewport, flags):
    over = _walk(browser, tmp_path / "table", viewport, *flags)
    assert over["outcome"]["words"]
    assert "the Architect" in over["outcome"]["words"], over["outcome"]
