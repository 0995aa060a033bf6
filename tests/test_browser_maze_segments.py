"""The maze's page names and draws each segment by the number its wooden piece carries.

A newcomer playing `obelisk play maze` read "the Maze Master put a segment on
b5 (2 of 5 on the board)" in what happened and saw the segments drawn as blank
tiles, while the wooden segments on the table carry the numbers 2 to 5: the page
(in Debian's chromium, at a phone's width) says and draws each segment's number,
and where the obelisk claimed one, which. The words themselves are checked away
from a page in ``tests/test_words_maze_segments.py``.
"""

from __future__ import annotations

from tests.test_browser_leftovers import Playing

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


def set_out(table: Playing, obelisk: str = "d4", laid: dict[str, int] | None = None) -> None:
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


def set_out_and_pass(table: Playing, obelisk: str = "d4",
                     laid: dict[str, int] | None = None) -> None:
    """``set_out``, then the Maze Master's pass: the Architect moves the obelisk next."""
    set_out(table, obelisk, laid)
    table.act({"act": "press", "seat": "B"})
    table.follow.until(lambda: table.follow.accepted() == 6, 60, "the pass")


def confirm_claim(table: Playing, accepted: int) -> None:
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
    table = Playing(browser, "maze", tmp_path)
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
    table = Playing(browser, "maze", tmp_path)
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
        page.click('#hands [data-hand-square="g7"]')  # the tap a person makes: it goes down
        page.wait_for_function(f"() => ({HANDS_OF})().includes('(whose turn it is)')",
                               timeout=30_000)
        assert page.evaluate(HANDS_OF).startswith("The Maze Master's hands")
        look = table.look()
        assert not look["held"]["A"] and not look["held"]["B"], look["held"]
        assert follow.state == "play", follow.problem  # nothing to put right
    finally:
        table.stop()
