"""One board and what the turn asks in reach, on a phone (issue 48, points 1 and 2, towers).

A person plays a whole towers game at 390x844, at 360x640 and on a laptop, alone against the
computer and two-handed, touching only what is on the screen: the PIN's form and the table's
buttons in the bar fixed at the bottom, and on the drawing the pile (a block of a colour),
the zone's pads (set a block down, take one), the hand (turn its block) and the rods (the held
block's corner lowered there). Before each tap the element's box must lie inside the
viewport and be what a finger there would touch; the page never scrolls. To keep a game
short each placement goes as high as it can, so a tower goes over the top within a few
turns (which ends the game). On the way: a lit place on the drawing, no separate grid of
lights, a player's ring around their card, the turn line at two lines at most in the bar,
the held block drawn in its hand with its corner marked, and a block the computer asks for
on a tower with the rod of its corner marked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.towers.tower import LEVELS, drop, heights_of
from firmware.towers.sets import load_block_set
from tests.support.browser import SMALL
from tests.support.finger import Finger, ended, two_lines_at_most, walking, walks
from tests.support.person import Follow, Person
from tests.support.pictures import Pictures

pytestmark = [pytest.mark.browser, pytest.mark.processes]

SEATS = "AB"
STEP_S = 60
"""The table taking one act's result, on a busy 2-core machine."""


def _rod(x: int, y: int) -> str:
    return f"{'abc'[x]}{y + 1}"


def _heights(look: dict, tower: int) -> list[int]:
    return heights_of([tuple(c) for p in look["towers"][tower] for c in p["at"]])


def _high_spot(look: dict, block: str, tower: int) -> tuple[int, tuple[int, int], bool]:
    """(orientation, corner, seen) of the highest rest for a block: the tower goes over the
    top soon, and the game ends. ``seen``: some cube stands on the rods (the rods see it)."""
    heights = _heights(look, tower)
    best = None
    for turn, shape in enumerate(load_block_set()[block].orientations):
        span_x = max(c[0] for c in shape) + 1
        span_y = max(c[1] for c in shape) + 1
        for y in range(4 - span_y):
            for x in range(4 - span_x):
                rest = drop(heights, shape, (x, y))
                seen = min(c[2] for c in rest) < LEVELS
                key = (seen, max(c[2] for c in rest), -turn)
                if best is None or key > best[0]:
                    best = (key, turn, (x, y), seen)
    return best[1], best[2], best[3]


def _spot_of(look: dict, block: str, tower: int, cells: list) -> tuple[int, tuple[int, int]] | None:
    """The orientation and corner that rest the block on ``cells`` (the computer's ask), or
    None: this block cannot."""
    heights = _heights(look, tower)
    wanted = {tuple(c) for c in cells}
    for turn, shape in enumerate(load_block_set()[block].orientations):
        for y in range(3):
            for x in range(3):
                try:
                    rest = drop(heights, shape, (x, y))
                except Exception:  # the block would stand off the tower there
                    continue
                if {tuple(c) for c in rest} == wanted:
                    return turn, (x, y)
    return None


class Walk:
    """A person at the towers page on a phone: the finger, the table's events, the hands."""

    def __init__(self, finger: Finger, follow: Follow, person: Person,
                 pictures: Pictures) -> None:
        self.finger, self.follow, self.person = finger, follow, person
        self.pictures = pictures
        self.seen_corner = False

    def look(self) -> dict:
        return self.person.look()

    def take_colour(self, colour: str) -> None:
        self.finger.act(f'[data-tap="pile-{colour}"]')
        self.finger.page.wait_for_selector("#drawing [data-held] .corner", timeout=30_000)

    def lower(self, seat: str, tower: int, turn: int, at: tuple[int, int], seen: bool) -> None:
        """Turn the held block to ``turn`` (the bar's button, or a tap on the hand), then tap
        the rod of its corner; a block wholly above the rods is told with the seat's button."""
        held = self.look()["held"][seat]
        turns = (turn - held["turn"]) % held["turns"]
        for i in range(turns):
            self.finger.act('[data-reach="turn"]' if i % 2 == 0 else '[data-tap="hand"]')
        before = self.follow.accepted()
        self.finger.act(f'[data-tap="rod-{SEATS[tower]}-{_rod(*at)}"]')
        if not seen:
            self.finger.act(f'[data-reach="press-{seat}"]')
        self.follow.until(lambda: self.follow.accepted() > before or self.follow.over
                          or self.follow.offer, STEP_S, f"the placement on tower {SEATS[tower]}")

    def place_high(self, seat: str, tower: int) -> None:
        block = self.look()["held"][seat]["id"]
        turn, at, seen = _high_spot(self.look(), block, tower)
        self.lower(seat, tower, turn, at, seen)

    def take_pad(self, pad: int) -> None:
        self.finger.act(f'[data-tap="pad-{pad + 1}"]')


