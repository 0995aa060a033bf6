"""The maze at a phone's width, as a newcomer's trial of `obelisk play maze` found it
(issue 32): the hands lift what a person's hand lifts, say each square in words, the page
says a piece that left the board, counts the turns alike at the end, and a reload asks for
nothing that is not there. Acts the trial made on the page are taps on the page here; the
rest go through the hands' socket (the same acts the panel sends)."""

from __future__ import annotations

from tests.test_browser_leftovers import Playing
from tests.test_browser_maze_segments import confirm_claim, set_out, set_out_and_pass

LABEL = "(name) => document.querySelector(`#hands [data-hand-square='${name}']`)" \
        ".getAttribute('aria-label')"
OFF = "() => document.querySelector('#facts .off-the-board')?.textContent || ''"


def _tap(table: Playing, square: str) -> dict:
    """A tap on a square of the hands panel, waited for until the panel has drawn again."""
    page = table.page
    acts = page.evaluate("() => Number(document.getElementById('hands').dataset.acts || 0)")
    page.click(f"#hands [data-hand-square='{square}']")
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
    table = Playing(browser, "maze", tmp_path)
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
        assert page.evaluate(LABEL, "d4") == "d4: the obelisk on segment 2"
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
    table = Playing(browser, "maze", tmp_path)
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
        page.wait_for_selector("#hands [data-hand-square='a1']", timeout=30_000)
        page.wait_for_load_state("networkidle")
        assert "4 of 20 turns played" in page.evaluate(stats), page.evaluate(stats)
        scores = page.evaluate("() => [...document.querySelectorAll('#players .score')]"
                               ".map((s) => s.textContent)")
        assert "5 of 5 segments in 4 turns" in scores, scores
        assert missing == []
    finally:
        table.stop()
