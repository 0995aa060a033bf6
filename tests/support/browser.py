"""What the browser tests drive: Debian's chromium, `obelisk web` and the demos, as processes.

Every process started here is stopped by its own handle (``stop``), never by
name. Waits poll a condition until a deadline; none sleeps a fixed time.
"""

from __future__ import annotations

import os

import pytest

from tests.support.processes import on_a_pi

CHROMIUM = "/usr/bin/chromium"

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SMALL = {"width": 360, "height": 640}
"""A small phone's screen."""


def chromium() -> str:
    """Debian's chromium, or the reason it is missing (a skip only on a Pi, where setup.sh
    installs no browser; anywhere else a failure that names the fix)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if on_a_pi():
            pytest.skip("the browser tests do not run on a Raspberry Pi (no browser installed)")
        pytest.fail("Playwright for Python is missing: run ./setup.sh (it installs it into .venv)")
    if not os.access(CHROMIUM, os.X_OK):
        if on_a_pi():
            pytest.skip("the browser tests do not run on a Raspberry Pi (no chromium installed)")
        pytest.fail(f"Debian's chromium is missing ({CHROMIUM}): run ./setup.sh (it installs "
                    "it with apt)")
    return CHROMIUM


DIGEST = """() => {
  const text = (id) => document.getElementById(id)?.textContent ?? "";
  const drawing = document.querySelector("#drawing svg");
  return {
    game: document.body.dataset.game,
    drawing: drawing ? drawing.outerHTML : "",
    facts: document.getElementById("facts").innerHTML,
    players: [...document.querySelectorAll("#players .card")].map(
      (c) => c.querySelector(".name").textContent + " | " + c.querySelector(".score").textContent
        + " | " + c.className),
    turn: text("turn"),
    problem: document.getElementById("problem").hidden ? "" : text("problem-text"),
    ending: document.getElementById("ending").hidden ? ""
      : document.getElementById("ending").innerHTML,
    moves: [...document.querySelectorAll("#moves li")].map((li) => li.textContent),
  };
}"""
"""What a page shows, for comparing two pages (the hourglass's animation left out)."""

WATCH = """() => {
  // what the page showed at each refusal, and every status line, kept as it happens
  window.seen = { refusals: [], statuses: [], logged: [] };
  const problem = document.getElementById("problem");
  const status = document.getElementById("status");
  const look = () => {
    if (!problem.hidden) {
      const text = document.getElementById("problem-text").textContent;
      const marks = document.querySelectorAll("#drawing [data-mark]").length;
      const last = window.seen.refusals[window.seen.refusals.length - 1];
      if (!last || last.text !== text || last.marks < marks) {
        if (last && last.text === text) last.marks = marks;
        else window.seen.refusals.push({ text, marks });
      }
    }
    const said = status.textContent;
    const statuses = window.seen.statuses;
    if (statuses[statuses.length - 1] !== said) statuses.push(said);
    // each line of "what happened" as it first showed, oldest first
    const lines = [...document.querySelectorAll("#log li")].map((li) => li.textContent).reverse();
    for (const line of lines) if (!window.seen.logged.includes(line)) window.seen.logged.push(line);
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true,
    attributes: true, characterData: true });
  look();
}"""
"""Installed in a page: records each refusal as shown (with its marks), each status line and
each line of "what happened"."""

SPEECH = """
// The browser's speech, replaced by a list of what would have been said.
window.spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak: (utterance) => window.spoken.push(utterance.text), cancel: () => {} } });
"""
"""An init script: what the page's "speak" switch says, kept in ``window.spoken``."""
