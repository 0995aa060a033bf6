"""`obelisk play` as a new person meets it, at a phone's width (issue 32).

Each test opens the page of a running `obelisk play` in Debian's chromium and
checks one thing a person would otherwise stumble on: what the table waits
for is said in words, with who must act. The acts go through the hands'
socket (the same acts the hands panel sends) so that each test spends its
time on what the page shows.
"""

from __future__ import annotations

import pytest

from firmware.games import GAMES
from firmware.service.command_socket import send
from tests.support.browser import PHONE
from tests.support.page import PlayPage
from tests.support.person import plan
from tests.support.processes import until

PLAYED = ["towers", "stones", "highrise", "maze"]
"""The games the module plays, each with `obelisk play`."""


@pytest.fixture(scope="module")
def plays(browser, tmp_path_factory):
    """One `obelisk play` of each game for the whole module, all started side by side when
    first asked for: each test goes on from where the one before left that game."""
    started: dict[str, PlayPage] = {}

    def play(game: str) -> PlayPage:
        if not started:
            each = [(name, tmp_path_factory.mktemp(name)) for name in PLAYED]
            started.update(zip(PLAYED, PlayPage.side_by_side(browser, *each), strict=True))
        return started[game]

    yield play
    for played in started.values():
        played.stop()


@pytest.fixture(scope="module")
def towers(plays):
    played = plays("towers")
    played.follow.start_game(lambda: played.act({"act": "press", "seat": "A"}))
    return played


def test_every_placement_the_towers_table_waits_on_says_who_acts_and_what_the_rods_miss(
        towers):
    """Point 2: the page says who places which block; the button's use for a block resting
    wholly above the rods is said once a rod of that tower is full (not on an empty one)."""
    follow = towers.follow
    while follow.obs["phase"] != "place":
        before = follow.accepted()
        for act in plan(follow.obs, towers.act({"act": "look"})["table"]):
            towers.act(act)
        follow.until(lambda b=before: follow.accepted() > b, 60, "the acts to count")
    seat = follow.obs["to_move"][0]
    towers.page.wait_for_function(
        "() => /place .* on your tower/.test(document.getElementById('turn').textContent)",
        timeout=30_000)
    words = towers.turn_words()
    # who places what; the button's use for a block above the rods only once a rod is full
    assert words.startswith(f"player {seat}: place ") and "above the rods" not in words, words


def test_an_answer_of_the_controls_goes_once_the_game_has_moved_on(towers):
    """Point 8: a message that no longer holds does not stay; "play goes on" is said after
    a resume, and gone once the next action is played."""
    page, follow = towers.page, towers.follow
    towers.person.control("pause")
    page.wait_for_function("() => /paused/.test(document.getElementById('controls-said')"
                           ".textContent)", timeout=30_000)
    towers.person.control("resume")
    page.wait_for_function("() => /play goes on/.test(document.getElementById("
                           "'controls-said').textContent)", timeout=30_000)
    before = follow.accepted()
    for act in plan(follow.obs, towers.act({"act": "look"})["table"]):
        towers.act(act)
    follow.until(lambda: follow.accepted() > before, 60, "the next action")
    page.wait_for_function("() => document.getElementById('controls-said').textContent === ''",
                           timeout=30_000)


def test_the_page_shows_what_the_leds_show_in_their_colours(towers):
    """Point 3: the rings, the rods' and the zone pads' lights are on the page too, each LED
    in the colour the table shows it: the rods' and pads' on the drawing, where they are."""
    follow, page = towers.follow, towers.page
    told = follow.until(lambda: [e for e in follow.events if e["event"] == "lights"], 30,
                        "the LEDs told")[-1]
    page.wait_for_selector('[data-ring="A"] circle')
    strips = {(s["strip"], s["owner"]): s["colours"] for s in told["strips"]}
    assert {("ring", "A"), ("ring", "B"), ("tower", "A"), ("tower", "B"), ("zone", "")} \
        <= set(strips)
    shown = page.evaluate("""() => {
      const lights = {};
      for (const ring of document.querySelectorAll('[data-ring]')) {
        lights['ring' + ring.dataset.ring] = [...ring.querySelectorAll('circle')].length;
      }
      // the rods' and the pads' lights that are on, each on its rod or pad of the drawing
      // (the towers' one board, issue 48: no separate grid of lights)
      const on = (at) => [...document.querySelectorAll(`#drawing [data-lit^="${at}"]`)]
        .map((led) => led.dataset.colour).sort();
      Object.assign(lights, { towerA: on("A:"), towerB: on("B:"), zone: on("pad-") });
      // what a person sees: each light's colour as drawn (no policy may blank it)
      lights.drawn = [...document.querySelectorAll('#drawing [data-lit]')]
        .map((led) => [led.dataset.colour, getComputedStyle(led).fill]);
      lights.grid = !document.getElementById('lights').hidden;
      return lights;
    }""")
    last = [e for e in follow.events if e["event"] == "lights"][-1]  # it may have moved on
    now = {(s["strip"], s["owner"]): s["colours"] for s in last["strips"]}
    assert shown["ringA"] == len(now[("ring", "A")]) and shown["ringB"] == len(now[("ring", "B")])
    assert not shown["grid"], "the lights drawn twice"
    for key in (("tower", "A"), ("tower", "B"), ("zone", "")):
        assert shown["".join(key)] == sorted(c for c in now[key] if c != "#000000"), key

    def rgb(colour: str) -> str:
        colour = "#3a3a3a" if colour == "#000000" else colour  # an LED that is off, as drawn
        return "rgb({}, {}, {})".format(*(int(colour[k:k + 2], 16) for k in (1, 3, 5)))

    assert shown["drawn"] and all(fill == rgb(colour) for colour, fill in shown["drawn"]), \
        shown["drawn"]


