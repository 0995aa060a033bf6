"""What a newcomer's trial of `obelisk play` still tripped on (issue 32's leftovers).

Each game was played two-handed and alone at a phone's width, stopped midway
with Ctrl-C and started again with the same command. Each test here opens the
page of a running `obelisk play` in Debian's chromium and checks one class of
snag on it: the moves so far after a restart, what the LEDs say put in words
too, the lights laid out as the table has them, the hands after a takeback,
and the words (block labels, counts, the maze's roles). The acts go through
the hands' socket (the same acts the hands panel sends), so each test spends
its time on what the page shows.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from hardware.sim.line_socket import ask
from tests.browser_support import OBELISK, PHONE, interrupt
from tests.hands_person import Follow
from tests.test_browser_hands import Person


class Playing:
    """`obelisk play GAME` on a state directory with a page open on it at a phone's width;
    ``restart`` stops it with Ctrl-C and types the same command again, as a person does."""

    def __init__(self, browser, game: str, state_dir: Path, *args: str) -> None:
        self.dir = state_dir
        self.command = [OBELISK, "play", game, "--port", "0", "--state-dir", str(state_dir),
                        *args]
        self.process: subprocess.Popen | None = None
        self.url = self._start()
        self.page = browser.new_context(viewport=PHONE).new_page()
        self.page.goto(self.url)
        self.person = Person(self.page, state_dir)
        self.person.enter_pin()
        self.follow = Follow(state_dir)

    def _start(self) -> str:
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        said = self.process.stdout.readline()
        assert "open http://" in said, self.process.stderr.read()
        return said[said.index("http://"):].split()[0]

    def restart(self) -> None:
        """Ctrl-C, then the same command: the page left open finds it on the same address."""
        interrupt(self.process)
        assert self._start() == self.url

    def act(self, act: dict) -> dict:
        """One act of the hands through their socket; a press goes to the table's buttons."""
        if act["act"] == "press":
            return ask(self.dir / "buttons.sock", {"button": act["seat"],
                                                   "hold": bool(act.get("hold"))})
        return ask(self.dir / "hands.sock", act)

    def look(self) -> dict:
        return self.act({"act": "look"})["table"]

    def moves(self) -> list[str]:
        """The page's list of moves, each as it reads."""
        return [li.text_content() for li in self.page.query_selector_all("#moves li")]

    def stop(self) -> None:
        self.follow.close()
        self.page.context.close()
        interrupt(self.process)


def _high_rise_started(table: Playing) -> None:
    """Covers on every square (one act), then a press on A starts the game."""
    follow = table.follow
    table.act({"act": "setup"})
    follow.until(lambda: "press a player button" in follow.problem, 60, "the covers seen")
    table.act({"act": "press", "seat": "A"})
    follow.until(lambda: any(e["event"] == "start" for e in follow.events), 60, "the start")


def _high_rise_places(table: Playing, square: str, size: str = "small") -> None:
    """The player to move puts a pyramid on ``square``; the table weighs and accepts it."""
    follow = table.follow
    before = follow.accepted()
    seat = follow.obs["to_play"]
    table.act({"act": "set", "seat": seat, "square": square, "size": size})
    follow.until(lambda: follow.accepted() > before, 60, f"{seat}'s pyramid on {square}")


def _moves_shown(table: Playing, n: int) -> None:
    table.page.wait_for_function("(n) => document.querySelectorAll('#moves li').length === n",
                                 arg=n, timeout=30_000)


# ---------------------------------------------------------------- 1. the moves so far


def test_the_moves_so_far_come_back_when_obelisk_play_starts_again(browser, tmp_path):
    """Ctrl-C and the same command resume the game from the journal: the page's moves list
    shows every move since the start again, on the page left open and on a reload."""
    table = Playing(browser, "highrise", tmp_path)
    try:
        _high_rise_started(table)
        for square in ("b2", "c3"):
            _high_rise_places(table, square)
        _moves_shown(table, 2)
        before = table.moves()
        table.restart()
        _high_rise_places(table, "a1")  # told after the restarted table's whole state
        _moves_shown(table, 3)
        assert table.moves()[:2] == before, table.moves()
        assert table.page.text_content("#moves-count") == "3"
        table.page.reload()
        _moves_shown(table, 3)
        assert table.moves()[:2] == before and "a1" in table.moves()[2], table.moves()
    finally:
        table.stop()
