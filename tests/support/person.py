"""A person at the simulated towers table, for the hands tests: follows the table, plans acts.

``Follow`` reads the table's event stream on a thread and keeps what a
person sees (the observation, what is wrong, the end). ``plan`` gives the
next acts of a person who plays legally and low, from the observation and
the hands' ``look``: one short list of hand acts (or a button press) at a
time. The socket test sends them to ``hands.sock``; the browser test clicks
them on the page, as ``Person`` does.
"""

from __future__ import annotations

import threading
import time

from engine.towers.tower import LEVELS, drop, heights_of
from firmware.service.pin import read_pin
from firmware.service.stream import StreamError, read_events
from hardware.sim.line_socket import ask
from tests.support.patience import longer


class Follow:
    """The table's events as they come, on a thread; ``until`` waits on a condition."""

    def __init__(self, state_dir) -> None:
        self.dir = state_dir
        self.events: list[dict] = []
        self.obs: dict | None = None
        self.state = ""
        self.problem = ""
        self.offer: dict | None = None
        self.over: dict | None = None
        self._changed = threading.Condition()
        self._stop = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while not self._stop:
            try:
                for event in read_events(self.dir):
                    self._take(event)
            except StreamError:
                time.sleep(0.05)

    def _take(self, e: dict) -> None:
        with self._changed:
            self.events.append(e)
            kind = e["event"]
            if "observation" in e:
                self.obs = e["observation"]
            if kind == "table":
                self.state, self.problem = e["state"], e["problem"]
            elif kind == "setup":
                self.problem = e["problem"]
            elif kind in ("start", "resumed"):
                self.state = "play"
            elif kind == "refused":
                self.problem = e["message"]
            elif kind in ("repaired", "accepted"):
                self.problem = ""
                self.offer = None
            elif kind == "offer":
                self.offer = e
            elif kind == "game_over":
                self.over = e
                self.state = "over"
            self._changed.notify_all()

    def accepted(self) -> int:
        return sum(1 for e in self.events if e["event"] == "accepted")

    def until(self, check, timeout: float, what: str):
        timeout = longer(timeout)
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (got := check()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"waited {timeout:g} s for {what}; last events: "
                                         f"{[e['event'] for e in self.events[-6:]]}, problem "
                                         f"{self.problem!r}")
                self._changed.wait(min(left, 0.2))
            return got

    def start_game(self, press) -> None:
        """Press a player's button until the game starts (the table first settles its view
        of the cleared table, as a person sees the table light up before pressing again)."""
        self.until(lambda: self.state == "setup", 30, "the table waiting in setup")
        for _ in range(30):
            press()
            try:
                self.until(lambda: self.obs and self.obs["phase"] == "choose"
                           and self.state == "play", 1.0, "the game to start")
                return
            except AssertionError:
                continue
        raise AssertionError(f"the game did not start; problem {self.problem!r}")

    def close(self) -> None:
        self._stop = True


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
        """The person types the table PIN (`obelisk play` printed it) into the controls, and
        the hands show."""
        self.type_pin()
        self.pin_taken()

    def type_pin(self) -> None:
        self.page.wait_for_selector("#pin")
        self.page.fill("#pin", read_pin(self.dir))
        self.page.click("#pin-enter")

    def pin_taken(self) -> None:
        """Until the controls hold the session and the hands show (as the PIN is accepted);
        if not, what the page said of the PIN, and where it is."""
        try:
            self.page.wait_for_selector('#controls[data-session="yes"]', timeout=30_000)
        except Exception as exc:
            said = self.page.evaluate(
                "() => [location.href, document.getElementById('controls-said')?.textContent,"
                " document.getElementById('pin')?.value]")
            raise AssertionError(f"the PIN was not taken in 30 s: the page at {said[0]} said "
                                 f"{said[1]!r}, the PIN's field holds {said[2]!r}") from exc
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
        elif kind == "lower":  # the rod of the block's corner, tapped on the drawing
            x, y = act["at"]
            self._click(f'#drawing [data-tap="rod-{"AB"[act["tower"]]}-{"abc"[x]}{y + 1}"]')
        elif kind == "press":
            self.press(act["seat"])
        elif kind == "lift":
            self._click(f'[data-lift="{act["block"]}"]')
        else:
            raise AssertionError(f"no click for {act}")


def best_spot(look: dict, block: str, tower: int) -> tuple[int, tuple[int, int], bool]:
    """(orientation, corner, seen) of the lowest flattest rest for a block on a tower, as a
    person would pick it; seen is False when it rests wholly above the rods."""
    cells = [tuple(c) for p in look["towers"][tower] for c in p["at"]]
    heights = heights_of(cells)
    from firmware.towers.sets import load_block_set

    shapes = load_block_set()[block].orientations
    best = None
    for turn, shape in enumerate(shapes):
        span_x = max(c[0] for c in shape) + 1
        span_y = max(c[1] for c in shape) + 1
        for y in range(4 - span_y):
            for x in range(4 - span_x):
                rest = drop(heights, shape, (x, y))
                top = max(c[2] for c in rest)
                gaps = sum(heights_of([*cells, *rest])) - sum(heights) - len(rest)
                unseen = min(c[2] for c in rest) >= LEVELS  # no sensor would see it
                key = (unseen, top, gaps, turn, y, x)
                if best is None or key < best[0]:
                    best = (key, turn, (x, y))
    return best[1], best[2], not best[0][0]


def lower_plan(look: dict, seat: str, block: str, tower: int) -> list[dict]:
    """Turn the held block to the chosen orientation, then lower it at the chosen corner."""
    turn, corner, seen = best_spot(look, block, tower)
    held = look["held"][seat]
    turns = (turn - (held["turn"] if held else 0)) % len(load_shapes(block))
    told = [] if seen else [{"act": "press", "seat": seat}]  # the rods cannot see it: say so
    return [{"act": "turn", "seat": seat}] * turns + \
        [{"act": "lower", "seat": seat, "tower": tower, "at": list(corner)}] + told


def load_shapes(block: str):
    from firmware.towers.sets import load_block_set

    return load_block_set()[block].orientations


def plan(obs: dict, look: dict) -> list[dict]:
    """The next acts of a person playing legally: hand acts, or ``{"press": seat}``."""
    phase = obs["phase"]
    index = {"A": 0, "B": 1}
    if phase == "choose":
        active = obs["active"]
        pad = look["pads"].index(None)
        pile = [b for b in look["pile"] if b["colour"] != "black"]
        return [{"act": "take", "seat": active, "block": pile[0]["id"]},
                {"act": "set", "seat": active, "pad": pad}]
    if phase == "take":
        passive = "B" if obs["active"] == "A" else "A"
        pad = next(i for i, b in enumerate(look["pads"]) if b)
        block = look["pads"][pad]["id"]
        lifted = {**look, "held": {**look["held"], passive: None}}
        return [{"act": "take", "seat": passive, "pad": pad},
                *lower_plan(lifted, passive, block, index[passive])]
    if phase == "place":
        seat = obs["to_move"][0]
        pad = next(i for i, b in enumerate(look["pads"]) if b)
        block = look["pads"][pad]["id"]
        return [{"act": "take", "seat": seat, "pad": pad},
                *lower_plan(look, seat, block, index[seat])]
    if phase == "bonus":
        earner = obs["bonus"][0]
        victim = "B" if earner == "A" else "A"
        black = next(b["id"] for b in look["pile"] if b["colour"] == "black")
        return [{"act": "take", "seat": earner, "block": black},
                *lower_plan(look, earner, black, index[victim])]
    raise AssertionError(f"nothing to plan in phase {phase}")
