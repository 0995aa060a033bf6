"""What a newcomer's trial of `obelisk play` still tripped on (issue 32's leftovers).

Each game was played two-handed and alone at a phone's width, stopped midway
with Ctrl-C and started again with the same command. Each test here opens the
page of a running `obelisk play` in Debian's chromium and checks one class of
snag on it: the moves so far after a restart, what the LEDs say put in words
too, the lights laid out as the table has them, the hands after a takeback,
and the words (blocks by colour, never an id; counts, the maze's roles). The acts go through
the hands' socket (the same acts the hands panel sends), so each test spends
its time on what the page shows. The towers tests share one table; each table's command
starts while the test before the one that opens it runs (``Tables``).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import signal
import subprocess
import tokenize
from pathlib import Path

import pytest

from engine.core import square_name
from engine.highrise import record
from firmware.service.solo import ASKED_FILE
from hardware.sim.line_socket import ask
from tests.ahead import wanted
from tests.browser_support import OBELISK, PHONE, interrupt, stop
from tests.hands_person import Follow, plan
from tests.test_browser_hands import Person


class Playing:
    """`obelisk play GAME` on a state directory with a page open on it at a phone's width;
    ``restart`` stops it with Ctrl-C and types the same command again, as a person does."""

    def __init__(self, browser, game: str, state_dir: Path, *args: str,
                 process: subprocess.Popen | None = None) -> None:
        """``process``: the command, started already (``Tables``)."""
        self.dir = state_dir
        self.command = play_command(game, state_dir, *args)
        self.process = process
        self.url = self._start() if process is None else self._said()
        self.page = browser.new_context(viewport=PHONE).new_page()
        self.page.goto(self.url)
        self.person = Person(self.page, state_dir)
        self.person.enter_pin()
        self.follow = Follow(state_dir)

    def _start(self) -> str:
        self.process = started(self.command)
        return self._said()

    def _said(self) -> str:
        """Where the page is, as the command says once it runs."""
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
        self.let_go()
        ended(self.process)

    def let_go(self) -> None:
        """The page closed and Ctrl-C pressed on the command, which ends meanwhile."""
        self.follow.close()
        try:
            self.page.context.close()
        finally:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)


def play_command(game: str, state_dir: Path, *args: str) -> list[str]:
    return [OBELISK, "play", game, "--port", "0", "--state-dir", str(state_dir), *args]


def started(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def ended(process: subprocess.Popen) -> None:
    """Wait for a command told to stop to end (``stop`` it if it will not)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(30)
    stop(process)


TABLES = {"restarted": ("highrise",), "high_rise_alone": ("highrise", "--solo", "B"),
          "towers": ("towers",), "counted": ("highrise",), "maze": ("maze",)}
"""The module's `obelisk play GAME ARGS...`, each a fixture of the same name, in the order
the tests use them."""


class Tables:
    """The tables the selected tests use (``names``, in ``TABLES``'s order): each opened (its
    page, the PIN) when a test first asks for it, the next one's command started meanwhile,
    and those before it in the order stopped (no later test uses them)."""

    def __init__(self, browser, tmp_path_factory, names: list[str]) -> None:
        self.browser, self.names = browser, names
        self.dirs = {name: tmp_path_factory.mktemp(name) for name in names}
        self.started: dict[str, subprocess.Popen] = {}
        self.opened: dict[str, Playing] = {}
        self.done: set[str] = set()
        self.ending: list[subprocess.Popen] = []  # told to stop, ending meanwhile

    def open(self, name: str) -> Playing:
        at = self.names.index(name)
        assert name not in self.done, f"{name} is stopped: the tests use the tables in order"
        for before in self.names[:at]:
            self._stop(before)
        if name not in self.opened:
            for ahead in self.names[at:at + 2]:
                if ahead not in self.started:
                    game, *args = TABLES[ahead]
                    self.started[ahead] = started(play_command(game, self.dirs[ahead], *args))
            game, *args = TABLES[name]
            process = self.started.pop(name)
            try:
                self.opened[name] = Playing(self.browser, game, self.dirs[name], *args,
                                            process=process)
            except BaseException:
                interrupt(process)
                raise
        return self.opened[name]

    def _stop(self, name: str) -> None:
        self.done.add(name)
        if name in self.opened:
            table = self.opened.pop(name)
            self.ending.append(table.process)
            table.let_go()
        if name in self.started:
            interrupt(self.started.pop(name))

    def close(self) -> None:
        try:
            for name in self.names:
                self._stop(name)
        finally:  # each command ends, whatever failed
            for process in self.started.values():
                interrupt(process)
            for process in self.ending:
                ended(process)