def _asked(follow: Follow) -> list[dict]:
    """The computer's move asked since the last action was taken (its own first choice of
    two included: the ask before it still names the block already on its pad), as its
    marks."""
    def found():
        events = follow.events
        last = max([i for i, e in enumerate(events) if e["event"] in ("accepted", "takeback")],
                   default=0)
        asks = [e for e in events[last:] if e["event"] == "asked"]
        return asks[-1]["where"] if asks else None
    return follow.until(found, STEP_S, "the computer's move asked")


def _computer(walk: Walk, obs: dict) -> None:
    """Make the move the computer (player B) asks for, as the lit places show it."""
    where = _asked(walk.follow)
    zone = [m["zone"] for m in where if m.get("zone")]
    if obs["phase"] == "choose":
        while True:
            look = walk.look()
            wanted = list(zone)
            for b in look["pads"]:
                if b and b["colour"] in wanted:
                    wanted.remove(b["colour"])
            if not wanted or None not in look["pads"]:  # both on the pads: the choosing is
                # over once the table took both (one taken alone is not the computer's turn
                # over: its second choice comes, with no new ask)
                walk.follow.until(lambda: walk.follow.obs["phase"] != "choose"
                                  or walk.follow.over or walk.follow.offer, STEP_S,
                                  "the computer's two choices taken")
                return
            walk.take_colour(wanted[0])
            walk.take_pad(look["pads"].index(None))
    look = walk.look()
    mark = next(m for m in _asked(walk.follow) if m.get("tower"))
    tower = SEATS.index(mark["tower"])
    if look["held"]["B"] is None:
        if obs["phase"] == "bonus":
            walk.take_colour("black")
        else:  # the pad whose block rests there as asked (two reds may differ in shape)
            fits = [i for i, b in enumerate(look["pads"])
                    if b and _spot_of(look, b["id"], tower, mark["cells"])]
            assert fits, (f"no block on the pads rests on {mark['cells']} as the computer "
                          f"asks: the pads hold {look['pads']}")
            walk.take_pad(fits[0])
    walk.finger.page.wait_for_selector("#drawing [data-corner]", timeout=30_000)
    walk.seen_corner = True
    if walk.follow.accepted() >= 6:  # mid-game: the asked block's place lit, its corner drawn
        walk.pictures.draw(walk.finger.page)
    block = walk.look()["held"]["B"]["id"]
    turn, at = _spot_of(walk.look(), block, tower, mark["cells"]) or (0, (0, 0))
    walk.lower("B", tower, turn, at, min(c[2] for c in mark["cells"]) < LEVELS)


def _person(walk: Walk, obs: dict) -> None:
    """A move of the person's own: two colours on the pads, or a block taken and placed high."""
    look = walk.look()
    phase = obs["phase"]
    if phase == "choose":
        pile = [b["colour"] for b in look["pile"] if b["colour"] != "black"]
        walk.take_colour(pile[0])
        walk.take_pad(look["pads"].index(None))
        return
    seat = obs["to_move"][0] if phase != "bonus" else obs["bonus"][0]
    tower = SEATS.index(seat) if phase != "bonus" else 1 - SEATS.index(seat)
    if look["held"][seat] is None:
        if phase == "bonus":
            walk.take_colour("black")
        else:
            walk.take_pad(next(i for i, b in enumerate(look["pads"]) if b))
    walk.place_high(seat, tower)


