"""The other player's hourglass on a match's page, at a phone's size (issue 47): it runs at
its own table only, so while that table is out of touch the card here holds it at what it
last reported, and runs it again from that report when the table is back
(``firmware.match.far_clock``)."""

from __future__ import annotations

from firmware.service.command_socket import send
from tests.support.page import PlayPage

PHONE = {"width": 390, "height": 844}
CARD = '#players [data-player="B"] .hourglass'
SHOWN = f"""() => {{ const box = document.querySelector('{CARD}');
  return box && {{ seconds: box.querySelector('.seconds').textContent,
                   running: box.classList.contains('running') }}; }}"""


def test_the_other_players_hourglass_holds_while_their_table_is_out_of_touch(
        browser, broker, tmp_path):
    state = tmp_path / "ta"
    state.mkdir()
    table = PlayPage(browser, "towers", state, "--remote", "derby", "--seat", "A",
                     "--broker", broker.url, "--table", "ta", viewport=PHONE)
    page = table.page
    try:
        # the game on here (a glass reported before it is shown once it starts, whose start
        # clears the page's glasses)
        table.follow.start_game(lambda: table.act({"act": "press", "seat": "A"}))
        # player B's table reports its hourglass running, 40 s left: shown running here
        answer = send(state, {"command": "clock", "player": "B", "state": "started",
                              "seconds": 60, "left": 40})
        assert answer["ok"], answer
        page.wait_for_function(f"() => ({SHOWN})()?.running === true", timeout=30_000)
        # its table goes out of touch (as the link tells it): the card stops at the report
        gone = ("the other table (player B) is out of touch since 14:02: the match waits; "
                "its player's hourglass is stopped here")
        send(state, {"command": "link", "state": "apart", "message": gone})
        page.wait_for_function(f"() => ({SHOWN})()?.running === false", timeout=30_000)
        assert page.evaluate(SHOWN) == {"seconds": "40 s paused", "running": False}
        assert gone in (page.text_content("#link") or "")
        # back: it runs again from its table's report
        send(state, {"command": "link", "state": "linked",
                     "message": "the other table (tb) is back: play on"})
        page.wait_for_function(f"() => ({SHOWN})()?.running === true", timeout=30_000)
        seconds = page.evaluate(SHOWN)["seconds"]
        assert 0 < int(seconds.split()[0]) <= 40, seconds
    finally:
        table.stop()
