"""A remote towers match between two pages (issue 33): two `obelisk play --remote`, one broker.

Each page is a table's: its person acts through the hands (the acts the
panel sends), and reads on the page what the other table asks of them. The
tables of both tests start side by side when the first test asks, each pair
with a broker of its own (``PlayPage.side_by_side``).
"""

from __future__ import annotations

import json

import pytest

from firmware.service.command_socket import send
from tests.support.ahead import wanted
from tests.support.broker import Mosquitto
from tests.support.page import PlayPage
from tests.support.processes import until


def _actions(where) -> list[dict]:
    path = where / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()
            if '"t":"action"' in line.replace(" ", "")] if path.exists() else []


PAIRS = {  # each pair's tables: (game, its flags, each seat's flags); broker and names
    "derby": ("towers", ["--remote", "derby"], [["--seat", "A", "--table", "ta"],
                                                ["--seat", "B", "--table", "tb"]]),
    "club": ("stones", [], [["--table", "ta"], ["--table", "tb"]]),
}
"""The two tests' tables, as a fixture of the same name gives them: a towers match named
on the command line, and two stones tables with no match yet."""


@pytest.fixture(scope="module")
def pairs(request, browser, tmp_path_factory):
    """The pairs of tables the module's selected tests use, all started side by side, each
    pair on a broker of its own; stopped at the module's end."""
    names = wanted(request, list(PAIRS))
    brokers, started = [], []
    try:
        each = []
        for name in names:
            home = tmp_path_factory.mktemp(name)
            brokers.append(Mosquitto(home / "broker").start())
            game, flags, seats = PAIRS[name]
            each += [(game, home / seat, *flags, "--broker", brokers[-1].url, *more)
                     for seat, more in zip("ab", seats, strict=True)]
        started = PlayPage.side_by_side(browser, *each)
        yield {name: (started[2 * n], started[2 * n + 1]) for n, name in enumerate(names)}
    finally:
        for played in started:
            played.stop()
        for broker in brokers:
            broker.stop()


@pytest.fixture
def derby(pairs) -> tuple[PlayPage, PlayPage]:
    return pairs["derby"]


@pytest.fixture
def club(pairs) -> tuple[PlayPage, PlayPage]:
    return pairs["club"]


def test_two_pages_play_the_first_moves_of_a_remote_towers_match(derby):
    a, b = derby
    for played in (a, b):
        played.follow.start_game(lambda p=played: p.act({"act": "press", "seat":
                                                          p.dir.name.upper()}))
    tables = {"A": a, "B": b}
    here = tables[a.follow.obs["active"]]  # who chooses first: the same at both tables
    there = b if here is a else a
    assert there.follow.obs["active"] == here.follow.obs["active"]
    seat = here.follow.obs["active"]
    # the chooser's hourglass runs at their own table; the other shows it from its reports
    there.follow.until(lambda: any(e["event"] == "timer" and e["player"] == seat and
                                   e["state"] == "started" for e in there.follow.events),
                       30, "the chooser's hourglass shown at the other table")
    for n in (1, 2):  # the chooser puts two blocks on the pads at their own table
        look = here.act({"act": "look"})["table"]
        block = next(x for x in look["pile"] if x["colour"] != "black")
        here.act({"act": "take", "seat": seat, "block": block["id"]})
        here.act({"act": "set", "seat": seat, "pad": look["pads"].index(None)})
        here.follow.until(lambda n=n: here.follow.accepted() >= n, 60, f"choice {n} here")
        # the other page's turn line says to make that move, once (no notice says it again)
        there.page.wait_for_function(
            "() => /make the other table's move: put a \\w+ block from the pile/"
            ".test(document.getElementById('turn').textContent)", timeout=30_000)
        assert there.turn_words().startswith(f"player {seat}")
        colour = block["colour"]
        assert colour in there.turn_words()
        assert "asks" not in (there.page.text_content("#notice") or "")
        # its person makes it with a block of that colour from their own pile
        look = there.act({"act": "look"})["table"]
        same = next(x for x in look["pile"] if x["colour"] == colour)
        there.act({"act": "take", "seat": seat, "block": same["id"]})
        there.act({"act": "set", "seat": seat, "pad": look["pads"].index(None)})
        there.follow.until(lambda n=n: there.follow.accepted() >= n, 60,
                           f"choice {n} there")
    until(lambda: _actions(a.dir) == _actions(b.dir) and len(_actions(a.dir)) == 2, 30,
          "both journals holding the same two choices")
    link_words = there.page.text_content("#link") or ""
    assert "playing the table" in link_words, link_words
    here.page.click("#ctl-end")  # a match's end is asked of the other table: the page says so
    asked = here.page.text_content("#controls") or ""
    assert "The other table is asked; it ends when its player agrees" in asked, asked
    here.page.click("#ctl-end-no")
    # a pause asked on one page happens at both tables only once the other page agrees
    here.page.click("#ctl-pause")
    there.page.wait_for_function(
        "() => /the other table \\(player [AB]\\) asks to pause the game/"
        ".test(document.getElementById('link').textContent)", timeout=30_000)
    assert "asked the other table to pause" in (here.page.text_content("#link") or "")
    here.page.wait_for_function(  # the Pause button's answer, under it
        "() => /asked the other table to pause/"
        ".test(document.getElementById('controls-said').textContent)", timeout=30_000)
    for played in (here, there):  # asked, not agreed: both still play
        assert send(played.dir, {"command": "status"})["state"] != "paused"
    there.page.click("#ctl-agree")
    for played in (here, there):
        played.page.wait_for_function(
            "() => /^paused/.test(document.getElementById('status').textContent)",
            timeout=30_000)
        assert send(played.dir, {"command": "status"})["state"] == "paused"
    assert "agreed to pause the game" in (here.page.text_content("#notice") or "")
    here.page.wait_for_function(  # answered: the controls no longer say it was only asked
        "() => !/asked the other table/"
        ".test(document.getElementById('controls-said').textContent)", timeout=30_000)


def test_a_match_is_set_up_from_each_tables_page_with_the_pin(club):
    """Point 1: two tables with a broker and no match; each page's person, with the PIN,
    sets up a match of the same name, one in each seat; the two tables find each other."""
    a, b = club
    for played, seat in ((a, "A"), (b, "B")):
        page = played.page
        page.select_option("#opt-solo", f"remote-{seat}")
        page.fill("#opt-match", "club-night")
        page.click("#ctl-new")
    for played in (a, b):
        played.page.wait_for_function(
            "() => /playing the table/.test(document.getElementById('link').textContent)",
            timeout=60_000)
    assert "tb" in (a.page.text_content("#link") or "")
    assert "ta" in (b.page.text_content("#link") or "")
    for played, other in ((a, "B"), (b, "A")):
        names = played.page.text_content("#players") or ""
        assert f"player {other} (at the other table)" in names, names
