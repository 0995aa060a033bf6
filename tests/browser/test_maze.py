"""The maze's page names and draws each segment by the number its wooden piece carries.

A newcomer playing `obelisk play maze` read "the Maze Master put a segment on
b5 (2 of 5 on the board)" in what happened and saw the segments drawn as blank
tiles, while the wooden segments on the table carry the numbers 2 to 5: the page
(in Debian's chromium, at a phone's width) says and draws each segment's number,
and where the obelisk claimed one, which. The words themselves are checked away
from a page in ``tests/maze/test_segments.py``.
"""

from __future__ import annotations

import re

import pytest

from tests.support.page import PlayPage

LAID = {"b5": 2, "e2": 3, "g7": 4, "h5": 5}
"""Where the Maze Master puts each segment, in order; from d4 only g7 is in line."""

LOG = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"

NUMBERS = """() => Object.fromEntries([...document.querySelectorAll('#drawing .segment-number')]
  .map((t) => [t.dataset.square, t.textContent]).sort())"""
"""The number drawn on each segment of the page's drawing, by square."""

CLAIMS = """() => Object.fromEntries([...document.querySelectorAll('#drawing .claimed')]
  .map((g) => [g.dataset.square, g.querySelector('title').textContent]))"""
"""What the drawing says, by square, where the obelisk went down and where it claimed."""


def _shown(page, script: str, want) -> None:
    """Wait until ``script`` reads ``want`` on the page (the assertion says what it read)."""
    try:
        page.wait_for_function(f"(want) => JSON.stringify(({script})()) === JSON.stringify(want)",
                               arg=want, timeout=30_000)
    except Exception as error:
        raise AssertionError(f"wanted {want}, the page shows {page.evaluate(script)}") from error


def _said(page, words: list[str]) -> None:
    """Wait until what happened holds each of ``words`` (in a line of its own)."""
    check = f"(words) => {{ const log = ({LOG})(); return words.every((w) => " \
            "log.some((line) => line.includes(w))); }"
    try:
        page.wait_for_function(check, arg=words, timeout=30_000)
    except Exception as error:
        raise AssertionError(f"wanted {words} in {page.evaluate(LOG)}") from error


def set_out(table: PlayPage, obelisk: str = "d4", laid: dict[str, int] | None = None) -> None:
    """The obelisk by the Architect's hands, then each segment where ``laid`` says (``LAID``
    unless given; in order: 2, 3, 4, 5) by the Maze Master's, each waited for until the
    table has it."""
    follow = table.follow
    follow.until(lambda: follow.state in ("setup", "play"), 60, "the maze table")
    table.act({"act": "take", "seat": "A", "piece": "obelisk"})
    table.act({"act": "put", "seat": "A", "square": obelisk})
    follow.until(lambda: follow.accepted() == 1, 60, "the obelisk placed")
    for n, (square, number) in enumerate((LAID if laid is None else laid).items(), start=2):
        table.act({"act": "take", "seat": "B", "piece": f"segment {number}"})
        table.act({"act": "put", "seat": "B", "square": square})
        follow.until(lambda n=n: follow.accepted() == n, 60, f"segment {number}")


def set_out_and_pass(table: PlayPage, obelisk: str = "d4",
                     laid: dict[str, int] | None = None) -> None:
    """``set_out``, then the Maze Master's pass: the Architect moves the obelisk next."""
    set_out(table, obelisk, laid)
    table.act({"act": "press", "seat": "B"})
    table.follow.until(lambda: table.follow.accepted() == 6, 60, "the pass")


def confirm_claim(table: PlayPage, accepted: int) -> None:
    """The claim the table offers, taken with the Architect's button held: ``accepted``
    actions played then."""
    follow = table.follow
    follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                 "the claim offered")
    table.act({"act": "press", "seat": "A", "hold": True})
    follow.until(lambda: follow.accepted() == accepted, 60, "the claim")


def test_what_happened_and_the_drawing_number_each_segment(browser, tmp_path):
    """Each segment put down is said and drawn with its number; the claim names the
    segment claimed, and the drawing keeps the others' numbers."""
    table = PlayPage(browser, "maze", tmp_path)
    page, follow = table.page, table.follow
    try:
        set_out(table)
        _said(page, [f"put segment {n} on {square}" for square, n in LAID.items()])
        _shown(page, NUMBERS, {square: str(n) for square, n in sorted(LAID.items())})

        table.act({"act": "press", "seat": "B"})   # the Maze Master passes
        follow.until(lambda: follow.accepted() == 6, 60, "the pass")
        table.act({"act": "lift", "seat": "A", "square": "d4"})
        table.act({"act": "put", "seat": "A", "square": "g7"})  # onto segment 4
        follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                     "the claim offered")
        table.act({"act": "press", "seat": "A", "hold": True})
        follow.until(lambda: follow.accepted() == 7, 60, "the claim")
        _said(page, ["moved the obelisk to g7, claiming segment 4"])
        _shown(page, NUMBERS, {"b5": "2", "e2": "3", "h5": "5"})
        claims = page.evaluate(CLAIMS)
        assert claims == {"d4": "the obelisk, segment 1, went down on d4",
                          "g7": "the obelisk claimed segment 4 on g7 (then 2 of 5 segments)"}, \
            claims
    finally:
        table.stop()


