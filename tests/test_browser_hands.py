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
"""

from __future__ import annotations

import contextlib
import signal
import subprocess

from firmware.service.pin import read_pin
from hardware.sim.line_socket import ask
from tests.browser_support import LAPTOP, OBELISK, PHONE
from tests.hands_person import Follow, lower_plan, plan

GAME_S = 600  # a whole game on a busy 2-core machine; about 2 minutes alone


class Person:
    """Clicks the hands panel as the plan says, waiting for each act's answer."""

    def __init__(self, page, state_dir) -> None:
        self.page, self.dir = page, state_dir

    def look(self) -> dict:
        return ask(self.dir / "hands.sock", {"act": "look"})["table"]

    def _click(self, selector: str) -> None:
        acts = int(self.page.get_attribute("#hands", "data-acts") or 0)
        self.page.click(selector)
        self.page.wait_for_function(
            f"() => Number(document.getElementById('hands').dataset.acts || 0) > {acts}")

    def click(self, selector: str) -> None:
        """Click a hands panel button and wait for its act's answer."""
        self._click(selector)

    def enter_pin(self) -> None:
        """The person types the table PIN (`obelisk play` printed it) into the controls."""
        self.page.wait_for_selector("#pin")
        self.page.fill("#pin", read_pin(self.dir))
        self.page.click("#pin-enter")
        self.page.wait_for_selector('#controls[data-session="yes"]', timeout=30_000)
        self.page.wait_for_selector("#hands:not([hidden]) [data-press]", timeout=30_000)

    def control(self, name: str) -> None:
        """Press one of the page's controls once the table offers it."""
        self.page.click(f"#ctl-{name}", timeout=60_000)

    def seat(self, seat: str) -> None:
        self.page.click(f'[data-seat="{seat}"]')
        self.page.wait_for_selector(f'[data-seat="{seat}"][aria-pressed="true"]')

    def press(self, button: str, hold: bool = False) -> None:
        self._click(f'[data-press="{button}"]' + ("[data-hold]" if hold else
                                                   ":not([data-hold])"))

    def do(self, act: dict) -> None:
        if "seat" in act:
            self.seat(act["seat"])
        kind = act["act"]
        if kind == "take" and "pad" in act:
            self._click(f'[data-take-pad="{act["pad"]}"]')
        elif kind == "take":
            self._click(f'[data-block="{act["block"]}"]')
        elif kind == "set":
            self._click(f'[data-set-pad="{act["pad"]}"]')
        elif kind == "turn":
            self._click('[data-act="turn"]')
        elif kind == "lower":
            x, y = act["at"]
            self._click(f'[data-tower="{act["tower"]}"][data-at="{x},{y}"]')
        elif kind == "press":
            self.press(act["seat"])
        elif kind == "lift":
            self._click(f'[data-lift="{act["block"]}"]')
        else:
            raise AssertionError(f"no click for {act}")


