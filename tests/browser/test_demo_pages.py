"""The page in a real browser (Debian's chromium, headless), following whole demo games.

All four games are played at once, each by its demo on a state directory of
its own with `obelisk web` beside it (the four servers started side by side):
one page is open from before the demo starts (a laptop's size), and the demo
starts as soon as it is; a second opens mid-game (a phone's) while the demo
is paused with its menu button (``tests.support.paused_demo``), so a slow page load
cannot miss the game; the demo then plays on to its end. Their tests
then check what the pages showed against the demo's own JSON events. The
screenshots of each game's end are kept in pytest's temporary directory;
``OBELISK_DRAW_DOCS=1`` also writes the towers one to
``docs/pages/towers-end.png`` for the README.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import DIGEST, LAPTOP, PHONE, SPEECH, WATCH
from tests.support.demo import Demo
from tests.support.processes import OBELISK, stop, until
from tests.support.true_lines import RECORD, contradictions, recorded
from tests.support.web import Web

GAMES = {
    # game: (seed, extra demo flags, moves played when the demo pauses and the second
    # page opens)
    "towers": (1, (), 18),
    "stones": (1, ("--ply-limit", "40"), 6),
    "highrise": (1, (), 6),
    "maze": (1, (), 12),
}
DEMO_S = 90  # the slowest demo (the maze, its choices held a second each) takes about 40 s
SPEED = 50
"""The followed demos' pace: slow enough that the page opened mid-game still has
part of the game to follow once it has loaded."""


@dataclass
class Followed:
    """One game followed by two pages, and what they showed."""

    game: str
    state_dir: Path
    demo: Demo
    web: Web
    early: object  # the page open from the start
    late: object = None  # the page opened mid-game
    opened_at: int = 0  # accepted moves when the late page opened
    same_mid_game: int | None = None  # moves shown when both pages first matched
    events: list = field(default_factory=list)
    seen: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)  # each page's lines after each event (RECORD)
    ends: dict = field(default_factory=dict)  # digest of each page at the end
    shots: list = field(default_factory=list)

    def accepted(self) -> list[dict]:
        return [e for e in self.events if e["event"] == "accepted"]

    def one(self, kind: str) -> dict:
        (found,) = [e for e in self.events if e["event"] == kind]
        return found


def _showing_the_end(page) -> bool:
    return page.evaluate("() => !document.getElementById('ending').hidden")


@pytest.fixture(scope="module")
def followed(browser, tmp_path_factory) -> dict[str, Followed]:
    """The four demos played at once, each followed by a page from the start and one
    opened mid-game; every process is stopped at the end, whatever happened."""
    root = tmp_path_factory.mktemp("followed")
    runs: dict[str, Followed] = {}
    webs: dict[str, Web] = {}
    try:
        for game in GAMES:
            (root / game).mkdir()
            webs[game] = Web(root / game)
        with ThreadPoolExecutor(len(webs)) as pool:  # their start-ups side by side
            list(pool.map(Web.start, webs.values()))
        for game, (seed, extra, _) in GAMES.items():
            web = webs[game]
            early = browser.new_context(viewport=LAPTOP).new_page()
            early.add_init_script(SPEECH)
            early.goto(web.url + "/")
            early.evaluate(WATCH)
            early.evaluate(RECORD)
            early.check("#speak")  # this page reads each refusal aloud
            early.wait_for_function("() => document.getElementById('status').textContent"
                                    ".includes('no table is running')")
            demo = Demo(game, web.state_dir, seed, SPEED, extra, pause_at=GAMES[game][2])
            runs[game] = Followed(game, web.state_dir, demo, web, early)
            demo.start()  # once its page follows; the next pages open meanwhile
        waiting = dict(runs)
        deadline = time.monotonic() + DEMO_S
        while waiting:  # open each second page while its game is paused, then compare
            assert time.monotonic() < deadline, f"no end to {sorted(waiting)}"
            for game, run in list(waiting.items()):
                if run.late is None:
                    if run.demo.paused():
                        run.opened_at = len(run.demo.accepted())
                        run.late = browser.new_context(viewport=PHONE).new_page()
                        run.late.add_init_script(f"({RECORD})()")
                        run.late.goto(run.web.url + "/")
                    elif run.demo.finished():
                        raise AssertionError(f"the {game} demo ended before it paused")
                    continue
                # the game holds still: both pages settle on the paused table's view
                late = run.late.evaluate(DIGEST)
                if late["moves"] and late == run.early.evaluate(DIGEST):
                    run.same_mid_game = len(late["moves"])
                    run.demo.go()
                    del waiting[game]
            time.sleep(0.02)  # a poll's pace, not a wait for anything
        for run in runs.values():
            run.demo.wait(DEMO_S)
            run.events = run.demo.events()
            for page in (run.early, run.late):
                until(lambda page=page: _showing_the_end(page), 20, f"the {run.game} page's end")
            last = run.events[-1]
            if last["event"] == "reveal":  # High Rise: every stack shown, one by one
                count = sum(e["event"] == "reveal" for e in run.events)
                for page in (run.early, run.late):
                    until(lambda page=page, count=count:
                          page.locator("#drawing .revealed").count() == count,
                          20, "every High Rise stack revealed")
            run.seen = {**run.early.evaluate("() => window.seen"),
                        "spoken": run.early.evaluate("() => window.spoken")}
            run.lines = {"early": recorded(run.early), "late": recorded(run.late)}
            run.ends = {"early": run.early.evaluate(DIGEST), "late": run.late.evaluate(DIGEST)}
            for name, page in (("laptop", run.early), ("phone", run.late)):
                shot = root / f"{run.game}-end-{name}.png"
                page.screenshot(path=str(shot), full_page=name == "phone")
                run.shots.append(shot)
        if os.environ.get("OBELISK_DRAW_DOCS"):
            runs["towers"].early.screenshot(path=str(ROOT / "docs/pages/towers-end.png"))
        yield runs
    finally:
        for run in runs.values():
            run.demo.stop()
        for web in webs.values():
            web.stop()


def _as_listed(game: str, accepted: dict) -> str:
    """An accepted action as the page's moves list reads it: the seat by the game's name for
    it, then what it did ("the Architect moved the obelisk to c5")."""
    from firmware.readers.terminal.screen import seat_names

    seat = accepted["player"]
    return f"{seat_names(game).get(seat, f'player {seat}')} {accepted['text']}"


@pytest.mark.parametrize("game", GAMES)
def test_the_page_follows_every_accepted_action(followed, game):
    run = followed[game]
    shown = run.ends["early"]["moves"]
    played = [_as_listed(game, e) for e in run.accepted()]
    assert shown == played  # every move, in order: who by the seat's name, what they did
    count = run.early.locator("#moves-count").text_content()
    assert count == str(len(played))  # none was played before the page followed the table


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_placement_shows_its_reason_and_marks_the_cells(followed, game):
    run = followed[game]
    refused = [e for e in run.events if e["event"] == "refused"]
    assert refused, f"the {game} demo (seed {GAMES[game][0]}) refuses nothing any more"
    shown = {r["text"]: r["marks"] for r in run.seen["refusals"]}
    for event in refused:
        assert event["message"] in shown, (event, run.seen["refusals"])
        assert shown[event["message"]] == len(event["where"]), event  # each place marked
    assert run.seen["spoken"] == [e["message"] for e in refused]  # the "speak" switch is on


@pytest.mark.parametrize("game", GAMES)
def test_the_end_shows_the_breakdown(followed, game):
    run = followed[game]
    outcome = run.one("game_over")["outcome"]
    ending = run.early.locator("#ending")
    text = ending.text_content()
    assert outcome["words"] in text
    for player, rows in outcome["breakdown"].items():
        shown = ending.locator(f".breakdown[data-player='{player}'] li")
        assert [shown.nth(i).get_attribute("data-row") for i in range(shown.count())] == rows
    assert all(shot.stat().st_size > 10_000 for shot in run.shots)
    drawing = run.early.locator("#drawing svg")
    if game == "towers":
        pictured = run.early.locator("#ending .breakdown .chip-cube").count()
        assert pictured >= sum(int(r.split()[0]) for rows in outcome["breakdown"].values()
                               for r in rows if "over the top" not in r)
        penalties = run.one("game_over")["observation"]["penalties"]
        over = run.early.locator("#ending .penalty .chip-cube").count()
        assert over == sum(penalties.values())  # each cube over the top, pictured
        assert drawing.locator(".cube.over-top").count() == sum(penalties.values())
    elif game == "highrise":
        for reveal in (e for e in run.events if e["event"] == "reveal"):
            square = drawing.locator(f".revealed[data-square='{reveal['square']}']")
            assert square.get_attribute("data-value") == str(reveal["value"])
            assert f"A {reveal['pips']['A']} · B {reveal['pips']['B']}" in square.text_content()
    elif game == "maze":
        final = run.one("game_over")["observation"]
        assert drawing.locator(".claimed").count() == final["claimed"]
        assert drawing.locator(".wall").count() == len(final["walls"])
        assert drawing.locator(".route").count() == 1
    elif game == "stones":
        final = run.one("game_over")["observation"]
        assert drawing.locator(".stack").count() == len(final["stacks"])


@pytest.mark.parametrize("game", GAMES)
def test_no_line_shown_contradicts_the_table_after_any_event(followed, game):
    """After every event of the whole game, on the page open from the start and on the one
    opened mid-game, each line shown holds against the table's state as its events say it
    (``tests.support.true_lines``: whose turn, paused, over, a refusal not saying the turn
    line again, where the maze's obelisk is off)."""
    run = followed[game]
    for page, lines in run.lines.items():
        assert len(lines) > len(run.accepted()), (page, len(lines))  # every event recorded
        found = contradictions(lines)
        assert not found, f"{page}: " + "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_a_page_opened_mid_game_shows_the_same(followed, game):
    run = followed[game]
    assert run.same_mid_game is not None, "the two pages never matched while the game ran"
    assert run.same_mid_game < len(run.accepted())  # they matched before the end
    assert run.ends["late"] == run.ends["early"]


@pytest.mark.parametrize("game", GAMES)
def test_the_page_never_lost_the_table_while_it_ran(followed, game):
    """The page once said "the table is not answering" mid-game: between the first move and
    the end, it only counts moves."""
    statuses = followed[game].seen["statuses"]
    playing = [s for s in statuses if re.fullmatch(r"\d+ actions? played", s)
               or s.startswith("paused")]
    first, last = statuses.index(playing[0]), statuses.index(playing[-1])
    assert statuses[first:last + 1] == playing, statuses


def test_the_page_recovers_when_the_table_or_its_server_restarts(browser, tmp_path):
    state_dir = tmp_path / "table"
    state_dir.mkdir()
    web = Web(state_dir).start()
    demo = Demo("stones", state_dir, seed=2, speed=25, extra=("--ply-limit", "60"))
    again = None
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(web.url + "/")
        page.evaluate(WATCH)
        demo.start()
        until(lambda: len(demo.accepted()) >= 6, 30, "six moves")
        demo.stop()  # the table stops (killed, as by a power cut)
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".includes('the table has stopped')")
        played = len(demo.accepted())
        demo.start()  # the same demo on the same directory resumes the game
        until(lambda: len(demo.accepted()) >= played + 4, 30, "four more moves")
        # the page follows the table again: it lists moves made after the restart (the
        # demo may have played on to its end before the page's next look: no status then)
        page.wait_for_function("(played) => parseInt(document.getElementById('moves-count')"
                               ".textContent) > played", arg=played)
        web.stop()  # now the page's own server goes, and comes back on the same port
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".includes('lost its server')")
        again = Web(state_dir, web.port).start()
        demo.wait(DEMO_S)
        until(lambda: _showing_the_end(page), 20, "the end after both restarts")
        over = [e for e in demo.events() if e["event"] == "game_over"][-1]
        assert over["outcome"]["words"] in page.locator("#ending").text_content()
        moves = page.evaluate(DIGEST)["moves"]
        assert moves and moves[-1] == [_as_listed("stones", e) for e in demo.accepted()][-1]
    finally:
        demo.stop()
        web.stop()
        if again is not None:
            again.stop()


