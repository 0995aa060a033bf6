"""A person at the page of a running ``obelisk play``: the page open, the PIN typed.

``PlayPage`` opens a ``Play``'s page in Debian's chromium at a phone's width, types the
table PIN the command printed, and follows the table's events (``person.Follow``); the
acts go through the hands' socket (the same acts the hands panel sends) unless a test
clicks the panel itself (``person.Person``). ``Tables`` opens several in a module's order,
the next one's command started while the test before runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.core import square_name
from engine.highrise import record
from firmware.seats.solo import ASKED_FILE
from tests.support.browser import PHONE
from tests.support.person import Follow, Person
from tests.support.play import Play


class PlayPage:
    """``obelisk play GAME ARGS...`` on ``state_dir`` with its page open (``play``: the
    command, made and perhaps started already; ``entered``: False leaves the PIN typed but
    not yet waited on, for ``side_by_side``; ``script``: run in the page before its own)."""

    def __init__(self, browser: Any, game: str, state_dir: Path, *args: str,
                 play: Play | None = None, viewport: dict | None = None, script: str = "",
                 entered: bool = True) -> None:
        self.play = play or Play(game, state_dir, *args)
        self.dir = state_dir
        if self.play.process is None:
            self.play.start()
        try:
            self.page = browser.new_context(viewport=viewport or PHONE).new_page()
            if script:
                self.page.add_init_script(script)
            self.page.goto(self.play.url)
            self.person = Person(self.page, state_dir)
            self.person.type_pin()
            self.follow: Follow | None = None
            if entered:
                self.entered()
        except BaseException:
            self.play.stop()
            raise

    def entered(self) -> PlayPage:
        """Until the PIN is taken and the hands show; the table followed from then on."""
        self.person.pin_taken()
        self.follow = Follow(self.dir)
        return self

    @staticmethod
    def side_by_side(browser: Any, *each: tuple) -> list[PlayPage]:
        """A ``PlayPage`` of each ``(game, state_dir, *args)``: the commands started at once,
        then the pages, every PIN typed before any is waited on; all stopped if one fails."""
        plays = [Play(game, state_dir, *args).start() for game, state_dir, *args in each]
        opened: list[PlayPage] = []
        try:
            for play, (game, state_dir, *args) in zip(plays, each, strict=True):
                opened.append(PlayPage(browser, game, state_dir, *args, play=play,
                                       entered=False))
            for page in opened:
                page.entered()
        except BaseException:
            for page in opened:
                page.stop()
            for play in plays:
                play.stop()
            raise
        return opened

    # ---------------------------------------------------------------- the table

    @property
    def url(self) -> str:
        return self.play.url

    def act(self, act: dict) -> dict:
        return self.play.act(act)

    def look(self) -> dict:
        return self.play.look()

    def moves(self) -> list[str]:
        """The page's list of moves, each as it reads."""
        return [li.text_content() for li in self.page.query_selector_all("#moves li")]

    def turn_words(self) -> str:
        return self.page.text_content("#turn") or ""

    def restart(self) -> None:
        """Ctrl-C, then the same command: the page left open finds it on the same address."""
        url = self.url
        assert self.play.restart() == url

    # ---------------------------------------------------------------- the end

    def let_go(self) -> None:
        """The page closed and Ctrl-C pressed on the command, which ends meanwhile."""
        if self.follow is not None:
            self.follow.close()
        try:
            self.page.context.close()
        finally:
            self.play.ctrl_c()

    def stop(self) -> None:
        """The page closed and the command stopped, waited for."""
        self.let_go()
        self.play.wait_ended()