HANDS_OF = "() => document.querySelector('#hands [data-hands-of]')?.textContent || ''"


def test_the_hand_that_lifted_the_obelisk_for_a_claim_keeps_the_panel_until_it_is_down(
        browser, tmp_path):
    """The obelisk lifted off d4 with the Architect's hands is read as the claim on g7 (it
    may already stand on segment 4: the switches cannot tell), and the button takes it: the
    turn goes to the Maze Master while the obelisk is still in the Architect's hand. The
    panel following the turn went to the Maze Master's hands, and the next tap on g7
    lifted segment 4 off ("put the obelisk back"). The hands that hold it stay, saying why,
    until it is down; then the Maze Master's."""
    table = PlayPage(browser, "maze", tmp_path)
    page, follow = table.page, table.follow
    try:
        set_out_and_pass(table)
        table.act({"act": "lift", "seat": "A", "square": "d4"})  # in the hand, over g7
        confirm_claim(table, 7)
        page.wait_for_function(f"() => ({HANDS_OF})().includes('still in them')",
                               timeout=30_000)
        head = page.evaluate(HANDS_OF)
        assert head.startswith("The Architect's hands") and "the obelisk" in head, head
        assert "the Maze Master's turn" in head, head
        page.click('#drawing [data-tap="g7"]')  # the tap a person makes: it goes down
        page.wait_for_function(f"() => ({HANDS_OF})().includes('(whose turn it is)')",
                               timeout=30_000)
        assert page.evaluate(HANDS_OF).startswith("The Maze Master's hands")
        look = table.look()
        assert not look["held"]["A"] and not look["held"]["B"], look["held"]
        assert follow.state == "play", follow.problem  # nothing to put right
    finally:
        table.stop()


@pytest.fixture
def maze(browser, tmp_path):
    """The maze two-handed, before its game."""
    table = PlayPage(browser, "maze", tmp_path / "maze")
    yield table
    table.stop()


SEATS_SAID = re.compile(r"\bplayer [AB]\b", re.IGNORECASE)


def test_the_maze_names_its_roles_wherever_it_speaks_of_a_player(maze):
    """The maze's rules speak of the Architect and the Maze Master: so do its turn, what
    happened, the notices, the offer, the controls, the hands panel and the terminal, never
    of "player A" or "player B"."""
    from firmware.maze.screen import draw
    from firmware.readers.terminal.screen import Screen

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


LABEL = "(name) => document.querySelector(`#drawing [data-tap='${name}']`)" \
        ".getAttribute('aria-label')"


OFF = "() => document.querySelector('#facts .off-the-board')?.textContent || ''"


def _tap(table: PlayPage, square: str) -> dict:
    """A tap on a square of the drawing (the maze's one board, issue 48), waited for until the
    hands panel has drawn again."""
    page = table.page
    acts = page.evaluate("() => Number(document.getElementById('hands').dataset.acts || 0)")
    page.click(f"#drawing [data-tap='{square}']")
    page.wait_for_function(f"() => Number(document.getElementById('hands').dataset.acts || 0)"
                           f" > {acts} && !document.getElementById('hands').dataset.busy",
                           timeout=30_000)
    return table.look()


def test_the_hands_lift_the_obelisk_as_a_hand_does_and_a_piece_off_the_board_is_said(
        browser, tmp_path):
    """The obelisk put on segment 3 on h8, not confirmed, then on to f6 and d4: each tap
    lifted the whole stack, segments and all, and the table asked to put three segments
    back that only "knocks a piece off" could part. A hand lifts the obelisk with the
    segments it claimed, never one it only stands on. A segment that left the board from
    under the obelisk (no switch sees it) is said on the page. Each square says its pieces
    in words to a screen reader ("a1: ·" before)."""
    table = PlayPage(browser, "maze", tmp_path)
    page, follow = table.page, table.follow
    try:
        set_out_and_pass(table, "a8", {"d4": 2, "h8": 3, "b2": 4, "f6": 5})
        page.wait_for_function(f"() => ({LABEL})('a8') === 'a8: the obelisk'", timeout=30_000)
        assert page.evaluate(LABEL, "a1") == "a1: empty"
        assert page.evaluate(LABEL, "h8") == "h8: segment 3"
        _tap(table, "a8")
        _tap(table, "h8")  # onto segment 3: not confirmed
        look = _tap(table, "h8")
        assert look["held"]["A"] == ["obelisk"], look
        assert look["squares"]["h8"] == ["segment 3"], look
        _tap(table, "f6")
        _tap(table, "f6")
        look = _tap(table, "d4")
        assert look["squares"]["d4"] == ["segment 2", "obelisk"], look
        assert look["squares"]["f6"] == ["segment 5"], look
        # (the drawing is drawn again once the page has the set as it stands: waited for)
        page.wait_for_function(f"() => ({LABEL})('d4') === 'd4: the obelisk on segment 2'",
                               timeout=30_000)
        assert "only the obelisk moves" not in follow.problem, follow.problem
        _tap(table, "d4")
        _tap(table, "h8")  # back onto segment 3, and the claim confirmed
        confirm_claim(table, 7)
        page.wait_for_function(f"() => ({LABEL})('h8') === 'h8: the obelisk on segment 3'",
                               timeout=30_000)
        # segment 3 falls from under the obelisk: the switch on h8 stays closed
        table.act({"act": "lift", "seat": "A", "square": "h8", "count": 1})
        table.act({"act": "knock", "square": "h8"})
        table.act({"act": "put", "seat": "A", "square": "h8"})
        page.wait_for_function(f"() => ({OFF})().includes('segment 3')", timeout=30_000)
        assert page.evaluate(OFF) == ("On the wooden set now: segment 3 lies beside the board; "
                                      "the game has it in the obelisk on h8. Put it back there.")
    finally:
        table.stop()


