"""One board and what the turn asks in reach, on a phone (issue 48, points 1, 2 and 4, High Rise).

A person plays a whole High Rise game (3x3, the smallest board) at 390x844 and at 360x640
(and on a laptop), alone against the computer and two-handed, touching only what is on the
screen: the PIN's form, the table's buttons, the pyramid's size and the hands' mode in the
bar fixed at the bottom, each pyramid set by tapping its square on the drawing. Before each
tap the element's box must lie inside the viewport and be what a finger there would touch;
the page never scrolls. The turn line in the bar takes at most two lines. On the way the
drawing shows the table's lights on its squares (no separate grid of lights), a player's
ring around their card, every square's cover but never what it hides (no value on the page
or in the table's events before the end), and a lean begun marks the squares beside its
first square, the bar saying to tap one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.highrise.game import HighriseOptions
from tests.support.browser import PHONE
from tests.support.finger import (
    Finger,
    ended,
    started_from_the_bar,
    two_lines_at_most,
    walking,
    walks,
)
from tests.support.page import PlayPage
from tests.support.person import Follow
from tests.support.pictures import Pictures

pytestmark = [pytest.mark.browser, pytest.mark.processes]

OPTIONS = HighriseOptions()
"""The smallest board (3x3), the simulated table's: every square has a load cell."""
SQUARES = [f"{col}{row}" for row in range(1, OPTIONS.rows + 1) for col in "abc"[:OPTIONS.cols]]


def _asked(finger: Finger, follow: Follow, accepted: int) -> tuple[str, str]:
    """The computer's placement asked after the ``accepted``-th action, read as a person
    reads it: its square lit on the drawing, its size in the words beside B's ring."""
    def found():
        seen, square, says = 0, None, None
        for e in follow.events:
            seen += e["event"] == "accepted"
            if seen < accepted:
                continue
            if e["event"] == "asked":
                square = e["action"]
            elif e["event"] == "lights":
                says = next((s["says"] for s in e["strips"] if s["strip"] == "ring"
                             and s.get("says")), says)
        return (square, says) if square and says else None
    square, says = follow.until(found, 60, "the computer's placement asked")
    finger.page.wait_for_selector(f'#drawing [data-lit="{square}"]', timeout=30_000)
    finger.page.wait_for_function(
        "(says) => [...document.querySelectorAll('#players .ring-says')]"
        ".some((p) => p.textContent === says)", arg=says, timeout=30_000)
    return next(size for size in ("small", "medium", "large") if size in says), square


def _since(follow: Follow, told: int, kind: str) -> bool:
    """Whether the table told an event of ``kind`` after its first ``told`` events."""
    return any(e["event"] == kind for e in follow.events[told:])


def _lean_asked(finger: Finger, follow: Follow) -> None:
    """A lean begun on a1: a1 and the squares beside it marked, the bar saying to tap one;
    a1 again, and no lean is begun. Then a lean made (a1 and a2): the table refuses it, the
    drawing shows the leaning pyramid on both squares to put right, and lifting it from a1
    (the bar's lift, the drawing's square) puts it right."""
    page = finger.page
    finger.act('[data-reach="mode-lean"]')
    finger.act('#drawing [data-tap="a1"]')
    page.wait_for_selector('#drawing [data-lean-from="a1"]', timeout=30_000)
    marked = page.eval_on_selector_all("#drawing [data-lean-to]",
                                       "(all) => all.map((n) => n.dataset.leanTo).sort()")
    assert marked == ["a2", "b1"], marked
    said = page.text_content("#reach-say") or ""
    assert page.is_visible("#reach-say") and "tap a marked square" in said, said
    finger.act('#drawing [data-tap="a1"]')
    page.wait_for_selector("#drawing [data-lean-to]", state="detached", timeout=30_000)
    assert page.is_hidden("#reach-say")
    finger.act('#drawing [data-tap="a1"]')
    told = len(follow.events)
    finger.act('#drawing [data-tap="a2"]')  # leaned across a1 and a2: no pyramid weighs so
    follow.until(lambda: _since(follow, told, "refused"), 60, "the lean refused")
    for square in ("a1", "a2"):
        page.wait_for_selector(f'#drawing [data-differs="{square}"]', timeout=30_000)
    finger.act('[data-reach="mode-lift"]')
    finger.act('#drawing [data-tap="a1"]')
    follow.until(lambda: _since(follow, told, "repaired"), 60, "the lean put right")
    page.wait_for_selector("#drawing [data-differs]", state="detached", timeout=30_000)
    finger.act('[data-reach="mode-set"]')


def _covered(page) -> None:
    """Every square's cover drawn, and nothing of what it hides on the page."""
    covers = page.eval_on_selector_all("#drawing [data-cover]", "(all) => all.length")
    assert covers == len(SQUARES), covers
    assert page.query_selector("#drawing [data-value]") is None, "a hidden value drawn"


