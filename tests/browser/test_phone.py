"""`obelisk play` on a phone, as a new person meets it (issue 32: point 4, more snags).

While a person plays with the hands at a phone's width (360 to 414 px, 640 to 844 tall)
nothing scrolls sideways, and whichever of the hands' controls a move needs the person
scrolls to, the board drawing is in view with it: they never scroll between the board and
the hands for a move (nor on a laptop), and the line saying whose turn it is and what to do
is in view with them. On a small phone (360 x 640) that band, a refusal shown in it, keeps
to 40 % of the screen's height, the refusal cut to a few lines a tap shows whole. The panel
shows as soon as the table PIN is accepted, not at the hands' next look, and goes when the
phone only watches again.

The maze's counter during its setup says what it counts (the segments set out
of the five, then those the obelisk has claimed) and what is left to do; no
label of the hands panel breaks inside a word at a phone's width (the 8x8
boards least of all), its full words still there for a screen reader; and the
towers' two views say what each is: the drawing the game as the table
accepted it, the panel the wooden set, and the drawing tells what the set
holds meanwhile when the two differ about the building zone or a hand.

The four games run side by side, one page each, for the whole module: the layout's tests
first, on the tables as they start.
"""

from __future__ import annotations

import pytest

from tests.support.browser import LAPTOP, PHONE
from tests.support.page import PlayPage
from tests.support.person import lower_plan, plan
from tests.support.play import Play

PLAYS = [("maze",), ("stones", "--size", "8x8"), ("highrise",), ("towers",)]
"""The `obelisk play GAME ARGS...` the module runs (the stones on the whole 8x8 board)."""

HELD = """
// The page's polls (every second or more) held until the test lets them go: until then
// only an answer of the page itself can show the hands panel.
window.pollsHeld = true;
const every = window.setInterval;
window.setInterval = (tick, ms, ...rest) => ms < 1000 ? every(tick, ms, ...rest)
  : every(() => { if (!window.pollsHeld) tick(); }, ms, ...rest);
"""

SMALL = {"width": 360, "height": 640}
"""A small phone's screen."""

SHOWN = "#hands:not([hidden]) [data-press]"
"""The hands panel, drawn."""


class Plays(dict):
    """The module's `obelisk play`, by game; ``shown``: for each game, whether its page drew
    the hands within 3 s of its PIN's acceptance, the hands' polls held."""

    shown: dict[str, bool]


@pytest.fixture(scope="module")
def plays(browser, tmp_path_factory):
    """The four games, their commands started at once, then their pages (the hands' polls
    held), every PIN typed before any is waited on; once each page has said whether its
    hands came with the PIN's answer, the polls go and each test goes on from where the one
    before left that game."""
    plays = [Play(game, tmp_path_factory.mktemp(game), *args).start() for game, *args in PLAYS]
    started: list[PlayPage] = []
    try:
        for play, (game, *args) in zip(plays, PLAYS, strict=True):
            started.append(PlayPage(browser, game, play.dir, *args, play=play, script=HELD,
                                    entered=False))
        for played in started:
            played.page.wait_for_selector('#controls[data-session="yes"]', timeout=30_000)
        games = Plays((key[0], played) for key, played in zip(PLAYS, started, strict=True))
        games.shown = {game: _within(played.page, SHOWN, "visible", 3)
                       for game, played in games.items()}
        for played in started:
            played.page.evaluate("() => { window.pollsHeld = false; }")
            played.entered()
        yield games
    finally:
        for played in started:
            played.stop()
        for play in plays:
            play.stop()