@pytest.fixture(scope="module")
def highrise(plays):
    """The High Rise game of the module, its covers on and started with a press on A."""
    played = plays("highrise")
    follow = played.follow
    if not any(e["event"] == "start" for e in follow.events):
        for square in played.act({"act": "look"})["table"]["squares"]:
            played.act({"act": "cover", "square": square["square"]})
        follow.until(lambda: "press a player button" in follow.problem, 30, "the covers on")
        played.act({"act": "press", "seat": "A"})
        follow.until(lambda: any(e["event"] == "start" for e in follow.events), 30, "the start")
    return played


def test_high_rise_hands_act_for_the_mover_say_whose_they_are_and_the_board_stands(highrise):
    """Point 5: the hands are the mover's unless the person chooses, the panel says whose they
    are and warns when they are not the mover's, and the drawing shows the stacks standing."""
    played = highrise
    page, follow = played.page, played.follow
    mover = follow.obs["to_play"]
    other = "B" if mover == "A" else "A"
    page.wait_for_selector(f'#hands [data-hands-of="{mover}"]')
    page.wait_for_function(  # (the default hands are A's: the mover's once the turn is known)
        "() => /whose turn it is/.test(document.querySelector('#hands h2')?.textContent)",
        timeout=30_000)
    page.click('#drawing [data-tap="b2"]')  # the mover's pyramid, as the panel chose
    follow.until(lambda: follow.accepted() == 1, 60, "the placement weighed")
    page.wait_for_selector('#drawing [data-square="b2"][data-height="1"]')
    # now it is the other's turn: the hands follow it
    page.wait_for_selector(f'#hands [data-hands-of="{other}"]')
    page.click(f'[data-seat="{mover}"]')  # the person chooses the wrong hands
    warning = page.wait_for_selector(".hands-warning")
    assert f"player {other}'s turn" in warning.text_content()


OWN_COLOURS = {"A": "rgb(31, 95, 224)", "B": "rgb(212, 53, 127)"}  # style.css: --a and --b
DRAWN_STACKS = """() => Object.fromEntries([...document.querySelectorAll('#drawing .stack')]
  .map((stack) => [stack.dataset.square,
                   [...stack.querySelectorAll('.tier')].map((t) => getComputedStyle(t).fill)]))"""


def test_high_rise_draws_each_pyramid_in_its_owners_colour_and_says_where_it_went(highrise):
    """Issue 32: each pyramid of a stack is drawn in its owner's colour, bottom to top, as
    the pyramids on the table show it (never its size); the moves say the square."""
    played = highrise
    page, follow = played.page, played.follow
    placed: dict[str, list[str]] = {"c3": [], "a2": []}
    said = []
    for square in ("c3", "c3", "c3", "a2"):  # both players' pyramids on one stack
        seat = follow.obs["to_play"]
        supply = played.act({"act": "look"})["table"]["supply"][seat]
        size = next(s for s in ("small", "medium", "large") if supply[s])
        before = follow.accepted()
        played.act({"act": "set", "seat": seat, "square": square, "size": size})
        follow.until(lambda b=before: follow.accepted() > b, 60, f"{seat}'s pyramid on {square}")
        placed[square].append(seat)
        said.append(f"player {seat} placed a pyramid on {square}")
    assert set(placed["c3"]) == {"A", "B"}
    page.wait_for_selector('#drawing [data-square="c3"][data-height="3"]')
    page.wait_for_selector('#drawing [data-square="a2"][data-height="1"]')
    drawn = page.evaluate(DRAWN_STACKS)
    assert {square: drawn[square] for square in placed} == {
        square: [OWN_COLOURS[p] for p in seats] for square, seats in placed.items()}, drawn
    page.wait_for_function("(n) => document.querySelectorAll('#moves li').length >= n",
                           arg=follow.accepted(), timeout=30_000)
    moves = [li.text_content() for li in page.query_selector_all("#moves li")]
    assert moves[-4:] == said, moves
    assert not any(size in " ".join(moves) for size in ("small", "medium", "large")), moves
    bars = page.evaluate("""() => Object.fromEntries(['a', 'b'].map((p) => [p.toUpperCase(),
      getComputedStyle(document.querySelector('.highrise-info progress.player-' + p))
        .accentColor]))""")
    assert bars == OWN_COLOURS, bars  # the pieces left, in the seats' colours too


