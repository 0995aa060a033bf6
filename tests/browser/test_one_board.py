"""One board and what the turn asks in reach, on a phone (issue 48, points 1 and 2, stones).

A person plays a whole stones game at 390x844 and at 360x640 (and on a laptop), alone
against the computer and two-handed, touching only what is on the screen: the PIN's form
and the table's buttons in the bar fixed at the bottom, each stone moved by tapping its
square on the drawing and then the square it goes to. Before each tap the element's box
must lie inside the viewport and be what a finger there would touch; the page never
scrolls. The turn line in the bar takes at most two lines. On the way the drawing shows the
table's lights on its squares (no separate grid of lights) and a player's ring around their
card, and a stone lifted off its square stays drawn there, faint, its square outlined as
the place to put right.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import square_name
from engine.stones.game import StonesGame, StonesOptions
from tests.support.browser import PHONE, SMALL
from tests.support.fed_page import TABLE, fed
from tests.support.finger import (
    Finger,
    asked_after,
    ended,
    position,
    started_from_the_bar,
    two_lines_at_most,
    walking,
    walks,
)
from tests.support.page import PlayPage
from tests.support.person import Follow
from tests.support.pictures import Pictures

pytestmark = [pytest.mark.browser, pytest.mark.processes]

PLIES = 6
"""A short game: 4x4, drawn after six moves (unless won before)."""


def _move(finger: Finger, follow: Follow, frm: str, to: str, first: bool) -> None:
    before = follow.accepted()
    finger.act(f'[data-tap="{frm}"]')
    if first:  # the stone in the hand: still drawn on its square, faint, the square outlined
        finger.page.wait_for_selector(f'#drawing g.stack.lifted[data-square="{frm}"]',
                                      timeout=30_000)
        finger.page.wait_for_selector(f'#drawing [data-differs="{frm}"]', timeout=30_000)
    finger.act(f'[data-tap="{to}"]')
    follow.until(lambda: follow.accepted() > before or follow.over, 60, f"{frm}-{to} taken")


def _walk(browser, state_dir: Path, viewport: dict, *flags: str) -> tuple[dict, list[dict]]:
    """A whole stones game at ``viewport``, every move tapped: its end, the moves accepted."""
    game = StonesGame(StonesOptions(rows=4, cols=4, ply_limit=PLIES))
    with walking(browser, "stones", state_dir, viewport, "--size", "4x4", "--ply-limit",
                 str(PLIES), *flags) as (page, finger, follow):
        started_from_the_bar(finger, follow)
        page.wait_for_selector("#players .card[data-ring]", timeout=30_000)  # a ring around it
        two_lines_at_most(page)
        solo = "--solo" in flags
        pictures = Pictures("stones", viewport, state_dir.parent)
        first = True
        while follow.over is None:
            pos = position(game, follow)
            if pos.is_terminal():
                break
            if solo and pos.to_play.value == "B":
                move = pos.string_to_action(asked_after(follow, follow.accepted()))
                pictures.draw(page)  # mid-game: the computer's move lit on the board
            else:
                occupied = {sq for sq, _ in pos.stacks}
                move = next(m for m in pos.legal_actions() if m.to not in occupied
                            and all(s.owner is pos.to_play for s in pos.board[m.frm]))
            _move(finger, follow, square_name(move.frm), square_name(move.to), first)
            first = False
        return ended(page, follow), [e for e in follow.events if e["event"] == "accepted"]


@pytest.mark.parametrize(("flags", "viewport"), walks("B"))
def test_a_whole_stones_game_is_played_by_tapping_only_what_is_on_the_screen(
        browser, tmp_path, viewport, flags):
    over, moves = _walk(browser, tmp_path / "table", viewport, *flags)
    assert over["outcome"]["words"]
    assert len(moves) >= 2 and {m["player"] for m in moves} == {"A", "B"}, moves


REFUSED = "no legal move of player B empties c1 and fills c2: put the stones back as they were"


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390x844", "360x640"])
def test_a_refusal_stands_in_the_bar_and_the_board_keeps_its_size(browser, tmp_path, viewport):
    """A newcomer's trial: a refusal's box above the board took half the drawing (stone
    squares of 69 px became 36, and 20 on a small phone) just when a piece had to be put
    right on it. The refusal stands in the bar now, above the turn line it holds up, in view
    and whole on a tap; the drawing keeps most of its height."""
    heights, in_bar = {}, False
    for problem in ("", REFUSED):
        with fed(browser, tmp_path / f"table{len(heights)}", {**TABLE, "problem": problem},
                 shown="player B", viewport=viewport) as page:
            heights[problem] = page.evaluate(
                "() => document.querySelector('#drawing svg').getBoundingClientRect().height")
            if problem:
                Finger(page, viewport).tap("#problem")  # in view, on top: a tap shows it whole
                assert REFUSED in page.text_content("#problem")
                in_bar = page.is_visible("#reach #problem")
    assert heights[REFUSED] >= 0.8 * heights[""], heights
    assert in_bar, "the refusal is not in the bar, above the turn line it holds up"


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390x844", "360x640"])
def test_what_the_hands_could_not_do_is_said_in_the_bar(browser, tmp_path, viewport):
    """A newcomer's trial: a tap the hands could not make was said only in the panel, below
    the bar and out of view, so the tap seemed to do nothing. It is said in the bar, and
    goes once the hands do something else."""
    played = PlayPage(browser, "stones", tmp_path / "table", viewport=viewport)
    page = played.page
    try:
        played.person.click('#hands [data-act="clear"]')  # every stone beside the board
        played.person.click('#hands [data-mode="knock"]')  # a tap knocks the square's stack
        page.evaluate("() => scrollTo(0, 0)")  # (the panel's buttons are below the fold)
        finger = Finger(page, viewport)
        finger.act('#drawing [data-tap="c3"]')  # nothing stands there to knock
        said = page.text_content("#reach-say") or ""
        assert "nothing stands on c3 to knock" in said, said
        finger.tap("#reach-say")  # in view, on top
        played.person.click('#hands [data-mode="move"]')  # the hands do something else
        page.wait_for_selector("#reach-say", state="hidden", timeout=30_000)
    finally:
        played.stop()


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390x844", "360x640"])
def test_the_key_to_the_stones_shapes_is_in_view_above_the_bar(browser, tmp_path, viewport):
    """Which shape is which stone (a flat cornerstone, a keystone, a capstone) stood in a
    legend under the drawing: on a small phone it lay under the bar, out of sight while a
    person played. It is drawn in the drawing now, under the board, clear of the bar."""
    with fed(browser, tmp_path / "table", TABLE, shown="player B", viewport=viewport) as page:
        boxes = page.evaluate("""() => [...document.querySelectorAll('#drawing .key-item')]
            .map((k) => { const r = k.getBoundingClientRect();
                          return { name: k.textContent, bottom: r.bottom, top: r.top }; })""")
        bar = page.evaluate("() => document.getElementById('reach').getBoundingClientRect().top")
    names = TABLE["observation"]["names"].values()
    assert sorted(b["name"].strip() for b in boxes) == sorted(names), boxes
    assert all(b["top"] >= 0 and b["bottom"] <= bar for b in boxes), (boxes, bar)