def _within(page, selector: str, state: str, seconds: float) -> bool:
    """Whether ``selector`` comes to ``state`` ("visible", "hidden") within ``seconds``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(selector, state=state, timeout=seconds * 1000)
    except PlaywrightTimeout:
        return False
    return True


# ---------------------------------------------------------------------- the hands' layout

MOVE = ('[data-block], [data-take-pad], [data-set-pad], [data-act="turn"], '
        "[data-tower][data-at], .hands-board button, [data-piece], [data-size], [data-press]")
"""The hands' controls a move needs: the towers' pile, zone pads, the block in hand and
both towers' rods; the square boards' squares and what is beside them; the table's
buttons."""

IN_VIEW = """(selector) => {
  // each control scrolled into view as a person scrolls down to it (it comes up from the
  // bottom of the screen): is it there to touch, and how much of the board is in view with it
  const seen = [];
  for (const control of document.querySelectorAll(selector)) {
    control.scrollIntoView({ block: "end" });
    const c = control.getBoundingClientRect();
    const board = document.querySelector("#drawing svg").getBoundingClientRect();
    const shown = Math.min(board.bottom, innerHeight) - Math.max(board.top, 0);
    const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    // and what the table asks now (whose turn, what to do) is read with it
    const said = document.querySelector("#turn").getBoundingClientRect();
    seen.push({ control: control.title || control.textContent.trim(),
      touch: c.top >= -1 && c.bottom <= innerHeight + 1 && control.contains(hit),
      turn: said.height > 0 && said.top >= -1 && said.bottom <= innerHeight + 1,
      said: document.querySelector("#turn").textContent,
      board: Math.max(0, shown) / board.height,
      wide: board.left >= -1 && board.right <= innerWidth + 1 });
  }
  return seen;
}"""


BAR_MEASURED = """() => {
  // the page has measured the bar at the screen's new size: its room below and what is
  // scrolled into view keep clear of the bar as it now stands (its buttons wrap anew)
  const bar = document.getElementById("reach");
  const room = getComputedStyle(document.documentElement).getPropertyValue("--reach-h");
  return bar.hidden || room.trim() === `${bar.offsetHeight}px`;
}"""


def test_the_hands_show_as_soon_as_the_pin_is_accepted(plays):
    """Not at the hands' next look (every 2 s, held here): the PIN's answer shows them."""
    for game, shown in plays.shown.items():
        assert shown, f"{game}: no hands panel 3 s after the PIN was accepted"


@pytest.mark.parametrize("viewport", [PHONE, SMALL,
                                      {"width": 1280, "height": 800}])
def test_the_board_is_in_view_with_each_control_of_the_hands(plays, viewport):
    """At 390 x 844 and 360 x 640 (and on a laptop's 1280 x 800), for each game, with a block
    in the towers' hand (its "turn it" and both towers' rods then at work): each control a
    move needs, scrolled to, is there to touch with the whole width of the board and most of
    its height in view, and the turn line with them; nothing scrolls sideways. (The block
    goes back to the pile after.)"""
    towers = plays["towers"]
    for played in plays.values():
        played.page.wait_for_selector(SHOWN, timeout=30_000)
    towers.person.click("#hands [data-block]")
    towers.page.wait_for_selector('#hands [data-act="turn"]')
    wrong = []
    try:
        for game, played in plays.items():
            page = played.page
            page.set_viewport_size(viewport)
            page.wait_for_function(BAR_MEASURED)
            wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            if wide[0] > wide[1]:
                wrong.append(f"{game} scrolls sideways: {wide}")
            for seen in page.evaluate(IN_VIEW, MOVE):
                if not seen["touch"] or seen["board"] < 0.6 or not seen["wide"] \
                        or not seen["turn"]:
                    wrong.append(f"{game}: {seen}")
            page.evaluate("() => window.scrollTo(0, 0)")
    finally:
        for played in plays.values():
            played.page.set_viewport_size(PHONE)
        towers.person.click('#hands [data-act="back"]')
    assert not wrong, f"at {viewport}: {len(wrong)} out of view, first {wrong[:30]}"


def test_after_an_act_what_the_hands_hold_comes_into_view_below_the_board(plays):
    """A block taken from the pile: the block now held and what turns it are in view. On
    the towers' one board (issue 48) the pile is tapped on the drawing, the held block is
    drawn there in its hand, and "turn the block" stands in the bar at the bottom: both in
    view at once, the page not scrolled. (The block goes back to the pile after, tapping
    the pile again.)"""
    towers = plays["towers"]
    page = towers.page
    page.set_viewport_size(PHONE)
    page.wait_for_selector(SHOWN, timeout=30_000)
    if page.query_selector("#hands [data-held]"):   # (a block in hand: set it on a pad first)
        towers.person.click("#hands [data-set-pad]")
        page.wait_for_selector("#hands:not([data-busy]) [data-block]")
    page.evaluate("() => window.scrollTo(0, 0)")
    towers.person.click('#drawing [data-tap="pile-blue"]')
    try:
        page.wait_for_selector("#drawing [data-held] .corner", timeout=30_000)
        page.wait_for_selector('#reach [data-reach="turn"]', timeout=30_000)
        seen = page.evaluate("""() => {
          const box = (at) => document.querySelector(at).getBoundingClientRect();
          const held = box("#drawing [data-held]");
          const turn = box('#reach [data-reach="turn"]');
          return { held: [held.top, held.bottom], turn: [turn.top, turn.bottom],
                   screen: innerHeight, scrolled: scrollY };
        }""")
    finally:
        towers.person.click('#drawing [data-tap="pile-blue"]')
    assert seen["scrolled"] == 0 and seen["held"][0] >= 0 and seen["held"][1] <= seen["screen"] \
        and seen["turn"][0] >= seen["held"][1] and seen["turn"][1] <= seen["screen"], seen


BAND = """() => {
  // the hands brought into view as the page brings them (below the band, scroll-padding-top):
  // how tall the band is, and whether the first of the hands' controls is there to touch
  // below it, with the refusal and the whole board drawing in the band
  document.getElementById("hands").scrollIntoView();
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const band = box("#board-view"), problem = box("#problem"), board = box("#drawing svg");
  const control = document.querySelector("#hands button");
  const c = control.getBoundingClientRect();
  const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
  const inside = (r) => r.height > 0 && r.top >= band.top - 1 && r.bottom <= band.bottom + 1;
  // (a one-board game's refusal stands in the bar at the bottom, in view there)
  const barred = document.querySelector("#reach:not([hidden]) #problem") !== null
    && problem.height > 0 && problem.top >= -1 && problem.bottom <= innerHeight + 1;
  return { band: Math.round(band.height), screen: innerHeight, board: Math.round(board.height),
    problem: inside(problem) || barred, drawing: inside(board),
    control: c.top >= band.bottom - 1 && c.bottom <= innerHeight + 1 && control.contains(hit) };
}"""
"""The band and the hands' first control as a person sees them once scrolled to the hands."""


