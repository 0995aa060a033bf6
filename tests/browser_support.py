"""What the browser tests drive: Debian's chromium, `obelisk web` and the demos, as processes.

Every process started here is stopped by its own handle (``stop``), never by
name. Waits poll a condition until a deadline; none sleeps a fixed time.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
OBELISK = str(Path(sys.executable).parent / "obelisk")
ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


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


def until(check: Callable[[], object], timeout: float, what: str, every: float = 0.05):
    """Poll ``check`` until it gives something true; fail naming ``what`` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Web:
    """``obelisk web`` for a state directory, on a port of its own."""

    def __init__(self, state_dir: Path, port: int | None = None, args: tuple[str, ...] = (),
                 stderr: Path | None = None, files: int | None = None) -> None:
        """``args``: more options; ``stderr``: a file that keeps what it prints there;
        ``files``: its file limit (as a unit's ``LimitNOFILE=`` sets it)."""
        self.state_dir = state_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args, self.stderr, self.files = args, stderr, files
        self.process: subprocess.Popen | None = None

    def start(self) -> Web:
        limit = None
        if self.files is not None:
            import resource

            def limit() -> None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

        with open(self.stderr or os.devnull, "ab") as err:
            self.process = subprocess.Popen(
                [OBELISK, "web", "--address", "127.0.0.1", "--port", str(self.port),
                 "--state-dir", str(self.state_dir), *self.args],
                stdout=subprocess.PIPE, stderr=err, text=True, preexec_fn=limit)
        said = self.process.stdout.readline()  # printed once it listens
        assert self.url + "/" in said, f"obelisk web did not start: {said!r}"
        return self

    def stop(self) -> None:
        stop(self.process)


class Demo:
    """``obelisk demo GAME --json`` on a state directory; its events kept in a file."""

    def __init__(self, game: str, state_dir: Path, seed: int = 1, speed: float = 100,
                 extra: tuple[str, ...] = (), pause_at: int | None = None) -> None:
        self.game, self.state_dir, self.seed, self.speed = game, state_dir, seed, speed
        self.extra, self.pause_at = extra, pause_at
        self.out = state_dir.parent / f"{state_dir.name}-{game}-demo.jsonl"
        self.process: subprocess.Popen | None = None

    def start(self) -> Demo:
        """Start it; with ``pause_at``, through ``tests.paused_demo`` (paused at that many
        moves until ``go()``)."""
        command = [OBELISK] if self.pause_at is None else \
            [sys.executable, "-m", "tests.paused_demo", str(self.pause_at)]
        with open(self.out, "a") as out:  # a restarted demo adds to the same file
            self.process = subprocess.Popen(
                [*command, "demo", self.game, "--json", "--seed", str(self.seed), "--speed",
                 str(self.speed), "--state-dir", str(self.state_dir), *self.extra],
                stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        return self

    def paused(self) -> bool:
        """Whether the demo holds still at ``pause_at`` moves (its menu button pressed)."""
        return self.state_dir.with_name(self.state_dir.name + ".paused").exists()

    def go(self) -> None:
        """Let a paused demo play on (its menu button pressed again)."""
        self.state_dir.with_name(self.state_dir.name + ".go").touch()

    def events(self) -> list[dict]:
        """The events the demo printed so far (a half-written last line is left out)."""
        got = []
        try:
            text = self.out.read_text()
        except FileNotFoundError:
            return got
        for line in text.splitlines():
            try:
                got.append(json.loads(line))
            except ValueError:
                continue
        return got

    def accepted(self) -> list[dict]:
        return [e for e in self.events() if e.get("event") == "accepted"]

    def finished(self) -> bool:
        return self.process is not None and self.process.poll() is not None

    def wait(self, timeout: float) -> None:
        assert self.process is not None
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the {self.game} demo did not finish in {timeout:g} s") from None
        assert code == 0, f"the {self.game} demo ended with status {code}"

    def stop(self) -> None:
        stop(self.process)


def interrupt(process: subprocess.Popen) -> None:
    """Stop a command as Ctrl-C does (it stops what it started), then for good if it will not."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(30)
    stop(process)


def stop(process: subprocess.Popen | None) -> None:
    """End one process we started, by its own handle."""
    if process is None or process.poll() is not None:
        return
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


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