def _start(walk: Walk) -> None:
    follow, finger = walk.follow, walk.finger
    follow.until(lambda: follow.state == "setup", 30, "the table in setup")
    assert finger.page.is_hidden("#lights"), "the lights drawn twice"
    for _ in range(30):
        finger.act('[data-reach="press-A"]')
        try:
            follow.until(lambda: follow.state == "play" and follow.obs
                         and follow.obs["phase"] == "choose", 1.0, "the game to start")
            return
        except AssertionError:
            continue
    raise AssertionError(f"the game did not start: {follow.problem!r}")


def _kind(cubes) -> frozenset:
    """The shape of a placement's cubes, moved to the tower's corner and its lowest level
    (as a block's ``orientations`` are)."""
    low = [min(c[i] for c in cubes) for i in range(3)]
    return frozenset(tuple(c[i] - low[i] for i in range(3)) for c in cubes)


def _offered(words: str) -> tuple[str, frozenset]:
    """The tower and cubes of a placement the table offers, read off its words ("place a
    green block on tower B at b1 level 10, a2 level 10; player A gets the other ...")."""
    tower, at = re.search(r"on tower ([AB]) at ([^;]*)", words).groups()
    return tower, frozenset(("abc".index(col), int(row) - 1, int(level) - 1)
                            for col, row, level in re.findall(r"([abc])(\d) level (\d+)", at))


def _pick(walk: Walk) -> None:
    """The table cannot tell which placement it saw: the chooser presses until the one the
    hand made is lit (that very one, else the one of its shape and height: above the rods
    the table offers one of each outcome), and holds it there, as a person who sees the
    block would."""
    follow, offer = walk.follow, walk.follow.offer
    assert offer is not None
    names, seat = offer["candidates"], offer["players"][0]
    look = walk.look()
    last = [(SEATS[t], p) for t in (0, 1) for p in look["towers"][t][-1:]]
    made = [(seat, frozenset(tuple(c) for c in p["at"])) for seat, p in last]
    offered = [_offered(words) for words in names]
    target = next((i for i, o in enumerate(offered) if o in made), None)
    if target is None:  # its block, turned and set elsewhere as high: the same outcome
        target = next((i for i, (tower, cubes) in enumerate(offered) for seat, p in last
                       if tower == seat and min(c[2] for c in cubes) == min(c[2] for c in p["at"])
                       and _kind(cubes) in load_block_set()[p["id"]].orientations), None)
    assert target is not None, f"the table offers {names}; the hand made {made}"
    # the buttons the offer waits for stand out in the bar, and only those
    page = walk.finger.page
    page.wait_for_selector(f'#reach-buttons [data-reach="hold-{seat}"].asked', timeout=30_000)
    standing = page.eval_on_selector_all("#reach-buttons button.asked",
                                         "(bs) => bs.map((b) => b.dataset.reach)")
    wanted = [f"hold-{seat}"] if len(names) == 1 else [f"press-{seat}", f"hold-{seat}"]
    assert sorted(standing) == sorted(wanted), standing
    while follow.offer is not None and follow.offer["pick"] != target:
        pick = follow.offer["pick"]
        walk.finger.act(f'[data-reach="press-{seat}"]')
        follow.until(lambda p=pick: follow.offer is None or follow.offer["pick"] != p,
                     STEP_S, "the next placement lit")
    walk.finger.act(f'[data-reach="hold-{seat}"]')


def _seen(tower: list[dict], cells: str) -> list:
    """A tower's blocks as the rods tell them: each block's shape and its cubes on the rods
    (none for a block wholly above them), in a set order."""
    blocks = load_block_set()
    return sorted((blocks[b["id"]].kind[1],
                   sorted(tuple(c) for c in b[cells] if c[2] < LEVELS)) for b in tower)


def _agree(walk: Walk) -> None:
    """Each tower as the table took it comes to be the tower the hands built, block for
    block and cube for cube on the rods: a wrong placement taken would later ask for a block
    that is not there. (A take and its placement are two events: the second may still be on
    its way.)"""
    follow = walk.follow
    seen: list[str] = []

    def agree() -> bool:
        if follow.offer is not None or follow.over is not None or follow.obs["phase"] == "over":
            return True
        look = walk.look()
        seen.clear()
        for t, seat in enumerate(SEATS):
            took = _seen(follow.obs["towers"][seat], "cells")
            built = _seen(look["towers"][t], "at")
            if took != built:
                seen.append(f"tower {seat}: the table took {took}, the hands built {built}")
        return not seen

    try:
        follow.until(agree, STEP_S, "the table's towers to be the hands' ones")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; {'; '.join(seen)}") from None