def test_the_end_counts_the_turns_played_alike_and_a_reload_misses_nothing(browser,
                                                                          tmp_path):
    """After the end a card read "10 turns left" beside "turn 6 of 15": no turn is under way
    then. Both say the turns played. A reload of the page after it asked for an address
    that is not there (a 404 in the console): every address it asks for is there."""
    table = PlayPage(browser, "maze", tmp_path)
    page, follow = table.page, table.follow
    missing: list[str] = []
    page.on("response", lambda r: missing.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    try:
        set_out(table, "d4", {"d5": 2, "d6": 3, "d7": 4, "d8": 5})
        for n, (frm, to) in enumerate((("d4", "d5"), ("d5", "d6"), ("d6", "d7"), ("d7", "d8"))):
            table.act({"act": "press", "seat": "B"})  # the Maze Master passes
            follow.until(lambda n=n: follow.accepted() == 6 + 2 * n, 60, "the pass")
            table.act({"act": "lift", "seat": "A", "square": frm})
            table.act({"act": "put", "seat": "A", "square": to})
            follow.until(lambda: follow.offer and follow.offer["kind"] == "choose", 60,
                         "the claim offered")
            table.act({"act": "press", "seat": "A", "hold": True})
            follow.until(lambda n=n: follow.accepted() == 7 + 2 * n, 60, "the claim")
        follow.until(lambda: follow.state == "over", 60, "the end")
        page.reload()
        stats = "() => [...document.querySelectorAll('#facts .maze-info .stat')]" \
                ".map((s) => s.textContent)"
        page.wait_for_function(f"() => ({stats})().length > 0", timeout=30_000)
        page.wait_for_selector("#drawing [data-tap='a1']", timeout=30_000)
        page.wait_for_load_state("networkidle")
        assert "4 of 20 turns played" in page.evaluate(stats), page.evaluate(stats)
        scores = page.evaluate("() => [...document.querySelectorAll('#players .score')]"
                               ".map((s) => s.textContent)")
        assert "5 of 5 segments in 4 turns" in scores, scores
        assert missing == []
    finally:
        table.stop()


TURN = "() => document.getElementById('turn').textContent"


OFFER = "() => document.getElementById('offer').textContent"


def test_the_obelisk_on_a_segment_out_of_reach_is_answered_on_the_page(browser, tmp_path):
    """Tap d4 (the obelisk lifted), then e6 (set on segment 2, out of its reach): the turn
    line kept "move the obelisk like a queen" and nothing else was said. Now the turn says
    to put it back on d4, why the claim on h8 is offered, and the box reads "the obelisk to
    h8"; put back on d4, the turn is as it was."""
    table = PlayPage(browser, "maze", tmp_path)
    page = table.page
    try:
        set_out_and_pass(table, "d4", {"e6": 2, "h8": 3, "h1": 4, "b1": 5})
        _tap(table, "d4")
        _tap(table, "e6")
        page.wait_for_function(f"() => ({TURN})().includes('put it back on d4')",
                               timeout=30_000)
        said = page.evaluate(TURN)
        assert "the obelisk is off d4: put it down on a lit square; if it stands on a lit " \
               "segment, hold your button" in said, said
        assert "it cannot reach segment 2 on e6, segment 4 on h1 or segment 5 on b1" in said, \
            said
        page.wait_for_function(f"() => ({OFFER})().includes('the obelisk to h8')",
                               timeout=30_000)
        _tap(table, "e6")
        _tap(table, "d4")
        page.wait_for_function(f"() => ({TURN})().includes('move the obelisk like a queen')",
                               timeout=30_000)
    finally:
        table.stop()