def _refused_highrise(played: PlayPage) -> str:
    """The High Rise game started (covers on, a press on A) and a pyramid of the mover set
    across two squares, by mistake: the table refuses it; the refusal as the page shows it."""
    follow, page = played.follow, played.page
    if follow.state != "play":
        for square in played.act({"act": "look"})["table"]["squares"]:
            for _ in range(square["pyramids"]):
                played.act({"act": "lift", "square": square["square"]})
            if not square["cover"]:
                played.act({"act": "cover", "square": square["square"]})
        follow.until(lambda: "press a player button" in follow.problem, 30, "the covers on")
        played.act({"act": "press", "seat": "A"})
        follow.until(lambda: follow.state == "play", 30, "the start")
    mover = follow.obs["to_play"]
    played.act({"act": "lean", "seat": mover, "square": "a1", "other": "a2", "size": "small"})
    page.wait_for_selector("#problem:not([hidden])", timeout=30_000)
    return page.text_content("#problem-text")


def test_on_a_small_phone_the_band_with_a_refusal_leaves_the_hands_most_of_the_screen(plays):
    """At 360 x 640, the hands panel shown and a refusal on the page: the band kept at the
    top (turn line, refusal, board drawing) takes at most 40 % of the screen's height, with
    the whole drawing in it and the refusal in it or, on a game whose drawing is its one
    board, in view in the bar at the bottom; and the hands' first control, brought into
    view, is there to touch below it. The refusal's full words stay on the page: in the
    band (a tap shows them all where they are cut short) and in what happened."""
    played = plays["highrise"]
    page = played.page
    page.set_viewport_size(SMALL)
    try:
        said = _refused_highrise(played)
        seen = page.evaluate(BAND)
        page.click("#problem-text")  # cut short to a few lines: a tap shows it whole
        whole = page.evaluate("() => { const e = document.getElementById('problem');"
                              " return e.scrollHeight <= e.clientHeight + 1; }")
        logged = page.text_content("#log")
    finally:
        played.act({"act": "lift", "square": "a1"})  # the leaning pyramid off: play goes on
        gone = _within(page, "#problem", "hidden", 30)  # and the refusal with it, at this size
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
    assert "changed at once" in said, said
    assert seen["band"] <= 0.4 * seen["screen"] and seen["problem"] and seen["drawing"] \
        and seen["control"], f"at 360 x 640 with a refusal: {seen}"
    assert whole and said in logged, (whole, said, logged[:300])
    assert gone, "at 360 x 640 the refusal's box stays once what it refused is put right"