def test_a_person_plays_a_whole_towers_game_with_the_pages_hands(browser, tmp_path):
    play = subprocess.Popen([OBELISK, "play", "towers", "--port", "0", "--state-dir",
                             str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    follow = None
    try:
        said = play.stdout.readline()
        assert "open http://" in said, play.stderr.read()
        url = said[said.index("http://"):].split()[0]
        page = browser.new_context(viewport=LAPTOP).new_page()
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
                person.press(follow.offer["players"][0], hold=True)
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
        assert refused and paused and taken_back
        assert follow.over["outcome"]
        ended = page.text_content("#turn")  # the result, and what comes next: no dead end
        assert follow.over["outcome"]["words"] in ended and "next game" in ended, ended
        page.screenshot(path=str(tmp_path / "hands-end.png"), full_page=True)
    finally:
        if follow is not None:
            follow.close()
        play.send_signal(signal.SIGINT)
        code = play.wait(30)
    errors = play.stderr.read()
    assert code == 130 and "Traceback" not in errors, errors


# ---------------------------------------------------------------------- the other games

OTHER_GAME_S = 120  # each game is about a minute on a busy 2-core machine


@contextlib.contextmanager
def _playing(browser, tmp_path, game: str, *flags: str, size=LAPTOP, ends: bool = True,
             init_script: str = ""):
    """`obelisk play GAME` and a page on it; stopped with Ctrl-C, which must end it quietly.
    ``ends``: the game is played to its end on the page; ``init_script`` runs in the page
    before its own scripts."""
    play = subprocess.Popen([OBELISK, "play", game, "--port", "0", "--state-dir",
                             str(tmp_path), *flags], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    follow = context = None
    try:
        said = play.stdout.readline()
        assert "open http://" in said, play.stderr.read()
        context = browser.new_context(viewport=size)
        page = context.new_page()
        if init_script:
            page.add_init_script(init_script)
        page.goto(said[said.index("http://"):].split()[0])
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
        play.send_signal(signal.SIGINT)
        code = play.wait(30)
    errors = play.stderr.read()
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


def _moved(person: Person, follow: Follow, frm: str, to: str, before: int) -> None:
    person.click(f'[data-hand-square="{frm}"]')
    person.click(f'[data-hand-square="{to}"]')
    follow.until(lambda: follow.accepted() > before or follow.over or follow.offer, 60,
                 f"the table taking {frm}-{to}")


def test_a_person_plays_a_whole_stones_game_with_the_pages_hands(browser, tmp_path):
    from engine.core import square_name
    from engine.stones.game import StonesGame, StonesOptions

    game = StonesGame(StonesOptions(rows=4, cols=4, ply_limit=8))
    with _playing(browser, tmp_path, "stones", "--size", "4x4", "--ply-limit", "8") as (
            person, follow):
        person.enter_pin()
        for square, stack in game.new_initial_state().stacks:  # set the stones out
            stone = stack[0]
            person.seat(stone.owner.value)
            person.click(f'[data-piece="{stone.owner.value} {stone.kind.value}"]')
            person.click(f'[data-hand-square="{square_name(square)}"]')
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
                person.click(f'[data-hand-square="{square_name(frm)}"]')
                person.click(f'[data-hand-square="{square_name(ahead)}"]')

                def back(frm=frm, ahead=ahead) -> None:
                    person.click(f'[data-hand-square="{square_name(ahead)}"]')
                    person.click(f'[data-hand-square="{square_name(frm)}"]')

                _refused_then_fixed(person, follow, "", back)
                refused = True
                continue
            # a move the switches see: onto an empty square, leaving its square empty
            move = next(m for m in pos.legal_actions() if m.to not in occupied
                        and all(s.owner is pos.to_play for s in pos.board[m.frm]))
            _moved(person, follow, square_name(move.frm), square_name(move.to),
                   follow.accepted())
        assert refused and follow.over["outcome"]


FIRST_PANEL = """
window.firstPanel = null;
new MutationObserver(() => {
  const squares = document.querySelectorAll("#hands [data-hand-square]");
  if (window.firstPanel === null && squares.length) {
    window.firstPanel = { squares: squares.length,
      heading: squares[0].closest("section").querySelector("h3").textContent };
  }
}).observe(document, { childList: true, subtree: true });
"""
"""Keeps what the hands panel showed the first time it drew a board, before any redraw."""


def test_the_stones_panel_has_the_games_size_from_its_first_frame(browser, tmp_path):
    """A 6x4 game on the simulated table's 8x8 switches: the panel's very first board has
    24 squares, not the switches' 64, both on entering the PIN and on a reload."""
    with _playing(browser, tmp_path, "stones", "--size", "6x4", ends=False,
                  init_script=FIRST_PANEL) as (person, _follow):
        person.enter_pin()
        for _opening in ("after the PIN", "on a reload"):
            person.page.wait_for_function("() => window.firstPanel !== null", timeout=30_000)
            first = person.page.evaluate("() => window.firstPanel")
            assert first["squares"] == 24 and "(6x4," in first["heading"], (_opening, first)
            person.page.reload()


def test_a_person_plays_a_whole_highrise_game_with_the_pages_hands(browser, tmp_path):
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
            person.click(f'[data-hand-square="{square["square"]}"]')
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
                person.click('[data-hand-square="a1"]')
                person.click('[data-hand-square="b1"]')

                def lift() -> None:
                    person.click('[data-mode="lift"]')
                    person.click('[data-hand-square="a1"]')
                    person.click('[data-mode="set"]')

                _refused_then_fixed(person, follow, "", lift)
                refused = True
                continue
            square = look["squares"][turn % len(look["squares"])]["square"]
            turn += 1
            person.click(f'[data-hand-square="{square}"]')
            follow.until(lambda b=before: follow.accepted() > b or follow.over, OTHER_GAME_S,
                         "the placement weighed")
        assert refused and follow.over["outcome"]


def test_a_person_plays_a_whole_maze_game_with_the_pages_hands(browser, tmp_path):
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
        person.click('[data-hand-square="b2"]')
        follow.until(lambda: follow.accepted() > before, 60, "the obelisk placed")
        person.seat("B")
        for n, square in zip(range(2, 6), ("b5", "e5", "e2", "g7"), strict=True):
            person.click(f'[data-piece="segment {n}"]')
            before = follow.accepted()
            person.click(f'[data-hand-square="{square}"]')
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
                    person.click('[data-hand-square="h1"]')
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
                person.click(f'[data-hand-square="{frm}"]')
                person.click(f'[data-hand-square="{wrong}"]')

                def back(frm=frm, wrong=wrong) -> None:
                    person.click(f'[data-hand-square="{wrong}"]')
                    person.click(f'[data-hand-square="{frm}"]')

                _refused_then_fixed(person, follow, "the obelisk cannot go", back)
                refused = True
                continue
            route = plan(pos).route
            to = route[0] if route else pos.legal_actions()[0].to
            if to in pos.segments:  # a claim: the switches cannot see it, the button says it
                person.click(f'[data-hand-square="{frm}"]')
                person.click(f'[data-hand-square="{square_name(to)}"]')
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
                _moved(person, follow, frm, square_name(to), before)
        assert refused and walled and follow.over["outcome"]
        assert any("claiming" in e["text"] for e in follow.events if e["event"] == "accepted")


def test_the_toy_game_plays_on_the_page_with_the_hands_panel_it_declares(browser, tmp_path,
                                                                        monkeypatch):
    """The tests' fifth game, named by ``OBELISK_GAMES`` alone: ``obelisk play`` starts its
    board, service and page, the hands panel its declaration defaults to puts the stones,
    and the game ends on the page (the page has no drawing for it: its words say it all)."""
    from pathlib import Path

    from tests.toy import GAME_ID

    root = Path(__file__).resolve().parent.parent
    monkeypatch.setenv("OBELISK_GAMES", "tests.toy")
    monkeypatch.setenv("PYTHONPATH", str(root))
    with _playing(browser, tmp_path, GAME_ID) as (person, follow):
        person.enter_pin()
        _start(person, follow)
        for n, (seat, square) in enumerate((("A", "a1"), ("B", "b1"), ("A", "a2"),
                                            ("B", "b2"), ("A", "a3"))):
            person.seat(seat)
            person.click(f'[data-piece="{seat} {n // 2 + 1}"]')
            person.click(f'[data-hand-square="{square}"]')
            follow.until(lambda n=n: follow.accepted() > n, 60, f"the table taking {square}")
        follow.until(lambda: follow.over, 30, "the end")
        assert follow.over["outcome"]["winner"] == "A"