def test_history_downloads_and_replays_a_finished_game(browser, followed, tmp_path):
    run = followed["towers"]
    listed = subprocess.run([OBELISK, "games", "--state-dir", str(run.state_dir)],
                            capture_output=True, text=True, check=True).stdout.split()
    game_id = listed[0]
    web = Web(run.state_dir).start()
    try:
        page = browser.new_context(viewport=LAPTOP, accept_downloads=True).new_page()
        page.goto(web.url + "/")
        page.click("#history-open")
        item = page.locator(f"#games li[data-game-id='{game_id}']")
        item.wait_for()
        for form, link in (("json", "a.download.json"), ("text", "a.download.text")):
            with page.expect_download() as download:
                item.locator(link).click()
            got = Path(download.value.path()).read_text()
            exported = subprocess.run([OBELISK, "export", game_id, "--format", form,
                                       "--state-dir", str(run.state_dir)],
                                      capture_output=True, text=True, check=True).stdout
            assert got == exported, form
        sheet = exported.splitlines()
        item.locator("button.replay").click()
        move = page.locator("#replay-move")
        move.filter(has_text="the start").wait_for()
        numbered = [line for line in sheet if line[:1].isdigit()]
        forward = page.locator("#replay-forward")
        before = page.locator("#replay-drawing").inner_html()
        # up to the first block set on a tower (move 3 in a quiet run; on a loaded machine
        # an hourglass may run out first, and a lost turn changes no tower)
        steps = max(3, next(n for n, line in enumerate(numbered, 1) if " place " in line))
        said: list[tuple[str, str]] = []  # the moves as the live page listed them
        for event in run.events:
            if event["event"] == "accepted":
                said.append((event["player"], event["text"]))
            elif event["event"] == "takeback":
                del said[event["actions"]:]
        assert len(said) == len(numbered)
        for number, (player, text) in enumerate(said[:steps], 1):
            forward.click()  # each as the live moves list said it, not the sheet's notation
            assert move.text_content() == f"{number} of {len(numbered)}. player {player} {text}"
        assert page.locator("#replay-drawing").inner_html() != before
        page.click("#replay-back")
        assert move.text_content().startswith(f"{steps - 1} of {len(numbered)}.")
        page.click("#replay-last")
        assert page.locator("#replay-ending").is_visible()
        outcome = run.one("game_over")["outcome"]
        assert outcome["words"] in page.locator("#replay-ending").text_content()
        # the same drawing code: the replay's last position is the live page's end
        assert page.locator("#replay-drawing svg").evaluate("n => n.outerHTML") == \
            run.ends["early"]["drawing"]
    finally:
        stop(web.process)