def _step(walk: Walk, solo: bool) -> None:
    follow = walk.follow
    obs = follow.obs
    if follow.offer is not None and follow.offer["kind"] == "choose":
        before = follow.accepted()
        _pick(walk)
        follow.until(lambda: follow.accepted() > before or follow.over, STEP_S,
                     "the placement held")
        _agree(walk)
        return
    computer = solo and (
        (obs["phase"] == "choose" and obs["active"] == "B")
        or (obs["phase"] in ("take", "place") and obs["to_move"][0] == "B")
        or (obs["phase"] == "bonus" and obs["bonus"][0] == "B"))
    # the page's hands are the seat whose turn it is (the turn's event reached the page)
    seat = obs["bonus"][0] if obs["phase"] == "bonus" else obs["to_move"][0]
    walk.finger.page.wait_for_selector(f'#hands [data-hands-of="{seat}"]', timeout=30_000)
    before = follow.accepted()
    if computer:
        _computer(walk, obs)
    else:
        _person(walk, obs)
    follow.until(lambda: follow.accepted() > before or follow.over or follow.offer, STEP_S,
                 "the table taking the move")
    _agree(walk)


def _walk(browser, state_dir: Path, viewport: dict, *flags: str) -> dict:
    """A whole towers game at ``viewport``, every act tapped: its end."""
    with walking(browser, "towers", state_dir, viewport, *flags) as (page, finger, follow):
        walk = Walk(finger, follow, Person(page, state_dir),
                    Pictures("towers", viewport, state_dir.parent))
        _start(walk)
        page.wait_for_selector("#players .card[data-ring]", timeout=30_000)  # a ring around it
        two_lines_at_most(page)
        lit = False
        while follow.over is None:
            if follow.obs["phase"] == "over":
                break
            lit = lit or page.locator("#drawing [data-lit]").count() > 0
            _step(walk, "--solo" in flags)
        over = ended(page, follow)
        assert lit, "no lit place drawn on the drawing"
        assert page.is_hidden("#lights"), "the lights drawn twice"
        assert walk.seen_corner or "--solo" not in flags, "the asked block's corner not drawn"
        return {**over, "moves": [e for e in follow.events if e["event"] == "accepted"]}


@pytest.mark.parametrize(("flags", "viewport"), walks("B"))
def test_a_whole_towers_game_is_played_by_tapping_only_what_is_on_the_screen(
        browser, tmp_path, viewport, flags):
    over = _walk(browser, tmp_path / "table", viewport, *flags)
    assert over["outcome"]["words"]
    moves = over["moves"]
    assert len(moves) >= 6 and {m["player"] for m in moves} == {"A", "B"}, moves


def test_on_a_small_phone_the_towers_drawing_has_room_and_its_places_a_finger(browser, tmp_path):
    """At 360x640 the towers' drawing got 190 px of the 640 between the header, the cards
    and the bar, and a rod was tapped on 17 x 10 px. A short screen keeps the header and
    the cards small, as the maze's does: the drawing has two fifths of the screen, and every place
    on it is at least 24 px across."""
    with walking(browser, "towers", tmp_path / "table", SMALL, "--solo", "B") as (
            page, finger, follow):
        walk = Walk(finger, follow, Person(page, tmp_path / "table"),
                    Pictures("towers", SMALL, tmp_path))
        _start(walk)
        walk.take_colour("red")  # a block in the hand: the rods are places to tap
        page.wait_for_selector('#drawing [data-tap="rod-A-b2"]', timeout=30_000)
        height = page.evaluate(
            "() => document.querySelector('#drawing svg').getBoundingClientRect().height")
        places = page.evaluate("""() => [...document.querySelectorAll('#drawing [data-tap]')]
            .map((e) => { const r = e.getBoundingClientRect();
                          return [e.dataset.tap, Math.round(r.width), Math.round(r.height)]; })""")
    assert height >= 0.4 * SMALL["height"], f"the drawing has {height:.0f} px of 640"
    small = [p for p in places if max(p[1], p[2]) < 24]
    assert not small and len(places) > 18, places