class Tables:
    """The ``obelisk play`` tables a module's selected tests use (``names`` of ``tables``,
    each ``(game, *args)``, in the order the tests use them): each opened when a test first
    asks for it, the next one's command started meanwhile, and those before it in the order
    stopped (no later test uses them)."""

    def __init__(self, browser: Any, tmp_path_factory: Any, tables: dict[str, tuple],
                 names: list[str]) -> None:
        self.browser, self.tables, self.names = browser, tables, names
        self.dirs = {name: tmp_path_factory.mktemp(name) for name in names}
        self.started: dict[str, Play] = {}
        self.opened: dict[str, PlayPage] = {}
        self.done: set[str] = set()
        self.ending: list[Play] = []  # told to stop, ending meanwhile

    def open(self, name: str) -> PlayPage:
        at = self.names.index(name)
        assert name not in self.done, f"{name} is stopped: the tests use the tables in order"
        for before in self.names[:at]:
            self._stop(before)
        if name not in self.opened:
            for ahead in self.names[at:at + 2]:
                if ahead not in self.started:
                    game, *args = self.tables[ahead]
                    self.started[ahead] = Play(game, self.dirs[ahead], *args).start()
            game, *args = self.tables[name]
            self.opened[name] = PlayPage(self.browser, game, self.dirs[name], *args,
                                         play=self.started.pop(name))
        return self.opened[name]

    def _stop(self, name: str) -> None:
        self.done.add(name)
        if name in self.opened:
            table = self.opened.pop(name)
            self.ending.append(table.play)
            table.let_go()
        if name in self.started:
            self.started.pop(name).stop()

    def close(self) -> None:
        try:
            for name in self.names:
                self._stop(name)
        finally:  # each command ends, whatever failed
            for play in self.started.values():
                play.stop()
            for play in self.ending:
                play.wait_ended()


def high_rise_started(table: PlayPage) -> None:
    """Covers on every square (one act), then a press on A starts the game."""
    follow = table.follow
    table.act({"act": "setup"})
    follow.until(lambda: "press a player button" in follow.problem, 60, "the covers seen")
    pressed_until_started(table, "High Rise")


def pressed_until_started(table: PlayPage, game: str) -> None:
    """A press on A starts the game. A press counts for the reading the table settles on:
    if the load cells or switches still moved, a person presses again."""
    follow = table.follow
    for _ in range(30):
        table.act({"act": "press", "seat": "A"})
        try:
            follow.until(lambda: any(e["event"] == "start" for e in follow.events), 2.0,
                         "the start")
            return
        except AssertionError:
            continue
    raise AssertionError(f"{game} did not start; problem {follow.problem!r}")


def high_rise_places(table: PlayPage, square: str, size: str = "small") -> None:
    """The player to move puts a pyramid on ``square``; the table weighs and accepts it."""
    follow = table.follow
    before = follow.accepted()
    seat = follow.obs["to_play"]
    table.act({"act": "set", "seat": seat, "square": square, "size": size})
    follow.until(lambda: follow.accepted() > before, 60, f"{seat}'s pyramid on {square}")


def moves_shown(table: PlayPage, n: int) -> None:
    table.page.wait_for_function("(n) => document.querySelectorAll('#moves li').length === n",
                                 arg=n, timeout=30_000)


def high_rise_asked(table: PlayPage):
    """The computer's asked placement, as the table keeps it beside the journal."""
    kept = json.loads((table.dir / ASKED_FILE).read_text())
    return record.action_from_dict(kept["actions"][0])


LAID_OUT = """(strip) => [...document.querySelectorAll(
  `#lights [data-strip="${strip}"] [data-led]`)].map((led) => ({
    square: led.dataset.square || '', colour: led.dataset.colour,
    x: Number(led.getAttribute('cx')), y: Number(led.getAttribute('cy'))}))"""


def as_a_board(leds: list[dict], rows: int, cols: int) -> None:
    """Each light on its own square of a rows x cols board: a1 at the bottom left, columns
    left to right, rows bottom to top, none left over."""
    names = sorted(led["square"] for led in leds)
    assert names == sorted(square_name((r, c)) for r in range(rows) for c in range(cols)), names
    at = {led["square"]: (led["x"], led["y"]) for led in leds}
    for r in range(rows):
        for c in range(cols):
            x, y = at[square_name((r, c))]
            assert x == at[square_name((0, c))][0] and y == at[square_name((r, 0))][1]
            if c:
                assert x > at[square_name((r, c - 1))][0]
            if r:
                assert y < at[square_name((r - 1, c))][1]