def _place(finger: Finger, follow: Follow, seat: str, size: str, square: str,
           asked: bool = False) -> None:
    """The size tapped in the bar unless it is the one chosen already, then the square.
    ``asked``: the computer's pyramid, whose size the bar has chosen already as the ring
    asks it (where it kept the last one, a tap on the square put the wrong size)."""
    before = follow.accepted()
    # the bar's sizes are the mover's once the hands follow the turn (the other's may have
    # none of that size left: greyed out, a tap on it does nothing)
    finger.page.wait_for_selector(f'#hands [data-hands-of="{seat}"]', timeout=30_000)
    chosen = f'[data-reach="size-{size}"]'
    finger.page.wait_for_selector(f"{chosen}:not([disabled])", timeout=30_000)
    if asked:
        try:
            finger.page.wait_for_selector(f'{chosen}[aria-pressed="true"]', timeout=30_000)
        except Exception:
            pressed = finger.page.get_attribute('[data-reach^="size-"][aria-pressed="true"]',
                                                "data-reach")
            raise AssertionError(f"the computer asks for a {size} pyramid; the bar has "
                                 f"{pressed} chosen") from None
    elif finger.page.get_attribute(chosen, "aria-pressed") != "true":
        finger.act(chosen)
    finger.act(f'#drawing [data-tap="{square}"]')
    follow.until(lambda: follow.accepted() > before or follow.over, 60, f"{size} {square} taken")


def _play(finger: Finger, follow: Follow, solo: bool, pictures: Pictures) -> None:
    """Every placement to the end: the computer's as asked, a person's the largest they have
    left (the size chosen changes seldom), on each square in turn; the page's picture drawn
    mid-game, the computer's placement lit."""
    left = {seat: {size.label: n for size, n in OPTIONS.pieces().items()} for seat in "AB"}
    turn = 0
    while follow.over is None:
        obs = follow.obs or {}
        seat = obs.get("to_play")
        if seat is None:
            break
        if solo and seat == "B":
            size, square = _asked(finger, follow, follow.accepted())
            if follow.accepted() >= 10:
                pictures.draw(finger.page)
        else:
            size = next(s for s in ("large", "medium", "small") if left[seat][s])
            square = SQUARES[turn % len(SQUARES)]
            turn += 1
        left[seat][size] -= 1
        _place(finger, follow, seat, size, square, asked=solo and seat == "B")


def _nothing_told_early(events: list[dict]) -> None:
    """No event before the first reveal (or the end) tells a stack's value or its pips."""
    end = next(i for i, e in enumerate(events) if e["event"] in ("reveal", "game_over"))
    told = [e["event"] for e in events[:end] if "stacks" in (e.get("observation") or {})
            or '"value"' in json.dumps(e)]
    assert not told, f"what the covers hide told before the end: {told}"


def _walk(browser, state_dir: Path, viewport: dict, *flags: str) -> tuple[dict, list[dict]]:
    """A whole High Rise game at ``viewport``, every act tapped: its end, the placements."""
    with walking(browser, "highrise", state_dir, viewport, *flags) as (page, finger, follow):
        started_from_the_bar(finger, follow)
        page.wait_for_selector("#players .card[data-ring]", timeout=30_000)  # a ring around it
        two_lines_at_most(page)
        _covered(page)
        _lean_asked(finger, follow)
        _play(finger, follow, "--solo" in flags, Pictures("highrise", viewport, state_dir.parent))
        over = ended(page, follow, 60)
        _nothing_told_early(follow.events)
        return over, [e for e in follow.events if e["event"] == "accepted"]


@pytest.mark.parametrize(("flags", "viewport"), walks("B"))
def test_a_whole_high_rise_game_is_played_by_tapping_only_what_is_on_the_screen(
        browser, tmp_path, viewport, flags):
    over, placed = _walk(browser, tmp_path / "table", viewport, *flags)
    assert over["outcome"]["words"]
    assert len(placed) == 2 * OPTIONS.pieces_each, len(placed)
    assert {p["player"] for p in placed} == {"A", "B"}, placed[:4]


def test_the_size_chosen_is_kept_over_a_reload(browser, tmp_path):
    """A newcomer's trial: after a reload the bar chose small again, and the next tap set a
    small pyramid where the person had chosen a large one. This tab keeps its choice."""
    played = PlayPage(browser, "highrise", tmp_path / "table", viewport=PHONE)
    page = played.page
    try:
        Finger(page, PHONE).act('[data-reach="size-large"]')
        assert page.get_attribute('[data-reach="size-large"]', "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector('[data-reach="size-large"][aria-pressed="true"]',
                               timeout=30_000)
        assert page.get_attribute('[data-reach="size-small"]', "aria-pressed") == "false"
    finally:
        played.stop()
