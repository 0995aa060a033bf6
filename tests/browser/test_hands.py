"""A person plays a whole towers game in the browser with the page's hands (issue 17).

`obelisk play towers` runs the simulated board, the service and the page;
the person clicks the hands panel for both seats: blocks from the pile onto
the zone pads, the passive player's take, each placement turned and lowered
at a chosen corner, flat towers' black blocks. Once they put the passive
player's block on the wrong tower: the page explains the refusal, and they
lift it off and put it right. They enter the table PIN (the hands need it
too), start with a press of the table's own button A on the page, and pause,
resume and confirm a takeback with the page's controls. The table learns
everything through its sensors, and the game ends with its outcome on the
page. Then a whole game of stones, High Rise and the maze, each with one
refused placement put right, and a guest's hands refused.

The whole games are played ahead, two at a time, each on a browser of its own
(``tests.support.ahead.Browsing``), from the module's first test on: a game mostly waits on its
clicks' answers and the table, not on the CPU. Each test checks its own game's end.
"""

from __future__ import annotations

import contextlib
import os
from functools import partial
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.ahead import browsing
from tests.support.browser import LAPTOP, PHONE, chromium
from tests.support.person import Follow, Person, lower_plan, plan
from tests.support.play import Play

pytestmark = pytest.mark.browser

GAME_S = 600  # a whole game on a busy 2-core machine; about 2 minutes alone


def _towers(browser, tmp_path: Path) -> dict:
    """The whole towers game, clicked; what the page showed at its end."""
    play = Play("towers", tmp_path, logs=tmp_path).start()
    follow = context = None
    try:
        url = play.url
        context = browser.new_context(viewport=LAPTOP)  # closed: the browser plays on
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#pin")  # a guest sees no hands: the PIN first
        assert page.is_hidden("#hands")
        person = Person(page, tmp_path)
        person.enter_pin()
        follow = Follow(tmp_path)
        follow.start_game(lambda: person.press("A"))  # the table's own button, on the page
        refused = paused = taken_back = False
        while follow.over is None:
            obs = follow.obs
            before = follow.accepted()
            if obs["phase"] == "over":  # the table tells the outcome next
                follow.until(lambda: follow.over, 30, "the end")
            elif follow.offer is not None and follow.offer["kind"] == "choose":
                offer = follow.offer
                person.press(offer["players"][0], hold=True)
                # the lit candidate played, or the choice offered again: never a hold unheard
                follow.until(lambda o=offer, b=before: follow.accepted() > b or follow.over
                             or follow.offer is not o, 60, "the hold on the offered choice")
            elif obs["phase"] == "take" and not refused:
                # The passive player's block on the active player's tower: refused
                passive = "B" if obs["active"] == "A" else "A"
                look = person.look()
                pad = next(i for i, b in enumerate(look["pads"]) if b)
                block = look["pads"][pad]["id"]
                wrong = {"A": 0, "B": 1}[obs["active"]]
                person.do({"act": "take", "seat": passive, "pad": pad})
                for act in lower_plan(person.look(), passive, block, wrong):
                    person.do(act)
                page.wait_for_selector("#problem:not([hidden])", timeout=30_000)
                explained = page.text_content("#problem-text")
                assert "chooses first" in explained, explained
                person.do({"act": "lift", "seat": passive, "block": block})
                page.wait_for_selector("#problem", state="hidden", timeout=30_000)
                for act in lower_plan(person.look(), passive, block, "AB".index(passive)):
                    person.do(act)
                refused = True
            elif obs["phase"] == "place" and refused and not taken_back:
                seat = obs["to_move"][0]
                for act in plan(obs, person.look()):
                    person.do(act)
                follow.until(lambda b=before: follow.accepted() > b, 60, "the placement")
                placed = follow.obs["towers"][seat][-1]["id"]
                person.do({"act": "lift", "seat": seat, "block": placed})
                follow.until(lambda: follow.offer and follow.offer["kind"] == "takeback", 60,
                             "the takeback offer")
                person.control(f"takeback-{seat}")  # the page's control, with the PIN
                follow.until(lambda: any(e["event"] == "takeback" for e in follow.events), 60,
                             "the takeback")
                again = follow.accepted()
                for act in lower_plan(person.look(), seat, placed, "AB".index(seat)):
                    person.do(act)
                follow.until(lambda a=again: follow.accepted() > a, 60, "the placement again")
                taken_back = True
                continue
            elif obs["phase"] == "choose" and taken_back and not paused:
                seen = len(follow.events)

                def pauses(kind: str, since: int) -> bool:
                    return any(e["event"] == "pause" and (e["state"] == "paused") == (
                        kind == "paused") for e in follow.events[since:])

                person.control("pause")
                follow.until(lambda s=seen: pauses("paused", s), 30, "the pause")
                page.wait_for_function("() => document.body.textContent.toLowerCase()"
                                       ".includes('paused')", timeout=30_000)
                seen = len(follow.events)
                person.control("resume")
                follow.until(lambda s=seen: pauses("resumed", s), 30, "the resume")
                paused = True
                continue
            else:
                for act in plan(obs, person.look()):
                    person.do(act)
            follow.until(lambda b=before: follow.accepted() > b or follow.over
                         or follow.offer, GAME_S, "the table accepting")
        page.wait_for_selector("#ending:not([hidden])", timeout=30_000)
        ended = page.text_content("#turn")  # the result, and what comes next: no dead end
        page.screenshot(path=str(tmp_path / "hands-end.png"), full_page=True)
    finally:
        if follow is not None:
            follow.close()
        if context is not None:
            context.close()
        play.ctrl_c()
        code = play.wait_ended(30)
    errors = play.err.read_text()
    assert code == 130 and "Traceback" not in errors, errors
    return {"refused": refused, "paused": paused, "taken_back": taken_back,
            "over": follow.over, "ended": ended}


