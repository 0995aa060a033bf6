"""The words and pictures a newcomer met on `obelisk play`'s page (issue 32, point 8).

Each test opens the page of a running `obelisk play` in Debian's chromium, at a
phone's width (``tests.browser.test_played_pages.Playing``), and checks what a
person reads there: a towers block that looks the same every way it turns is
not "turned 1 of 1 ways"; and before the first stones game the drawing and
the hands panel show the board as the switches read it, and the moves list says
who did what.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import PHONE
from tests.support.hands import sim_table
from tests.support.page import PlayPage
from tests.support.web import Web

HELD = ".hands-held[data-held] p"


def _held_words(page, block: str) -> str:
    page.wait_for_selector(f'.hands-held[data-held="{block}"]', timeout=30_000)
    return page.text_content(HELD)


def test_a_block_the_same_every_way_it_turns_is_not_turned_1_of_1_ways(browser, tmp_path):
    """The towers hands say how a held block is turned, of how many ways; a block that looks
    the same whichever way it turns (G01, a single column) is said so, with no count."""
    table = PlayPage(browser, "towers", tmp_path)
    page = table.page
    try:
        page.click('#hands button[data-block="G01"]', timeout=30_000)
        said = _held_words(page, "G01")
        assert "1 of 1" not in said and "the same whichever way it turns" in said, said
        page.click('#hands button[data-act="back"]')
        page.click('#hands button[data-block="Y01"]', timeout=30_000)
        said = _held_words(page, "Y01")
        assert "turned 1 of 2 ways" in said, said
    finally:
        table.stop()


DRAWN = """() => Object.fromEntries([...document.querySelectorAll('#drawing [data-square]')]
  .filter((g) => g.dataset.stack).map((g) => [g.dataset.square, g.dataset.stack.split('|')])
  .sort())"""
"""The stacks the page's drawing shows, by square: the game as the table has it."""

DIFFERS = """() => [...document.querySelectorAll('#drawing [data-differs]')]
  .map((r) => r.dataset.differs)"""
"""The squares where the drawing shows the wooden board (the hands' view) differing from the
game: the stones' one board draws both (issue 48; the hands panel had a board of its own)."""


def _agree(page, table: PlayPage, want: dict, what: str) -> None:
    """The drawing, the wooden board it draws over it and the simulated switches all show
    ``want``."""
    want = dict(sorted(want.items()))
    page.wait_for_function(f"(want) => JSON.stringify(({DRAWN})()) === JSON.stringify(want)"
                           f" && !({DIFFERS})().length", arg=want, timeout=30_000)
    assert table.look()["squares"] == want, what


def test_stones_the_drawing_agrees_with_the_board_set_out_and_the_moves_say_who_did_what(
        browser, tmp_path):
    """Before the first game the drawing showed the stones on their start squares while
    the board (the hands panel, the switches) was empty: the drawing shows the stones as
    the table reads them while they are set out, and the start once they all are. Then
    the first move is listed as the terminal says it, after a restart too."""
    table = PlayPage(browser, "stones", tmp_path)
    page = table.page
    try:
        page.wait_for_selector("#drawing svg", timeout=30_000)
        _agree(page, table, {}, "an empty board")
        page.click('#hands button[data-piece="A corner"]')
        page.click('#drawing [data-tap="c1"]')
        _agree(page, table, {"c1": ["A corner"]}, "one stone set out")
        page.click('#hands button[data-act="setup"]')  # the rest set out
        start = {"c1": ["A corner"], "d1": ["A cap"], "d2": ["A key"], "a5": ["B key"],
                 "a6": ["B cap"], "b6": ["B corner"]}
        _agree(page, table, start, "the stones set out")
        _one_move_listed(table)
    finally:
        table.stop()


def _one_move_listed(table: PlayPage) -> None:
    """The game begun and player A's first move made: the moves list, live and on the page
    reloaded after `obelisk play` started again, and "what happened" there, say who did what
    as the terminal does."""
    follow, page = table.follow, table.page
    follow.until(lambda: "press a player button" in follow.problem, 30, "the stones seen")
    table.act({"act": "press", "seat": "A"})
    follow.until(lambda: any(e["event"] == "start" for e in follow.events), 30, "the start")
    table.act({"act": "lift", "seat": "A", "square": "c1"})
    table.act({"act": "put", "seat": "A", "square": "b2"})
    follow.until(lambda: follow.accepted() == 1, 30, "player A's first move")
    said = "player A moved the cornerstone c1-b2 (step)"
    page.wait_for_function("(said) => document.querySelector('#moves li')?.textContent === said",
                           arg=said, timeout=30_000)
    table.restart()  # Ctrl-C and the same command: "what happened" comes from the moves
    page.reload()
    page.wait_for_function("(said) => document.querySelector('#moves li')?.textContent === said",
                           arg=said, timeout=30_000)
    told = page.eval_on_selector_all("#log li", "items => items.map((i) => i.textContent)")
    assert said in told, told