@pytest.fixture(scope="module")
def tables(request, browser, tmp_path_factory):
    opened = Tables(browser, tmp_path_factory, wanted(request, list(TABLES)))
    yield opened
    opened.close()


@pytest.fixture
def restarted(tables) -> Playing:
    """High Rise two-handed, for a test that restarts it."""
    return tables.open("restarted")


@pytest.fixture
def towers(tables) -> Playing:
    """Towers two-handed, shared by the towers tests (each goes on from the one before)."""
    return tables.open("towers")


@pytest.fixture
def counted(tables) -> Playing:
    """High Rise two-handed, for counting its first action."""
    return tables.open("counted")


@pytest.fixture
def maze(tables) -> Playing:
    return tables.open("maze")


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


def test_the_moves_so_far_come_back_when_obelisk_play_starts_again(restarted):
    """Ctrl-C and the same command resume the game from the journal: the page's moves list
    shows every move since the start again, on the page left open and on a reload."""
    table = restarted
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
    # "what happened" on the reloaded page goes back to the first move too, oldest last
    told = table.page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    placed = [line for line in told if any(f" {sq}" in line for sq in ("b2", "c3", "a1"))]
    assert [sq for line in placed for sq in ("a1", "c3", "b2") if f" {sq}" in line] \
        == ["a1", "c3", "b2"], told


# ---------------------------------------------------------------- 2, 3. the lights


@pytest.fixture(scope="module")
def high_rise_alone(tables):
    """High Rise against the computer (it plays B), started, with the computer's first
    pyramid asked of the person."""
    table = tables.open("high_rise_alone")
    _high_rise_started(table)
    follow = table.follow
    if follow.obs["to_play"] == "A":
        _high_rise_places(table, "b2")
    follow.until(lambda: any(e["event"] == "asked" for e in follow.events), 60,
                 "the computer's pyramid asked")
    return table


def _asked(table: Playing):
    """The computer's asked placement, as the table keeps it beside the journal."""
    kept = json.loads((table.dir / ASKED_FILE).read_text())
    return record.action_from_dict(kept["actions"][0])


def test_the_size_the_computers_ring_shows_is_said_in_words_beside_it(high_rise_alone):
    """High Rise alone: the computer's ring shows the size of the pyramid it asks for as a
    count of lights; the page says it in words beside the ring too (only the size: the turn
    line says the square, tests/test_browser_said_once.py)."""
    table = high_rise_alone
    place = _asked(table)
    said = table.page.wait_for_selector('#players [data-player="B"] .ring-says',
                                        timeout=30_000).text_content()
    size = place.size
    assert said == f"the ring shows a {size.label} pyramid ({size.value} " \
        f"pip{'s' if size.value > 1 else ''})", said


LAID_OUT = """(strip) => [...document.querySelectorAll(
  `#lights [data-strip="${strip}"] [data-led]`)].map((led) => ({
    square: led.dataset.square || '', colour: led.dataset.colour,
    x: Number(led.getAttribute('cx')), y: Number(led.getAttribute('cy'))}))"""


def _as_a_board(leds: list[dict], rows: int, cols: int) -> None:
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


def test_the_high_rise_lights_are_drawn_as_its_board_each_on_its_square(high_rise_alone):
    """High Rise's board LEDs are on the physical board's 8-wide strip; the page draws them as
    the game's 3x3 board, the computer's asked square lit on its own square."""
    table = high_rise_alone
    page = table.page
    page.wait_for_selector('#lights [data-strip="board"] [data-square]', timeout=30_000)
    leds = page.evaluate(LAID_OUT, "board")
    _as_a_board(leds, 3, 3)
    asked = square_name(_asked(table).square)
    lit = {led["square"] for led in leds if led["colour"] == "#a000ff"}  # palette.ASK
    assert lit == {asked}, (lit, asked)


def test_the_towers_rod_lights_are_drawn_as_the_rods_three_by_three(towers):
    """Each tower's nine rods have a light under them: the page draws them as the 3x3 rods
    seen from above, each named, not as a row of nine."""
    towers.page.wait_for_selector('#lights [data-strip="towerA"] [data-square]',
                                  timeout=30_000)
    for strip in ("towerA", "towerB"):
        _as_a_board(towers.page.evaluate(LAID_OUT, strip), 3, 3)