# ---------------------------------------------------------------------- the other games

OTHER_GAME_S = 120  # each game is about a minute on a busy 2-core machine


@contextlib.contextmanager
def _playing(browser, tmp_path, game: str, *flags: str, size=LAPTOP, ends: bool = True,
             init_script: str = "", env: dict[str, str] | None = None):
    """`obelisk play GAME` and a page on it; stopped with Ctrl-C, which must end it quietly.
    ``ends``: the game is played to its end on the page; ``init_script`` runs in the page
    before its own scripts; ``env``: the command's environment (None: this process's)."""
    play = Play(game, tmp_path, *flags, env=env, logs=tmp_path).start()
    follow = context = None
    try:
        url = play.url
        context = browser.new_context(viewport=size)
        page = context.new_page()
        if init_script:
            page.add_init_script(init_script)
        page.goto(url)
        page.wait_for_selector("#pin")  # the hands show once the PIN is entered
        follow = Follow(tmp_path)
        yield Person(page, tmp_path), follow
        if ends:
            page.wait_for_selector("#ending:not([hidden])", timeout=30_000)
            page.screenshot(path=str(tmp_path / f"hands-{game}.png"), full_page=True)
    finally:
        if follow is not None:
            follow.close()
        if context is not None:
            context.close()
        play.ctrl_c()
        code = play.wait_ended(30)
    errors = play.err.read_text()
    assert code == 130 and "Traceback" not in errors, errors


def _start(person: Person, follow: Follow) -> None:
    """Press the table's button A (on the page) until the game starts."""
    follow.until(lambda: follow.state == "setup", 30, "the table waiting in setup")
    for _ in range(30):
        person.press("A")
        with contextlib.suppress(AssertionError):
            follow.until(lambda: follow.state == "play", 1.0, "the game to start")
            return
    raise AssertionError(f"the game did not start: {follow.problem!r}")


def _position(game, follow: Follow):
    """The engine's position after every accepted action, as the events named them."""
    state = game.new_initial_state()
    for e in follow.events:
        if e["event"] == "accepted":
            state = state.apply_action(state.string_to_action(e["action"]))
    return state


