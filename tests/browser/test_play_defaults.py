"""`obelisk play` as a person expects it, in Debian's chromium (issue 32 point 10).

The computer's seat is marked where the page names the players, and two
tables on two ports of one host keep their sessions apart in one browser
(cookies ignore ports).
"""

from __future__ import annotations

from tests.support.page import PlayPage
from tests.support.web import Web

PIN = "4321"


def test_the_computers_seat_is_marked_where_the_page_names_the_players(browser, tmp_path):
    played = PlayPage(browser, "stones", tmp_path, "--solo", "B", "--level", "2")
    try:
        page = played.page
        page.wait_for_selector('#players [data-player="B"] .name')
        names = {seat: page.text_content(f'#players [data-player="{seat}"] .name')
                 for seat in "AB"}
        assert names == {"A": "player A", "B": "player B (computer, level 2)"}
    finally:
        played.stop()


SESSION = """async () => (await (await fetch('/session')).json()).session"""
ENTER = """async (pin) => (await fetch('/session', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({pin})})).status"""


def test_two_tables_on_two_ports_keep_their_sessions_apart_in_one_browser(browser, tmp_path):
    """Cookies ignore ports: the table on one port must not end the session of the other."""
    tables = []
    for name in ("one", "two"):
        state = tmp_path / name
        state.mkdir()
        (state / "pin").write_text(PIN + "\n")  # each table's PIN, as the service keeps it
        tables.append(Web(state).start())
    context = browser.new_context()
    try:
        pages = []
        for table in tables:
            page = context.new_page()
            page.goto(table.url + "/")
            assert page.evaluate(ENTER, PIN) == 200
            pages.append(page)
        assert [page.evaluate(SESSION) for page in pages] == [True, True]
    finally:
        context.close()
        for table in tables:
            table.stop()