def _towers_until(table: Playing, phase: str) -> None:
    """The towers game started (once: the tests share the table), then played on as a
    person who plays legally and low until it is in ``phase``."""
    follow = table.follow
    if not any(e["event"] == "start" for e in follow.events):
        follow.start_game(lambda: table.act({"act": "press", "seat": "A"}))
    while follow.obs["phase"] != phase:
        before = follow.accepted()
        for act in plan(follow.obs, table.look()):
            table.act(act)
        follow.until(lambda b=before: follow.accepted() > b, 60, "the acts to count")


# ---------------------------------------------------------------- 4. the words

BLOCK_ID = re.compile(r"\b[KYRGB]\d+\b")
"""A block's id in the set file (G05, or R1): the table's data, never a person's words."""


def test_no_words_on_the_towers_page_name_a_block_by_its_id(towers):
    """Towers: the moves said "chose the blue block B01" and later "placed the blue block
    B02", while the hands panel held "the blue block B01". The wooden blocks carry no labels
    and the table tells a block by its colour and shape only: the moves, the turn, the
    drawing's facts, the hands panel and what happened name a block by its colour (and
    where it is), and the block the active player got is the colour the facts show held."""
    table = towers
    page, follow = table.page, table.follow
    _towers_until(table, "place")
    page.wait_for_function("(n) => document.querySelectorAll('#moves li').length >= n",
                           arg=follow.accepted(), timeout=30_000)
    for where in ("#moves", "#turn", "#facts", "#hands", "#log"):
        text = page.text_content(where)
        assert not BLOCK_ID.search(text), (where, text)
    titles = page.eval_on_selector_all("#hands [title], #facts [title]",
                                       "nodes => nodes.map((n) => n.title)")
    assert not [t for t in titles if BLOCK_ID.search(t)], titles
    moves = table.moves()
    assert any(re.search(r"chose an? (yellow|red|green|blue) block", m) for m in moves), moves
    got = re.search(r"got the (?:other )?(\w+ block)", " ".join(moves))
    assert got and got[1] in page.text_content("#facts"), (moves, page.text_content("#facts"))


# ---------------------------------------------------------------- 5. the hands after a takeback


HANDS_RODS = """() => [...document.querySelectorAll('#hands [data-tower][data-at]')].map((b) =>
  ({disabled: b.disabled, title: b.title || ''}))"""


def test_after_a_takeback_the_hands_say_where_the_block_is_and_why_a_rod_is_grey(towers):
    """Towers: the hands of whoever's turn it is lift the passive player's block off again
    and its owner takes it back; the turn goes back to the owner, whose hand is empty: the
    panel says who holds the block and offers to act with that hand, and every rod greyed
    out says why, in its title and in a line under the towers."""
    table = towers
    page, follow = table.page, table.follow
    _towers_until(table, "place")
    active = follow.obs["active"]
    passive = "B" if active == "A" else "A"
    block = follow.obs["towers"][passive][-1]["id"]
    colour = follow.obs["towers"][passive][-1]["colour"]
    page.wait_for_selector(f'#hands [data-hands-of="{active}"]')  # the turn's hands
    table.act({"act": "lift", "seat": active, "tower": "AB".index(passive),
               "block": block})
    follow.until(lambda: follow.offer and follow.offer["kind"] == "takeback", 60,
                 "the takeback offered")
    # an offer to take it back, not a refusal: no red "Not allowed"
    offered = page.wait_for_selector("#problem.offered:not([hidden])", timeout=30_000)
    assert offered.text_content().split()[:4] == ["A", "piece", "came", "off"], \
        offered.text_content()
    # ...and "what happened" says it as the offer it is, not in red as a broken rule
    line = page.wait_for_selector("#log li:has-text('came off')", timeout=30_000)
    assert line.text_content().startswith("a piece came off: "), line.text_content()
    assert line.get_attribute("class") != "refused"
    table.act({"act": "press", "seat": passive})
    follow.until(lambda: any(e["event"] == "takeback" for e in follow.events), 60,
                 "the takeback")
    page.wait_for_selector(f'#hands [data-hands-of="{passive}"]', timeout=30_000)
    told = page.wait_for_selector(f'#hands [data-holder="{active}"]', timeout=30_000)
    said = told.text_content()
    assert f"holds the {colour} block" in said and block not in said, said
    rods = page.evaluate(HANDS_RODS)
    assert rods and all(rod["title"] for rod in rods if rod["disabled"]), rods
    why = page.text_content("#hands .hands-why")
    assert "empty" in why, why
    page.click(f'#hands [data-holder="{active}"] button')  # act with the hand that holds it
    page.wait_for_selector(f'#hands [data-hands-of="{active}"] ~ * [data-held="{block}"]',
                           timeout=30_000)