# ------------------------------------------------ a fourth trial: the page's own words

@pytest.fixture(scope="module")
def scripts(browser, tmp_path_factory):
    """The page's scripts in chromium at a phone's width, served by `obelisk web` (no table
    needed): each test hands them what the table and its hands give (from the Python that
    makes it) and reads the words they make of it."""
    web = Web(tmp_path_factory.mktemp("scripts") / "state").start()
    page = browser.new_context(viewport=PHONE).new_page()
    try:
        page.goto(web.url)
        yield page
    finally:
        page.context.close()
        web.stop()


HELD_WORDS = """async ([module, table, seat, obs, name]) => {
  const hands = await import(`/static/${module}`);
  const drawn = hands.drawHands(table, seat, async () => {}, obs, name);
  const held = drawn.querySelector(".hands-held");
  return { said: held.firstChild.textContent, data: held.dataset.held,
    other: hands.holding(table, seat === "A" ? "B" : "A", obs) };
}"""
"""A hands panel drawn for ``seat``: what its hand holds, in words, and what the other does."""


def test_a_hand_names_what_it_holds_as_the_rules_name_the_pieces(scripts):
    """"The Architect holds obelisk", "Player A holds A key": the hands panel names each
    piece as the rules do, the obelisk with its article, a stone by its edition's name (a
    player's own "the keystone", the other's "player B's capstone"), a stack top first on
    what it stands on; the pieces' labels stay the panel's data."""
    from engine.stones.game import Edition, StonesGame, StonesOptions
    from firmware.maze.hands import MazeHands
    from firmware.stones.hands import StonesHands

    maze = MazeHands(sim_table("sim-maze"))
    for act in ({"act": "take", "seat": "A", "piece": "obelisk"},
                {"act": "put", "seat": "A", "square": "a1"},
                {"act": "take", "seat": "B", "piece": "segment 2"},
                {"act": "put", "seat": "B", "square": "a3"},
                {"act": "take", "seat": "B", "piece": "segment 3"}):
        maze.act(act)
    table = {"game": "maze", "page": "hands_maze.js", **maze.look()}
    got = scripts.evaluate(HELD_WORDS, ["hands_maze.js", table, "B", None, "the Maze Master"])
    assert got["said"].startswith("The Maze Master holds segment 3: click a square"), got
    maze.act({"act": "back", "seat": "B"})
    maze.act({"act": "lift", "seat": "A", "square": "a1"})
    table = {"game": "maze", "page": "hands_maze.js", **maze.look()}
    got = scripts.evaluate(HELD_WORDS, ["hands_maze.js", table, "A", None, "the Architect"])
    assert got["said"].startswith("The Architect holds the obelisk: click a square"), got
    maze.act({"act": "put", "seat": "A", "square": "a3"})  # onto segment 2: a claim
    maze.act({"act": "lift", "seat": "A", "square": "a3"})
    table = {"game": "maze", "page": "hands_maze.js", **maze.look()}
    got = scripts.evaluate(HELD_WORDS, ["hands_maze.js", table, "B", None, "the Maze Master"])
    assert got["other"] == "the obelisk on segment 2", got

    stones = StonesHands(sim_table("sim"))
    for act in ({"act": "take", "seat": "A", "piece": "A key"},
                {"act": "take", "seat": "B", "piece": "B cap"}):
        stones.act(act)
    for edition, key, cap in ((Edition.CLASSIC, "keystone", "capstone"),
                              (Edition.SECOND, "pedestal", "capstone")):
        obs = StonesGame(StonesOptions(edition=edition)).new_initial_state().observation()
        table = {"game": "stones", "page": "hands_stones.js", **stones.look()}
        got = scripts.evaluate(HELD_WORDS, ["hands_stones.js", table, "A", obs, "player A"])
        assert got["said"].startswith(f"Player A holds the {key}: click a square"), got
        assert got["data"] == "A key" and got["other"] == f"the {cap}", got
    stones.act({"act": "back", "seat": "A"})
    for act in ({"act": "take", "seat": "A", "piece": "A corner"},
                {"act": "put", "seat": "A", "square": "b2"},
                {"act": "take", "seat": "A", "piece": "A key"},
                {"act": "put", "seat": "A", "square": "b2"},
                {"act": "put", "seat": "B", "square": "b2"},  # B's capstone on A's foundation
                {"act": "lift", "seat": "A", "square": "b2"}):  # the foundation comes up whole
        stones.act(act)
    table = {"game": "stones", "page": "hands_stones.js", **stones.look()}
    got = scripts.evaluate(HELD_WORDS, ["hands_stones.js", table, "A", obs, "player A"])
    assert got["said"].startswith("Player A holds player B's capstone on the pedestal on the "
                                  "base: click"), got