def _refused_then_fixed(person: Person, follow: Follow, words: str, undo) -> None:
    """The page explains what is wrong; the person puts it right and the problem goes."""
    person.page.wait_for_selector("#problem:not([hidden])", timeout=30_000)
    explained = person.page.text_content("#problem-text")
    assert explained.strip() and words in explained, explained
    undo()
    person.page.wait_for_selector("#problem", state="hidden", timeout=30_000)


SQUARE = '[data-hand-square="{}"]'
"""A square of the hands panel's board (High Rise)."""
TAPPED = '#drawing [data-tap="{}"]'
"""A square of the drawing, tapped: the one board of stones, the maze and High Rise (issue
48)."""


def _moved(person: Person, follow: Follow, frm: str, to: str, before: int,
           at: str = SQUARE) -> None:
    person.click(at.format(frm))
    person.click(at.format(to))
    follow.until(lambda: follow.accepted() > before or follow.over or follow.offer, 60,
                 f"the table taking {frm}-{to}")


def _stones(browser, tmp_path: Path) -> dict:
    """The whole stones game on 4x4, clicked, one move refused and put back."""
    from engine.core import square_name
    from engine.stones.game import StonesGame, StonesOptions

    game = StonesGame(StonesOptions(rows=4, cols=4, ply_limit=8))
    with _playing(browser, tmp_path, "stones", "--size", "4x4", "--ply-limit", "8",
                  ends=False) as (person, follow):  # it ends, then the next game is set up
        person.enter_pin()
        for square, stack in game.new_initial_state().stacks:  # set the stones out
            stone = stack[0]
            person.seat(stone.owner.value)
            person.click(f'[data-piece="{stone.owner.value} {stone.kind.value}"]')
            person.click(TAPPED.format(square_name(square)))
        _start(person, follow)
        refused = False
        while follow.over is None:
            pos = _position(game, follow)
            if pos.is_terminal():
                follow.until(lambda: follow.over, 30, "the end")
                break
            seat = pos.to_play.value
            person.seat(seat)
            occupied = {sq for sq, _ in pos.stacks}
            if not refused:  # a stone straight forward: the rules forbid it
                step = 1 if seat == "A" else -1
                frm, ahead = next((sq, (sq[0] + step, sq[1])) for sq, st in pos.stacks
                                  if st[0].owner is pos.to_play and len(st) == 1
                                  and 0 <= sq[0] + step < 4 and (sq[0] + step, sq[1])
                                  not in occupied)
                person.click(TAPPED.format(square_name(frm)))
                person.click(TAPPED.format(square_name(ahead)))

                def back(frm=frm, ahead=ahead) -> None:
                    person.click(TAPPED.format(square_name(ahead)))
                    person.click(TAPPED.format(square_name(frm)))

                _refused_then_fixed(person, follow, "", back)
                refused = True
                continue
            # a move the switches see: onto an empty square, leaving its square empty
            move = next(m for m in pos.legal_actions() if m.to not in occupied
                        and all(s.owner is pos.to_play for s in pos.board[m.frm]))
            _moved(person, follow, square_name(move.frm), square_name(move.to),
                   follow.accepted(), TAPPED)
        # the turn line says a player's button sets up the next game: the page's press does
        follow.until(lambda: follow.over, 30, "the end said")
        person.page.wait_for_selector("#ending:not([hidden])", timeout=30_000)
        ended = len(follow.events)
        person.press("A")
        follow.until(lambda: any(e["event"] == "table" and e["state"] == "setup"
                                 for e in follow.events[ended:]), 30,
                     "the next game set up by a press of A on the page")
        person.page.wait_for_function(  # and the page says what to do for it
            "() => /set the stones out/.test(document.getElementById('turn').textContent)",
            timeout=30_000)
    return {"refused": refused, "over": follow.over}