@pytest.mark.parametrize("game", GAMES)
def test_a_page_open_before_its_table_says_when_the_table_came(followed, game):
    """"no table is running ... this page waits for it" stayed the newest line of what
    happened after the table had come (a stopped `obelisk play` started again): the page
    says the table is back, before anything the table then tells."""
    logged = followed[game].seen["logged"]
    waiting = next(n for n, line in enumerate(logged) if line.startswith("no table is running"))
    assert logged[waiting + 1] == "the table is running again", logged[:4]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_replays_to_where_its_live_page_ended(browser, followed, game):
    """The replay draws each game with the live page's code: its last step is the drawing
    the page open from the start ended on (stones' replay once broke on its stacks, which
    only High Rise reveals)."""
    run = followed[game]
    web = Web(run.state_dir).start()
    try:
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(web.url + "/")
        page.click("#history-open")
        page.locator("#games li button.replay").first.click()
        page.wait_for_function("""() => document.getElementById("replay-move").textContent
            .includes("the start") || document.getElementById("replay-title").textContent
            .includes("cannot")""")
        title = page.locator("#replay-title").text_content()
        assert "cannot" not in title, title
        page.click("#replay-last")
        assert page.locator("#replay-ending").is_visible()
        # (the table's lights drawn on a one-board game's live drawing are not the game's:
        # the record has none, so the replay draws the game without them)
        live = re.sub(r'<rect [^>]*class="glow"[^>]*></rect>', "", run.ends["early"]["drawing"])
        assert page.locator("#replay-drawing svg").evaluate("n => n.outerHTML") == live
    finally:
        stop(web.process)