def _put(played: PlayPage, seat: str, piece: str, square: str) -> None:
    played.act({"act": "take", "seat": seat, "piece": piece})
    played.act({"act": "put", "seat": seat, "square": square})


def _facts_say(page, words: str) -> str:
    page.wait_for_function("(w) => document.getElementById('facts').textContent.includes(w)",
                           arg=words, timeout=30_000)
    return page.text_content("#facts")


# ---------------------------------------------------------------------- the maze's counter

def test_the_maze_counts_segments_set_out_in_its_setup_then_those_claimed(plays):
    """Not "claimed 1 of 2": during the setup, how many of the five segments are on the
    board and how many the Maze Master has still to place; in play, how many the obelisk
    has of the five and how many it has still to claim."""
    played = plays["maze"]
    page, follow = played.page, played.follow
    follow.until(lambda: follow.state in ("setup", "play"), 30, "the maze table")
    _put(played, "A", "obelisk", "b2")
    follow.until(lambda: follow.accepted() == 1, 60, "segment 1 placed")
    _put(played, "B", "segment 2", "e5")
    follow.until(lambda: follow.accepted() == 2, 60, "segment 2 placed")
    facts = _facts_say(page, "2 of 5 segments on the board")  # the page drew the second too
    assert "3 to place" in facts, facts
    architect = page.text_content("#players .card")
    assert "claimed" not in architect, architect  # nothing is claimed before the first turn
    for n, square in ((3, "g2"), (4, "c7"), (5, "h8")):
        _put(played, "B", f"segment {n}", square)
        follow.until(lambda n=n: follow.accepted() == n, 60, f"segment {n} placed")
    facts = _facts_say(page, "to claim")
    assert "the obelisk: 1 of 5 segments" in facts and "4 to claim" in facts, facts
    assert "1 of 5 segments" in page.text_content("#players .card")
    # the facts count the turn as the turn line does ("turn 1 of 20"), not "turn 0"
    assert "turn 1 of 20" in _facts_say(page, "turn 1 of") and "turn 0" not in facts


# ---------------------------------------------------------------------- labels that fit

BROKEN = """() => {
  // each word of each hands button's text as laid out: on one line, inside its button
  const bad = [];
  for (const button of document.querySelectorAll('#hands button')) {
    const box = button.getBoundingClientRect();
    const walk = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (!rects.length) continue; // not shown at this width
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        const out = rects.some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5);
        if (lines.size > 1 || out) {
          bad.push(`${button.textContent.trim()} (${word[0]}${out ? ': wider than it' : ''})`);
        }
      }
    }
  }
  return bad;
}"""
"""The hands buttons whose label breaks inside a word or spills out of the button."""


