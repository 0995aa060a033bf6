"""A finger on a phone's screen: taps only what is in view and on top (issue 48, point 2).

Each walk of a game at a phone's size acts through it, so a control the turn asks for that
lies below the fold, under the bar or under another element fails the walk, naming it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.service.pin import read_pin
from tests.support.browser import LAPTOP, PHONE, SMALL
from tests.support.person import Follow
from tests.support.play import Play

WHERE = """(selector) => {
  // the element's box now, and whether a finger at its middle touches it (nothing over it);
  // asked in one go: the drawing is drawn again as the table's events come
  const meant = document.querySelector(selector);
  if (!meant) return null;
  const r = meant.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return { x: r.left, y: r.top, width: r.width, height: r.height, scrolled: window.scrollY,
    touched: Boolean(hit && (meant === hit || meant.contains(hit))) };
}"""
"""Where an element is on the screen, and whether a tap at its middle reaches it."""

STILL = """async (selector) => {
  // until the element stands still: the same box two frames apart (at most about a second)
  let last = "";
  for (let i = 0; i < 30; i += 1) {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const r = document.querySelector(selector)?.getBoundingClientRect();
    const now = r ? [r.x, r.y, r.width, r.height].join() : "";
    if (now === last) return;
    last = now;
  }
}"""
"""Waits until an element's box is the same two frames apart, as a finger lands on a still
screen (Playwright's own stillness check, kept here without its scrolling)."""


SEEN = """() => {
  const panel = document.getElementById('hands');
  const text = (id) => document.getElementById(id)?.textContent.trim().slice(0, 200);
  return { hands: { ...panel.dataset, hidden: panel.hidden }, status: text('status'),
    turn: text('turn'), problem: text('problem'),
    held: [...document.querySelectorAll('#drawing [data-held]')].map((e) => e.dataset.held) };
}"""
"""What the page showed when a tap made no act: the hands' counts, the lines, the hand."""


STARTED = """(acts) => { const panel = document.getElementById('hands');
  return Boolean(panel.dataset.busy) || Number(panel.dataset.acts || 0) > acts; }"""
"""Whether the hands' act a tap makes is on its way or answered."""


class Finger:
    """Taps what is on the screen, and only that: fails naming the element out of view."""

    def __init__(self, page, viewport: dict) -> None:
        self.page, self.view = page, viewport
        self.errors: list[str] = []  # what the page's scripts threw, to name when an act fails
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def tap(self, selector: str) -> dict:
        """Tap the middle of the element once it is drawn, if it is in view: its box, as
        tapped."""
        self.page.wait_for_selector(selector, state="visible", timeout=30_000)
        self.page.evaluate(STILL, selector)  # (a drawing resized as the bar changes height
        box = self.page.evaluate(WHERE, selector)  # moves it from under a tap at its old place)
        width, height = self.view["width"], self.view["height"]
        assert box is not None, f"{selector} is gone at {width}x{height}"
        assert box["scrolled"] == 0, f"the page scrolled ({selector}): {box}"
        inside = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width \
            and box["y"] + box["height"] <= height
        assert inside, f"{selector} is out of view at {width}x{height}: {box}"
        assert box["touched"], f"{selector} is covered at {width}x{height}: {box}"
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return box

    def act(self, selector: str) -> None:
        """Tap, then wait for the hands' act it makes to be answered."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # (none on a Pi)

        acts = int(self.page.get_attribute("#hands", "data-acts") or 0)
        for _ in range(3):
            box = self.tap(selector)
            with contextlib.suppress(PlaywrightTimeout):  # (setting out asks the status first)
                self.page.wait_for_function(STARTED, arg=acts, timeout=3_000)
                break
            now = self.page.evaluate(WHERE, selector)
            if now is not None and all(abs(now[k] - box[k]) <= 1 for k in ("x", "y", "width",
                                                                          "height")):
                break  # tapped where it still is: its act is awaited, or named below
            # the page moved it as the finger came down: the tap landed elsewhere, so again
        try:
            self.page.wait_for_function(
                f"() => Number(document.getElementById('hands').dataset.acts || 0) > {acts}",
                timeout=30_000)
        except PlaywrightTimeout:
            raise AssertionError(f"the tap on {selector} made no act in 30 s; the page then: "
                                 f"{self.page.evaluate(SEEN)}; its errors: {self.errors}"
                                 ) from None


SCREENS = {"390x844": PHONE, "360x640": SMALL, "laptop": LAPTOP}
"""The screens the one-board walks play at, by their tests' ids: two phones and a laptop."""


def walks(seat: str) -> list:
    """The walks of a game, as ``(flags, viewport)`` parameters: alone against the computer
    in ``seat`` on each screen (the laptop's draws its picture), and two-handed on both
    phones (issue 48's two sizes; the laptop adds nothing a two-handed game would show)."""
    alone = [pytest.param(("--solo", seat), viewport, id=f"alone-{name}")
             for name, viewport in SCREENS.items()]
    return alone + [pytest.param((), viewport, id=f"two-handed-{name}")
                    for name, viewport in SCREENS.items() if viewport is not LAPTOP]


def signed_in(browser, url: str, pin: str, viewport: dict) -> tuple:
    """A new page at ``viewport`` on the table at ``url``, its PIN typed into the bar's form
    by tapping only what is on the screen, the hands come: (the page, its finger)."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    finger = Finger(page, viewport)
    finger.tap("#pin")  # the PIN's form, in the bar for a guest
    page.keyboard.type(pin)
    finger.tap("#pin-enter")
    page.wait_for_selector("#hands:not([hidden]) [data-press]", timeout=30_000)
    return page, finger


@contextlib.contextmanager
def walking(browser, game: str, state_dir: Path, viewport: dict,
            *args: str) -> Iterator[tuple]:
    """``obelisk play GAME ARGS`` with a phone's page signed in on it: (the page, its finger,
    the table's events followed); the command stopped after, however the walk ended."""
    play = Play(game, state_dir, *args).start()
    follow = None
    try:
        page, finger = signed_in(browser, play.url, read_pin(state_dir) or "", viewport)
        follow = Follow(state_dir)
        yield page, finger, follow
    finally:
        if follow is not None:
            follow.close()
        play.stop()


def ended(page, follow: Follow, within: float = 30) -> dict:
    """Until the game is over and the page shows its end: the end's event."""
    follow.until(lambda: follow.over, within, "the end")
    page.wait_for_selector("#ending:not([hidden])", timeout=30_000)
    return follow.over


def two_lines_at_most(page) -> None:
    """The turn line in the bar takes two lines at most (the rest on a tap)."""
    lines = page.evaluate("() => { const t = document.getElementById('turn'); return"
                          " t.clientHeight / parseFloat(getComputedStyle(t).lineHeight); }")
    assert lines <= 2.05, f"the turn line takes {lines:.1f} lines in the bar"


def asked_after(follow, accepted: int) -> str:
    """The computer's move asked after the ``accepted``-th action, as notation."""
    def found():
        seen = 0
        for e in follow.events:
            seen += e["event"] == "accepted"
            if e["event"] == "asked" and seen == accepted:
                return e["action"]
        return None
    return follow.until(found, 60, "the computer's move asked")


def position(game, follow):
    """The game's state after every action the table's events accepted so far."""
    state = game.new_initial_state()
    for e in follow.events:
        if e["event"] == "accepted":
            state = state.apply_action(state.string_to_action(e["action"]))
    return state


def started_from_the_bar(finger: Finger, follow) -> None:
    """Set the pieces out from the bar, then press A there until the game starts (the table
    first settles on the pieces set out); before it, the lights are drawn on the board only."""
    follow.until(lambda: follow.state == "setup", 30, "the table in setup")
    finger.page.wait_for_selector("#drawing [data-lit]", timeout=30_000)  # lit on the board
    assert finger.page.is_hidden("#lights"), "the lights drawn twice"
    finger.act('[data-reach="setup"]')
    for _ in range(30):
        finger.act('[data-reach="press-A"]')
        try:
            follow.until(lambda: follow.state == "play", 1.0, "the game to start")
            return
        except AssertionError:
            continue
    raise AssertionError(f"the game did not start: {follow.problem!r}")