ROOT = Path(__file__).resolve().parent.parent
BRACKETED_S = re.compile(r"[a-z]\(s\)(?!\s*=>)")


def _words_in(path: Path) -> list[tuple[int, str]]:
    """The lines of a source file that may hold words a person reads: a Python module's
    strings, each line of a script or page (a call like ``f(s)`` is no word)."""
    text = path.read_text("utf-8")
    if path.suffix != ".py":
        return list(enumerate(text.splitlines(), 1))
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [(tok.start[0], tok.string) for tok in tokens if tok.type == tokenize.STRING]


def test_no_count_a_person_reads_is_written_with_an_s_in_brackets():
    """"1 action(s)": every count the table, the page, the terminal and the logs say is in
    its singular or its plural, never both at once."""
    sources = [p for layer in ("engine", "firmware", "hardware") for p in
               (ROOT / layer).rglob("*") if p.suffix in (".py", ".js", ".html")]
    found = [f"{p.relative_to(ROOT)}:{n}: {words.strip()}" for p in sources
             for n, words in _words_in(p) if BRACKETED_S.search(words)]
    assert not found, "\n".join(found)


def test_one_action_is_said_as_one_on_the_page_and_the_terminal(counted):
    """The page's status line and the terminal's words count one action as one."""
    from firmware.service.screen import headline

    assert headline({"event": "takeback", "undone": 1, "actions": 3, "why": "confirmed",
                     "observation": {}}) == "1 action taken back"
    assert "1 action played" in headline({
        "event": "table", "game": "stones", "state": "play", "actions": 1, "turn": None,
        "doing": "", "problem": "", "observation": {}, "options": {}, "players": {}})
    _high_rise_started(counted)
    _high_rise_places(counted, "b2")
    counted.page.wait_for_function(
        "() => document.getElementById('status').textContent === '1 action played'",
        timeout=30_000)


SEATS_SAID = re.compile(r"\bplayer [AB]\b", re.IGNORECASE)


def test_the_maze_names_its_roles_wherever_it_speaks_of_a_player(maze):
    """The maze's rules speak of the Architect and the Maze Master: so do its turn, what
    happened, the notices, the offer, the controls, the hands panel and the terminal, never
    of "player A" or "player B"."""
    from firmware.maze.screen import draw
    from firmware.service.screen import Screen

    table = maze
    page, follow = table.page, table.follow
    follow.until(lambda: follow.state in ("setup", "play"), 60, "the maze table")
    table.act({"act": "take", "seat": "A", "piece": "obelisk"})
    before = follow.accepted()
    table.act({"act": "put", "seat": "A", "square": "b2"})
    follow.until(lambda: follow.accepted() > before, 60, "the obelisk placed")
    for n, square in zip(range(2, 6), ("b5", "e5", "e2", "g7"), strict=True):
        before = follow.accepted()
        table.act({"act": "take", "seat": "B", "piece": f"segment {n}"})
        table.act({"act": "put", "seat": "B", "square": square})
        follow.until(lambda b=before: follow.accepted() > b, 60, f"segment {n}")
    table.act({"act": "stand", "square": "h1"})  # a wall: its facing is chosen
    follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                 "the wall's facing offered")
    page.wait_for_selector("#controls .ctl-choose", timeout=30_000)
    page.wait_for_selector("#offer:not([hidden])", timeout=30_000)
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length >= n",
                           arg=6, timeout=30_000)
    said = {where: page.inner_text(where) for where in
            ("#turn", "#offer", "#controls", "#log", "#hands", "#moves", "#players")}
    wrong = {where: SEATS_SAID.findall(text) for where, text in said.items()
             if SEATS_SAID.search(text)}
    assert not wrong, (wrong, said)
    assert "the maze master" in said["#controls"].lower() \
        and "the Maze Master" in said["#log"], said
    screen = Screen(draw)
    screen.show(next(e for e in follow.events if e["event"] == "table"))
    shown = screen.show({"event": "turn", "player": "B", "doing": "stand a wall"})
    assert "the Maze Master's turn: stand a wall" in shown, shown