def _highrise(browser, tmp_path: Path) -> dict:
    """The whole High Rise game at a phone's size, clicked, after a guest's hands are
    refused; one leaning pyramid refused and lifted. Its squares are tapped on the drawing,
    the one board (issue 48)."""
    with _playing(browser, tmp_path, "highrise", size=PHONE) as (person, follow):
        # A guest moves nothing: the hands need the PIN's session too
        status, words = person.page.evaluate("""async () => {
            const r = await fetch('/hands', {method: 'POST', headers: {'Content-Type':
              'application/json'}, body: JSON.stringify({act: 'cover', square: 'a1'})});
            return [r.status, (await r.json()).error]; }""")
        assert status == 403 and "guests watch only" in words, words
        # nor looks: the hands' view holds each player's pyramids left, by size
        status, table = person.page.evaluate("""async () => {
            const r = await fetch('/hands'); return [r.status, (await r.json()).table]; }""")
        assert status == 403 and table is None
        assert person.page.is_hidden("#hands")
        assert not any(s["cover"] for s in person.look()["squares"])
        person.enter_pin()
        person.click('[data-mode="cover"]')
        for square in person.look()["squares"]:
            person.click(TAPPED.format(square["square"]))
        person.click('[data-mode="set"]')
        _start(person, follow)
        refused = False
        turn = 0
        while follow.over is None:
            obs = follow.obs
            if obs.get("to_play") is None:
                follow.until(lambda: follow.over, 60, "the reveal and the end")
                break
            seat = obs["to_play"]
            person.seat(seat)
            look = person.look()
            size = next(s for s in ("large", "medium", "small") if look["supply"][seat][s])
            person.click(f'[data-size="{size}"]')
            before = follow.accepted()
            if not refused:  # leaned across two squares: no pyramid weighs like that
                person.click('[data-mode="lean"]')
                person.click(TAPPED.format("a1"))
                person.click(TAPPED.format("b1"))

                def lift() -> None:
                    person.click('[data-mode="lift"]')
                    person.click(TAPPED.format("a1"))
                    person.click('[data-mode="set"]')

                _refused_then_fixed(person, follow, "", lift)
                refused = True
                continue
            square = look["squares"][turn % len(look["squares"])]["square"]
            turn += 1
            person.click(TAPPED.format(square))
            follow.until(lambda b=before: follow.accepted() > b or follow.over, OTHER_GAME_S,
                         "the placement weighed")
    return {"refused": refused, "over": follow.over}


def _maze(browser, tmp_path: Path) -> dict:
    """The whole maze game of 15 turns, clicked: a wall turned with the button, a claim
    picked with it, a knight's jump refused and put back."""
    from engine.core import square_name
    from engine.maze.game import MazeGame, MazeOptions
    from engine.maze.plan import plan

    game = MazeGame(MazeOptions(turns=15))
    with _playing(browser, tmp_path, "maze", "--turns", "15") as (person, follow):
        person.enter_pin()
        follow.until(lambda: follow.state in ("setup", "play"), 30, "the maze table")
        if follow.state == "setup":
            _start(person, follow)
        person.seat("A")
        person.click('[data-piece="obelisk"]')
        before = follow.accepted()
        person.click(TAPPED.format("b2"))
        follow.until(lambda: follow.accepted() > before, 60, "the obelisk placed")
        person.seat("B")
        for n, square in zip(range(2, 6), ("b5", "e5", "e2", "g7"), strict=True):
            person.click(f'[data-piece="segment {n}"]')
            before = follow.accepted()
            person.click(TAPPED.format(square))
            follow.until(lambda b=before: follow.accepted() > b, 60, f"segment {n}")
        refused = walled = False
        while follow.over is None:
            pos = _position(game, follow)
            if pos.is_terminal():
                follow.until(lambda: follow.over, 30, "the end")
                break
            before = follow.accepted()
            if pos.phase.value == "wall":
                person.seat("B")
                if walled:
                    person.press("B")  # the Maze Master passes
                else:  # a wall on h1, turned once with the button, then held
                    person.click('[data-mode="wall"]')
                    person.click(TAPPED.format("h1"))
                    person.click('[data-mode="move"]')
                    follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                                 "the wall's facing offered")
                    person.press("B")  # the next facing lights
                    person.press("B", hold=True)
                    walled = True
                follow.until(lambda b=before: follow.accepted() > b, 60, "the wall turn")
                continue
            person.seat("A")
            frm = square_name(pos.obelisk)
            if not refused:  # a knight's jump: no queen moves like that
                wrong = square_name((pos.obelisk[0] + 1, pos.obelisk[1] + 2))
                person.click(TAPPED.format(frm))
                person.click(TAPPED.format(wrong))

                def back(frm=frm, wrong=wrong) -> None:
                    person.click(TAPPED.format(wrong))
                    person.click(TAPPED.format(frm))

                _refused_then_fixed(person, follow, "the obelisk cannot go", back)
                refused = True
                continue
            route = plan(pos).route
            to = route[0] if route else pos.legal_actions()[0].to
            if to in pos.segments:  # a claim: the switches cannot see it, the button says it
                person.click(TAPPED.format(frm))
                person.click(TAPPED.format(square_name(to)))
                want = f"to {square_name(to)}"
                offer = follow.until(lambda b=before: follow.offer or follow.accepted() > b,
                                     60, "the claim offered")
                if follow.accepted() == before:  # press to light the next claim, hold on it
                    names = offer["candidates"]
                    target = next(i for i, words in enumerate(names) if want in words)
                    for _ in range((target - offer["pick"]) % len(names)):
                        person.press("A")
                    person.press("A", hold=True)
                follow.until(lambda b=before: follow.accepted() > b or follow.over, 60,
                             "the claim")
            else:
                _moved(person, follow, frm, square_name(to), before, TAPPED)
    return {"refused": refused, "walled": walled, "over": follow.over,
            "accepted": [e["text"] for e in follow.events if e["event"] == "accepted"]}


