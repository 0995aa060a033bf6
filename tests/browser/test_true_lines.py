"""Words that stay true on `obelisk play`'s page: each line replaced or cleared once what it
said stops being true (issue 48, point 3).

A newcomer found, after a restart, "Run the table" still saying that no table was running
while its buttons worked; a refusal of the computer's move saying the whole turn line again
under it; a paused game asking for a move; the stones hands saying "click a stone" after the
end; a tab moved to another table on the same port keeping the first one's What happened.
One game of stones against the computer walks through each, with the page's lines recorded
after every event (``tests.support.true_lines``) and held to the rules there; the whole demo
games are held to the same rules in ``test_demo_pages.py``.
"""

from __future__ import annotations

from engine.core import square_name
from engine.players import Player
from tests.support.fed_page import TABLE, seen
from tests.support.page import PlayPage, pressed_until_started
from tests.support.play import Play
from tests.support.processes import until
from tests.support.stones import position
from tests.support.true_lines import (
    RECORD,
    asks_a_move,
    contradictions,
    lines_now,
    recorded,
    stale_connection,
)

LIMIT = 4
"""Moves in all before the stones game is drawn: two of the person's, two of the computer's."""

KINDS = {"corner": "c", "key": "k", "cap": "p"}


def _position(obs: dict):
    """The stones position the observation shows (the game's rules, to find a legal move)."""
    layout = {square: "".join(s[0] + KINDS[s.split()[1]] for s in stack)
              for square, stack in obs["stacks"].items()}
    return position(layout, to_play=Player(obs["to_play"]), rows=obs["rows"], cols=obs["cols"])


def _single(obs: dict, seat: str, other_than: tuple[str, str] | None = None) -> tuple[str, str]:
    """A legal move of ``seat``'s of one stone alone onto an empty square (not ``other_than``)."""
    pos = _position(obs)
    for move in pos.legal_actions():
        frm, to = square_name(move.frm), square_name(move.to)
        if (len(obs["stacks"].get(frm, [])) == 1 and to not in obs["stacks"]
                and (frm, to) != other_than and obs["stacks"][frm][0].startswith(seat)):
            return frm, to
    raise AssertionError(f"no single stone of {seat}'s to move in {obs['stacks']}")


def _shown(page, kind: str, n: int = 1) -> None:
    """Until the page has handled ``n`` events of ``kind`` live (and drawn what followed)."""
    page.wait_for_function(
        "([k, n]) => window.shownAfter.filter((r) => r.event.event === k).length >= n",
        arg=[kind, n], timeout=30_000)


def _move(table: PlayPage, seat: str, frm: str, to: str) -> None:
    table.act({"act": "lift", "seat": seat, "square": frm})
    table.act({"act": "put", "seat": seat, "square": to})


def _asked(table: PlayPage) -> tuple[str, str]:
    """The computer's move asked now: (from, to)."""
    follow = table.follow

    def since_the_last_move():
        for e in reversed(follow.events):
            if e["event"] == "asked":
                return e
            if e["event"] == "accepted":
                return None
        return None

    asked = follow.until(since_the_last_move, 60, "the computer's move asked")
    where = {m["kind"]: m["square"] for m in asked["where"]}
    return where["from"], where["to"]


def test_a_stones_game_alone_shows_no_line_that_stopped_being_true(browser, tmp_path):
    state = tmp_path / "stones"
    state.mkdir()
    table = PlayPage(browser, "stones", state, "--solo", "B", "--ply-limit", str(LIMIT),
                     script=f"({RECORD})()")
    page, follow = table.page, table.follow
    try:
        table.act({"act": "setup"})
        follow.until(lambda: "press a player button" in follow.problem, 60, "the stones seen")
        pressed_until_started(table, "stones")
        # paused: the turn line says so, and asks for no move
        table.act({"act": "press", "seat": "menu"})
        _shown(page, "pause")
        table.act({"act": "press", "seat": "menu"})
        _shown(page, "pause", 2)
        # the person's move, then the computer's made wrong: the refusal does not say the
        # turn line's asked move again
        _move(table, "A", *_single(follow.obs, "A"))
        follow.until(lambda: follow.accepted() == 1, 30, "player A's move")
        asked = _asked(table)
        wrong = _single(follow.obs, "B", other_than=asked)
        _move(table, "B", *wrong)
        _shown(page, "refused")
        _move(table, "B", wrong[1], wrong[0])  # put back
        _shown(page, "repaired")
        _move(table, "B", *asked)
        follow.until(lambda: follow.accepted() == 2, 30, "the computer's move made")
        # the table and its page stopped: Run the table says the page's server is out of
        # reach (its next look at the table's status); once they are back and the buttons
        # work, no line says so
        url = table.url
        table.play.stop()
        page.wait_for_function("() => document.getElementById('controls-said').textContent"
                               ".includes('out of reach')", timeout=30_000)
        assert table.play.start().url == url
        page.wait_for_selector("#ctl-end", timeout=60_000)  # the table's status answered
        until(lambda: not stale_connection(lines_now(page)), 15,
              f"the connection's lines cleared; shown {lines_now(page)}")
        # to the end: over, no line asks for a move (the hands' prompt included)
        follow.until(lambda: follow.accepted() >= 2 and follow.obs["to_play"] == "A", 60,
                     "player A's turn after the restart")
        _move(table, "A", *_single(follow.obs, "A"))
        follow.until(lambda: follow.accepted() == 3, 30, "player A's second move")
        _move(table, "B", *_asked(table))
        follow.until(lambda: follow.over is not None, 60, "the end")
        _shown(page, "game_over")
        page.wait_for_selector("#hands .hands-held", timeout=30_000)
        until(lambda: not asks_a_move(lines_now(page)), 15,
              f"no line asking for a move after the end; shown {lines_now(page)}")
        first = page.eval_on_selector_all("#log li", "items => items.map((i) => i.textContent)")
        found = contradictions(recorded(page))
        assert not found, "\n".join(found)
        # another table on the same port: the tab starts afresh
        table.play.stop()
        other = Play("towers", tmp_path / "towers", port=int(url.rsplit(":", 1)[1].split("/")[0]))
        (tmp_path / "towers").mkdir()
        try:
            assert other.start().url == url
            page.wait_for_function("() => document.body.dataset.game === 'towers'",
                                   timeout=60_000)
            told = page.eval_on_selector_all("#log li", "items => items.map((i) => i.textContent)")
            kept = [line for line in told if line in first and "moved" in line]
            assert not kept, (kept, told)
        finally:
            other.stop()
    finally:
        table.stop()



def test_the_computers_ask_is_not_said_again_once_part_of_it_is_made(browser, tmp_path):
    """A newcomer's towers game: "the computer (player B) asks: take the blue block from the
    zone; place it ..." stayed above the board once the block was in the hand, while the
    turn line said only the placing still to do. The turn line says the computer's move,
    all of it or what is left of it: no line says the ask again."""
    asked = {"event": "asked", "player": "B", "by": "the computer", "action": "c1-c2",
             "text": "lift the capstone on c1; put it on c2", "where": []}
    turn = {"event": "turn", "player": "B",
            "doing": "make the computer's move: put it on c2"}  # the lift made already
    shown = seen(browser, tmp_path / "table", TABLE, asked, turn, where="#notice",
                 shown="put it on c2")
    assert shown is None, shown