def _maze_pieces(played: PlayPage) -> tuple[str, str]:
    """The maze's pieces and a wall on the board (the setup test put them; again if alone)."""
    if not played.act({"act": "look"})["table"]["squares"]:
        _put(played, "A", "obelisk", "b2")
        played.follow.until(lambda: played.follow.accepted() == 1, 60, "the obelisk placed")
        _put(played, "B", "segment 2", "e5")
    played.act({"act": "stand", "square": "d4"})
    return "e5", "segment 2"


def _stones_pieces(played: PlayPage) -> tuple[str, str]:
    """A stack of three stones, and one alone."""
    for seat, piece in (("A", "A corner"), ("B", "B key"), ("A", "A cap")):
        _put(played, seat, piece, "a1")
    _put(played, "B", "B corner", "h8")
    return "a1", "A cap"


def _highrise_pieces(played: PlayPage) -> tuple[str, str]:
    for square in played.act({"act": "look"})["table"]["squares"]:
        played.act({"act": "cover", "square": square["square"]})
    played.act({"act": "set", "seat": "A", "square": "b2", "size": "large"})
    return "b2", "large"


PIECES = {"maze": _maze_pieces, "stones": _stones_pieces, "highrise": _highrise_pieces}


@pytest.mark.parametrize("game", ["maze", "stones", "highrise", "towers"])
def test_no_hands_label_breaks_inside_a_word_at_a_phones_width(plays, game):
    """Each label of the hands panel fits its button word by word (no "segm / ent 2") at
    360 to 414 px and on a laptop, with no sideways scroll; a square's full words stay in
    its title and what a screen reader says."""
    played = plays[game]
    page = played.page
    square, words = PIECES[game](played) if game in PIECES else (None, "")
    # the square's words: the hands panel's board, or the drawing itself on the one board of
    # stones, the maze and High Rise (issue 48), where a screen reader reads them off the
    # square a tap acts on
    at = ('#drawing [data-tap="{}"]' if game in ("stones", "maze", "highrise")
          else '#hands [data-hand-square="{}"]')
    if square:  # the panel shows them (it looks again every 2 s)
        page.wait_for_function("([at, words]) => { const b = document.querySelector(at);"
                               " return b && (b.getAttribute('aria-label') || b.title"
                               " || b.textContent).includes(words); }",
                               arg=[at.format(square), words], timeout=30_000)
    else:
        page.wait_for_selector("#hands [data-tower-of]")  # (the towers' rods: the drawing's)
    for width in (360, 390, 414, LAPTOP["width"]):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        broken = page.evaluate(BROKEN)
        assert not broken, f"{game} at {width} px: {broken}"
        wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"{game} scrolls sideways at {width} px: {wide}"
    page.set_viewport_size(PHONE)
    if square:
        said = page.get_attribute(at.format(square), "aria-label") or ""
        assert said.startswith(f"{square}: ") and words in said, said
        if game not in ("stones", "maze", "highrise"):  # (a square of the drawing: to a
            # screen reader)
            assert said == page.get_attribute(at.format(square), "title"), said
    page.evaluate("() => document.getElementById('hands').scrollIntoView()")
    page.screenshot(path=played.dir.parent / f"{game}-hands-phone.png")


# ---------------------------------------------------------------------- the towers' two views

def _set_now(page) -> str | None:
    """The drawing's line on what the wooden set holds meanwhile (None: it agrees)."""
    return page.evaluate("() => document.querySelector('#facts .on-the-set')?.textContent"
                         " ?? null")


def _until_set_now(page, check: str) -> str | None:
    """Wait until the drawing's line (``said``, null when there is none) passes ``check``, a
    JavaScript condition, and give it as it was then."""
    return page.wait_for_function(
        f"() => {{ const e = document.querySelector('#facts .on-the-set');"
        f" const said = e ? e.textContent : null; return ({check}) && {{ said }}; }}",
        timeout=30_000).json_value()["said"]