def _toy(browser, tmp_path: Path) -> dict:
    """The tests' fifth game, named by ``OBELISK_GAMES`` alone: ``obelisk play`` starts its
    board, service and page, the hands panel its declaration defaults to puts the stones,
    and the game ends on the page (the page has no drawing for it: its words say it all)."""
    from tests.support.toy import GAME_ID

    root = ROOT
    env = {**os.environ, "OBELISK_GAMES": "tests.support.toy", "PYTHONPATH": str(root)}
    with _playing(browser, tmp_path, GAME_ID, env=env) as (person, follow):
        person.enter_pin()
        _start(person, follow)
        for n, (seat, square) in enumerate((("A", "a1"), ("B", "b1"), ("A", "a2"),
                                            ("B", "b2"), ("A", "a3"))):
            person.seat(seat)
            person.click(f'[data-piece="{seat} {n // 2 + 1}"]')
            person.click(f'[data-hand-square="{square}"]')
            follow.until(lambda n=n: follow.accepted() > n, 60, f"the table taking {square}")
        follow.until(lambda: follow.over, 30, "the end")
    return {"over": follow.over}


# ---------------------------------------------------------------------- each game's end

PLAYS = {"towers_played": _towers, "highrise_played": _highrise, "maze_played": _maze,
         "stones_played": _stones, "toy_played": _toy}
"""Each whole game, as a fixture of the same name gives it; the longest first."""


@pytest.fixture(scope="module", autouse=True)
def whole_games(request, tmp_path_factory):
    """The whole games the module's selected tests check, played ahead (``Browsing``) from
    the module's first test, whichever it is."""
    executable = chromium()
    games = browsing(request, lambda name: partial(PLAYS[name], tmp_path=tmp_path_factory
                                                   .mktemp(name)), list(PLAYS), executable)
    yield games
    games.close()


@pytest.fixture
def towers_played(whole_games) -> dict:
    return whole_games.result("towers_played")


@pytest.fixture
def stones_played(whole_games) -> dict:
    return whole_games.result("stones_played")


@pytest.fixture
def highrise_played(whole_games) -> dict:
    return whole_games.result("highrise_played")


@pytest.fixture
def maze_played(whole_games) -> dict:
    return whole_games.result("maze_played")


@pytest.fixture
def toy_played(whole_games) -> dict:
    return whole_games.result("toy_played")