def test_playing_alone_the_page_outlines_the_computers_asked_move(browser, tmp_path):
    """The computer's move shows on the board, not only on the LEDs: its squares outlined
    (the asked event's where) until the person has made it."""
    state_dir = tmp_path / "solo"
    state_dir.mkdir()
    web = Web(state_dir).start()
    demo = Demo("stones", state_dir, seed=3, speed=2,
                extra=("--solo", "B", "--ply-limit", "30"))
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(web.url + "/")
        demo.start()
        shown = page.wait_for_function("""() => {
            // read at once: the demo's hand makes the asked move soon after it is asked
            const marks = [...document.querySelectorAll("#drawing [data-ask='ask']")];
            const notice = document.getElementById("notice").textContent;
            const turn = document.getElementById("turn").textContent;
            return marks.length && turn.includes("make the computer's move")
              ? { squares: marks.map((m) => m.dataset.square), notice, turn } : null;
        }""", timeout=60_000).json_value()
        asked = [e for e in demo.events() if e.get("event") == "asked"]
        assert asked and all(e["player"] == "B" for e in asked)
        assert set(shown["squares"]) <= {m["square"] for e in asked for m in e["where"]}
        # the turn line says the move asked, not "lift one of your stones" (any move), and
        # no notice says it again (issue 32: each thing said once)
        assert any(shown["turn"] == f"player B: make the computer's move: "
                   f"{e['text']}" for e in asked), shown
        assert "asks" not in shown["notice"], shown
    finally:
        demo.stop()
        web.stop()