def test_the_towers_drawing_is_the_game_the_panel_the_wooden_set_and_it_tells_between(plays):
    """Each view says what it is; while the passive player holds a zone block the game has
    not yet counted taken, the drawing says so, and then that the other block still lies
    on its pad (the game gives it to the active player at once); once the active player
    holds it too, the two views agree and the line goes."""
    played = plays["towers"]
    page, follow = played.page, played.follow
    follow.start_game(lambda: played.act({"act": "press", "seat": "A"}))
    names = page.evaluate("""() => [document.getElementById('drawing-name')?.textContent ?? '',
      document.querySelector('#hands h2')?.textContent ?? '']""")
    assert "the game" in names[0].lower() and "wooden set" in names[1], names
    assert _set_now(page) is None
    while follow.obs["phase"] != "take":
        before = follow.accepted()
        for act in plan(follow.obs, played.act({"act": "look"})["table"]):
            played.act(act)
        follow.until(lambda b=before: follow.accepted() > b, 60, "the blocks in the zone")
    page.wait_for_function("() => document.querySelectorAll('#facts .pad .chip').length === 2",
                           timeout=30_000)
    active = follow.obs["active"]
    passive = "B" if active == "A" else "A"
    look = played.act({"act": "look"})["table"]
    taken, other = look["pads"][0], look["pads"][1]
    played.act({"act": "take", "seat": passive, "pad": 0})
    holds = f"player {passive} holds the {taken['colour']} block"
    said = _until_set_now(page, f"said !== null && said.includes('{holds}')")
    assert "zone pad 1: empty" in said, said
    assert len(page.query_selector_all("#facts .pad .chip")) == 2  # the game: both still there
    before = follow.accepted()
    for act in lower_plan(played.act({"act": "look"})["table"], passive, taken["id"],
                          "AB".index(passive)):
        played.act(act)
    follow.until(lambda: follow.accepted() > before, 60, "the passive player's placement")
    said = _until_set_now(page, "said !== null && !said.includes('holds')")
    assert f"zone pad 2: {other['colour']} block" in said and other["id"] not in said, said
    played.act({"act": "take", "seat": active, "pad": 1})
    assert _until_set_now(page, "said === null") is None
    page.evaluate("() => document.getElementById('drawing').scrollIntoView()")
    page.screenshot(path=played.dir.parent / "towers-two-views.png")


# ---------------------------------------------------------------------- only watching

def test_a_tap_on_the_hands_lands_though_the_table_moved_on_meanwhile(plays):
    """A finger down on a hands button while the table tells something that redraws the
    panel (another page's act, the table's look): the button was taken from under the
    finger and the tap did nothing. The panel waits for the finger to lift."""
    page = plays["stones"].page
    page.set_viewport_size(PHONE)
    page.locator('#hands [data-seat="B"]').wait_for()
    middle = page.evaluate("""() => {
      // scrolled to and measured in one go: the panel may be drawn again between two asks,
      // and a box asked of a button taken away is none
      const seat = document.querySelector('#hands [data-seat="B"]');
      seat.scrollIntoView({ block: "center" });
      const r = seat.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }""")
    page.mouse.move(middle["x"], middle["y"])
    page.mouse.down()
    with page.expect_response(lambda r: r.url.endswith("/hands") and r.request.method == "GET"):
        page.evaluate("""() => window.dispatchEvent(new CustomEvent("obelisk:event",
            { detail: { event: "repaired" } }))""")  # the hands look at the table again
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
    page.mouse.up()
    page.wait_for_selector('#hands [data-hands-of="B"]', timeout=10_000)  # the tap landed
    page.click('#hands [data-seat="turn"]')  # back to whoever's turn it is
    page.wait_for_selector('#hands [data-seat="turn"][aria-pressed="true"]')


def test_the_hands_go_when_the_phone_only_watches(plays):
    """"Only watch on this phone" ends its session: the hands panel goes with it (a guest
    moves nothing and sees no hands)."""
    page = plays["maze"].page
    page.wait_for_selector(SHOWN, timeout=30_000)
    page.click("#controls-leave")
    page.wait_for_selector('#controls[data-session="no"]', timeout=30_000)
    assert _within(page, "#hands", "hidden", 3), \
        "the hands panel stays 3 s after the phone only watches"