FIRST_PANEL = """
window.firstPanel = null;
new MutationObserver(() => {
  const squares = document.querySelectorAll("#drawing [data-tap]");
  if (window.firstPanel === null && squares.length) {
    window.firstPanel = { squares: squares.length,
      own: document.querySelectorAll("#hands [data-hand-square]").length };
  }
}).observe(document, { childList: true, subtree: true });
"""
"""Keeps the squares a person could tap the first time there were any, before any redraw:
the drawing's (the stones' one board, issue 48), and any of the hands panel's own."""


def test_the_stones_panel_has_the_games_size_from_its_first_frame(browser, tmp_path):
    """A 6x4 game on the simulated table's 8x8 switches: the very first board a person taps
    has 24 squares, not the switches' 64, both on entering the PIN and on a reload. (It was
    the hands panel's own board; the drawing is the one board now, and the panel has none.)"""
    with _playing(browser, tmp_path, "stones", "--size", "6x4", ends=False,
                  init_script=FIRST_PANEL) as (person, _follow):
        person.enter_pin()
        for _opening in ("after the PIN", "on a reload"):
            person.page.wait_for_function("() => window.firstPanel !== null", timeout=30_000)
            first = person.page.evaluate("() => window.firstPanel")
            assert first == {"squares": 24, "own": 0}, (_opening, first)
            person.page.reload()


def test_a_look_answered_after_an_act_does_not_undo_it_on_the_page(browser, tmp_path):
    """Under load, a tap on the drawing was lost now and then: the panel's look at the table
    (every 2 s, and after each event) was asked just before a stone was taken, and answered
    after the take's own answer, with the hand still empty; the tap on the square then put
    nothing down. Here a look is held until the stone is taken, then let through with the
    table as it stood before, and the next looks held: the tap still puts the stone down."""
    with _playing(browser, tmp_path, "stones", "--size", "4x4", ends=False) as (person, _):
        page = person.page
        person.enter_pin()
        held: list = []

        def hold_looks(route) -> None:
            if route.request.method == "GET":  # a look: its answer as the table is now
                held.append((route, route.fetch()))
            else:
                route.continue_()

        page.route("**/hands", hold_looks)
        with page.expect_request(lambda r: r.url.endswith("/hands") and r.method == "GET",
                                 timeout=30_000):
            pass  # the panel's next look, held
        looks = int(page.get_attribute("#hands", "data-looks") or 0)
        person.click('[data-piece="A corner"]')  # the stone taken into A's hand
        assert person.look()["held"]["A"], "the take did not reach the table"
        route, before = held[0]
        route.fulfill(response=before)  # the look asked before the take answers now
        page.wait_for_function(
            f"() => Number(document.getElementById('hands').dataset.looks || 0) > {looks}",
            timeout=30_000)
        person.click(TAPPED.format("a1"))  # the stone put down where it was tapped
        assert person.look()["squares"].get("a1"), "the tap on a1 put nothing down"
        page.unroute("**/hands")
        for route, answer in held[1:]:
            route.fulfill(response=answer)


@pytest.mark.processes
def test_a_person_plays_a_whole_towers_game_with_the_pages_hands(towers_played):
    played = towers_played
    assert played["refused"] and played["paused"] and played["taken_back"]
    assert played["over"]["outcome"]
    ended = played["ended"]  # the result, and what comes next: no dead end
    assert played["over"]["outcome"]["words"] in ended and "next game" in ended, ended


@pytest.mark.processes
def test_a_person_plays_a_whole_stones_game_with_the_pages_hands(stones_played):
    assert stones_played["refused"] and stones_played["over"]["outcome"]


def test_a_person_plays_a_whole_highrise_game_with_the_pages_hands(highrise_played):
    assert highrise_played["refused"] and highrise_played["over"]["outcome"]


def test_a_person_plays_a_whole_maze_game_with_the_pages_hands(maze_played):
    assert maze_played["refused"] and maze_played["walled"] and maze_played["over"]["outcome"]
    assert any("claiming" in text for text in maze_played["accepted"])


def test_the_toy_game_plays_on_the_page_with_the_hands_panel_it_declares(toy_played):
    """The tests' fifth game, named by ``OBELISK_GAMES`` alone (``_toy``)."""
    assert toy_played["over"]["outcome"]["winner"] == "A"