def test_a_towers_block_the_same_every_way_offers_no_turn(scripts):
    """The "turn it" button of a block that looks the same whichever way it turns (G01)
    did nothing a person could see: it is greyed out, its title saying why, and a grey rod
    does not say to turn it; a block that turns (Y01) can still be turned."""
    from firmware.towers.hands import TowersHands

    hands = TowersHands(sim_table("sim"))
    hands.act({"act": "take", "seat": "A", "block": "G01"})
    hands.act({"act": "take", "seat": "B", "block": "Y01"})
    table = {"game": "towers", "page": "hands_towers.js", **hands.look()}
    turn = scripts.evaluate("""async ([table, seat]) => {
      const hands = await import("/static/hands_towers.js");
      const drawn = hands.drawHands(table, seat, async () => {}, null, `player ${seat}`);
      const turn = drawn.querySelector('button[data-act="turn"]');
      const rods = [...drawn.querySelectorAll("button[data-tower]")].filter((b) => b.disabled);
      return { disabled: turn.disabled, title: turn.title, rods: rods.map((b) => b.title) };
    }""", [table, "A"])
    assert turn["disabled"], turn
    assert turn["title"] == "the green block looks the same whichever way it turns", turn
    assert not any("turn it" in rod or "turned as it is" in rod for rod in turn["rods"]), turn
    turn = scripts.evaluate("""async ([table, seat]) => {
      const hands = await import("/static/hands_towers.js");
      const drawn = hands.drawHands(table, seat, async () => {}, null, `player ${seat}`);
      return { disabled: drawn.querySelector('button[data-act="turn"]').disabled };
    }""", [table, "B"])
    assert not turn["disabled"], turn


BLOCK_ID = re.compile(r"\b[KYRGB]\d\d\b")
"""A block's id in the set file (G05): no words a person reads name one."""

TOWERS_WORDS = """async ([table, seat, view]) => {
  const hands = await import("/static/hands_towers.js");
  const towers = await import("/static/towers.js");
  const drawn = hands.drawHands(table, seat, async () => {}, null, `player ${seat}`);
  const info = towers.info(view);
  const titles = [...drawn.querySelectorAll("[title]"), ...info.querySelectorAll("[title]")]
    .map((e) => e.title);
  const texts = (selector) => [...drawn.querySelectorAll(selector)].map((e) => e.textContent);
  return { hands: drawn.textContent, info: info.textContent, titles,
    tower: texts('[data-tower-of="A"] li'), fallen: texts("button[data-block]") };
}"""
"""The towers hands panel drawn for a seat and the game's facts beside the drawing: their
words, every title, each block listed on tower A and each button that takes a block."""