FITS = """() => {
  const drawing = document.getElementById('drawing').getBoundingClientRect();
  // (the stones act on the drawing itself, their one board: issue 48)
  const acts = document.querySelector('#hands [data-tower], #hands .hands-board button, '
    + '#drawing [data-tap]').getBoundingClientRect();
  return {wide: document.documentElement.scrollWidth, width: window.innerWidth,
          height: window.innerHeight, from: drawing.top, to: acts.bottom};
}"""


@pytest.mark.parametrize("game", PLAYED)
def test_every_games_page_fits_a_phone_with_its_board_and_hands_in_view(plays, game):
    """Point 4: at 360 to 414 px nothing scrolls sideways, and with the drawing at the top
    of the screen the hands that act on the board are in view below it (the pictures of
    the pages are drawn by the one-board walks, ``tests.support.pictures``)."""
    played = plays(game)
    page = played.page
    page.wait_for_selector("#hands [data-tower], #hands .hands-board button, #drawing [data-tap]")
    if game == "stones":  # the drawing shows what the switches read: the stones set out
        played.person.click('#hands [data-act="setup"]')
        page.wait_for_selector("#drawing .stone.player-b", timeout=30_000)
    for width in (360, 414):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        page.evaluate("() => window.scrollTo(0, document.getElementById('drawing')"
                      ".getBoundingClientRect().top + window.scrollY)")
        seen = page.evaluate(FITS)
        assert seen["wide"] <= seen["width"], f"{game} scrolls sideways at {width}: {seen}"
        assert seen["to"] - seen["from"] <= seen["height"], \
            f"{game}: the hands are out of view under the board at {width}: {seen}"
    if game == "stones":  # the stones as the set has them: A's black, B's white
        fills = page.evaluate("""() => ['a', 'b'].map((p) => getComputedStyle(
            document.querySelector('#drawing .stone.player-' + p)).fill)""")
        assert fills == ["rgb(34, 34, 34)", "rgb(244, 244, 244)"], fills


def test_one_click_sets_the_stones_out_and_one_press_on_a_starts_the_game(browser, tmp_path):
    """Point 7: no arm sweeps a simulated board, so one click clears it ("clear the table")
    and one click on "set it up for a new game" sets the stones out on their start squares,
    for the board the game is played on (5x5 here: the table's status says so); the table
    sees them through its sensors, says it is ready, and one press on button A starts."""
    played = PlayPage(browser, "stones", tmp_path, "--size", "5x5")
    page, follow = played.page, played.follow
    try:
        played.act({"act": "take", "seat": "A", "piece": "A cap"})
        played.act({"act": "put", "seat": "A", "square": "h8"})
        played.act({"act": "take", "seat": "B", "piece": "B key"})  # held
        played.person.click('#hands [data-act="clear"]')
        assert played.act({"act": "look"})["table"]["beside"] == [
            f"{seat} {kind}" for seat in "AB" for kind in ("corner", "key", "cap")]
        played.person.click('#hands [data-act="setup"]')
        ready = GAMES["stones"].table_class().READY
        until(lambda: send(tmp_path, {"command": "status"})["problem"] == ready, 60,
              "the table to see the stones set out")
        assert send(tmp_path, {"command": "status"})["state"] == "setup"
        played.person.press("A")  # once
        follow.until(lambda: follow.state == "play", 60, "the game to start")
        assert page.text_content("#hands-said") == ""
        assert played.act({"act": "look"})["table"]["squares"] == {
            "e1": ["A cap"], "d1": ["A corner"], "e2": ["A key"],
            "a5": ["B cap"], "b5": ["B corner"], "a4": ["B key"]}
    finally:
        played.stop()
