"""``obelisk demo GAME --json`` as a process: its events kept in a file, paused on cue."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT
from tests.support.processes import OBELISK, stop


class Demo:
    """``obelisk demo GAME --json`` on a state directory; its events kept in a file."""

    def __init__(self, game: str, state_dir: Path, seed: int = 1, speed: float = 100,
                 extra: tuple[str, ...] = (), pause_at: int | None = None) -> None:
        self.game, self.state_dir, self.seed, self.speed = game, state_dir, seed, speed
        self.extra, self.pause_at = extra, pause_at
        self.out = state_dir.parent / f"{state_dir.name}-{game}-demo.jsonl"
        self.process: subprocess.Popen | None = None

    def start(self) -> Demo:
        """Start it; with ``pause_at``, through ``tests.support.paused_demo`` (paused at that many
        moves until ``go()``)."""
        command = [OBELISK] if self.pause_at is None else \
            [sys.executable, "-m", "tests.support.paused_demo", str(self.pause_at)]
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