def test_the_towers_hands_and_facts_tell_blocks_by_colour_and_place_not_by_id(scripts):
    """The hands panel said "Player A holds the blue block B01" while the moves list had the
    block placed as B02: the wooden blocks carry no labels, and the table tells a block by
    its colour (the pads weigh it) and its shape. The panel and the facts name a block by
    its colour, and tell two of a colour apart by where they are: a block on a tower by its
    rods and level, one knocked off by its count, the pile by colour."""
    from engine.towers.actions import Choose, Take
    from engine.towers.game import TowersGame
    from firmware.towers.hands import TowersHands
    from firmware.towers.sets import load_block_set

    hands = TowersHands(sim_table("sim"))
    for act in ({"act": "take", "seat": "A", "block": "G01"},
                {"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]},
                {"act": "take", "seat": "A", "block": "G02"},  # the same shape, one level up
                {"act": "lower", "seat": "A", "tower": 0, "at": [0, 0]},
                {"act": "take", "seat": "B", "block": "B01"},
                {"act": "lower", "seat": "B", "tower": 1, "at": [0, 0]},
                {"act": "knock", "tower": 1},
                {"act": "take", "seat": "B", "block": "B03"},
                {"act": "lower", "seat": "B", "tower": 1, "at": [0, 0]},
                {"act": "knock", "tower": 1},  # two blue blocks lie on the table
                {"act": "take", "seat": "A", "block": "R01"},
                {"act": "set", "seat": "A", "pad": 0},
                {"act": "take", "seat": "B", "block": "Y01"}):
        hands.act(act)
    table = {"game": "towers", "page": "hands_towers.js", **hands.look()}
    pos = TowersGame(load_block_set()).new_initial_state()
    pos = pos.apply_action(pos.legal_actions()[0])  # the toss
    pos = pos.apply_action(Choose("B01")).apply_action(Choose("G01"))
    view = {"obs": pos.apply_action(Take("G01")).observation(), "players": None}
    got = scripts.evaluate(TOWERS_WORDS, [table, "B", view])
    said = [got["hands"], got["info"], *got["titles"]]
    assert not [w for w in said if BLOCK_ID.search(w)], said
    assert "Player B holds the yellow block" in got["hands"], got["hands"]
    assert "zone pad 1: red block" in got["hands"], got["hands"]
    assert got["tower"] == ["green block at a1, b1, a2, b2 (level 2) lift it off",
                            "green block at a1, b1, a2, b2 (level 1) lift it off"], got["tower"]
    knocked = [b for b in got["fallen"] if b.startswith("blue block")]
    assert len(knocked) == 2 and len(set(knocked)) == 2, got["fallen"]
    assert "green block" in got["info"] and "blue block" in got["info"], got["info"]


def test_an_hourglass_card_and_what_happened_round_its_seconds_alike(scripts):
    """A card showed "53 s stopped" beside "(52 s left)" in what happened: the card's
    seconds (app.js, through svg.js) and the terminal's and what happened's (screen.py)
    are the same whole seconds, rounded up."""
    from firmware.readers.terminal.screen import seconds_left

    lefts = [52.4, 52.0, 59.999, 0.4, 0.001, 0.0]
    card = scripts.evaluate("""async (lefts) => {
      const { secondsLeft } = await import("/static/svg.js");
      return lefts.map(secondsLeft);
    }""", lefts)
    assert card == [seconds_left(left) for left in lefts] == ["53 s", "52 s", "60 s", "1 s",
                                                             "1 s", "0 s"]


def test_the_maze_drawing_shows_no_segment_where_the_obelisk_claimed_one_and_moved_on(scripts):
    """A gold tile marked "3" stayed on g7 after the obelisk claimed the segment there and
    moved on, while the board as text showed g7 empty: where the obelisk claimed is drawn
    as a stop of its route, no piece; the segments drawn are those the position has."""
    from engine.core import parse_square
    from engine.maze.actions import Move, Pass, PlaceSegment
    from engine.maze.game import MazeGame

    pos = MazeGame().new_initial_state()
    seen = [pos.observation()]
    for action in (PlaceSegment(parse_square("b7")), PlaceSegment(parse_square("g7")),
                   PlaceSegment(parse_square("a1")), PlaceSegment(parse_square("h1")),
                   PlaceSegment(parse_square("h8")), Pass(), Move(parse_square("g7")), Pass(),
                   Move(parse_square("g2"))):
        pos = pos.apply_action(action)
        seen.append(pos.observation())
    assert "g7" not in seen[-1]["segments"] and seen[-1]["claimed"] == 2
    drawn = scripts.evaluate("""async (seen) => {
      const maze = await import("/static/maze.js");
      let trail = null;
      seen.forEach((obs, n) => { trail = maze.track(trail, n ? seen[n - 1] : null, obs, n); });
      const svg = maze.draw({ obs: seen[seen.length - 1], trail });
      const on = (square) => [...svg.querySelectorAll(`[data-square="${square}"]:not(.square)`)];
      return { g7: on("g7").map((el) => el.outerHTML).join(""),
        segments: [...svg.querySelectorAll(".segment")].map((el) => el.dataset.square).sort(),
        claims: [...svg.querySelectorAll(".claimed")].map((el) => el.dataset.square) };
    }""", seen)
    assert drawn["segments"] == sorted(seen[-1]["segments"]), drawn
    assert drawn["claims"] == ["b7", "g7"], drawn
    assert "<rect" not in drawn["g7"] and "<text" not in drawn["g7"], drawn["g7"]
    assert "route-dot" in drawn["g7"], drawn["g7"]


def test_the_stones_cards_say_nothing_of_symmetry_while_the_stones_are_set_out(scripts,
                                                                               tmp_path):
    """"symmetry: colour ✓, ..." before any stone was on the board: a card says
    nothing of symmetry while the stones are set out, and the start's once a game is
    under way."""
    from engine.stones.game import StonesGame
    from firmware.stones.table import StonesTable
    from firmware.store.journal import Journal

    table = StonesTable(StonesGame(), Journal(tmp_path), seed=1)
    table.start(0.0)
    lines = """async (obs) => {
      const stones = await import("/static/stones.js");
      return ["A", "B"].map((p) => stones.scoreLine(obs, p));
    }"""
    assert scripts.evaluate(lines, table.setup_seen(None)) == ["", ""]
    said = "symmetry: colour\N{NO-BREAK SPACE}✓, shape\N{NO-BREAK SPACE}\N{EN DASH}"
    assert scripts.evaluate(lines, table.position.observation()) == [said, said]  # (issue 48:
    # "shape" and its dash broke apart at the start of a line on a phone's card)
