"""A person plays a whole towers game in the browser with the page's hands (issue 17).

`obelisk play towers` runs the simulated board, the service and the page;
the person clicks the hands panel for both seats: blocks from the pile onto
the zone pads, the passive player's take, each placement turned and lowered
at a chosen corner, flat towers' black blocks. Once they put the passive
player's block on the wrong tower: the page explains the refusal, and they
lift it off and put it right. They pause and resume with the menu button and
take a placement back with its owner's button (the table's own buttons, on
the page, until the page's controls come). The table learns everything
through its sensors, and the game ends with its outcome on the page.
"""

from __future__ import annotations

import signal
import subprocess

import pytest

from hardware.line_socket import ask
from tests.browser_support import LAPTOP, OBELISK, chromium
from tests.hands_person import Follow, lower_plan, plan

GAME_S = 600  # a whole game on a busy 2-core machine; about 2 minutes alone


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable)
        yield launched
        launched.close()


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
        page.wait_for_selector("#hands:not([hidden]) [data-press]")
        person = Person(page, tmp_path)
        follow = Follow(tmp_path)
        follow.start_game(lambda: person.press("A"))
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
                person.press(seat)
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

                person.press("menu")
                follow.until(lambda s=seen: pauses("paused", s), 30, "the pause")
                page.wait_for_function("() => document.body.textContent.toLowerCase()"
                                       ".includes('paused')", timeout=30_000)
                seen = len(follow.events)
                person.press("menu")
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
        page.screenshot(path=str(tmp_path / "hands-end.png"), full_page=True)
    finally:
        if follow is not None:
            follow.close()
        play.send_signal(signal.SIGINT)
        code = play.wait(30)
    errors = play.stderr.read()
    assert code == 130 and "Traceback" not in errors, errors
