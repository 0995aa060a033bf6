"""A guest's page watches quietly (issue 32, trial 8: a page with no PIN entered asked the
hands' view every 2 s and was refused each time, some 355 refusals in 12 minutes, each an
error in the browser's console).

Refused once, a guest's page stops asking; the PIN entered, the hands come at once.
"""

from __future__ import annotations

from tests.support.browser import PHONE
from tests.support.person import Person
from tests.support.play import Play


def test_a_guests_page_asks_the_hands_once_and_again_only_with_the_pin(browser, tmp_path):
    state = tmp_path / "stones"
    state.mkdir()
    play = Play("stones", state).start()
    context = browser.new_context(viewport=PHONE)
    try:
        url = play.url
        page = context.new_page()
        refused: list[int] = []
        page.on("response", lambda r: refused.append(r.status)
                if r.url.endswith("/hands") and r.status == 403 else None)
        page.clock.install()  # the page's timers run only as the test moves its clock
        page.goto(url)
        page.wait_for_selector("#pin")
        page.wait_for_function("() => document.querySelectorAll('#players .card').length")
        asked = len(refused)
        assert asked >= 1  # the first look: a guest is refused the hands' view
        page.clock.run_for(60_000)  # a minute of the page's own timers
        page.evaluate("() => fetch('/games')")  # one more round trip: any look has answered
        assert len(refused) == asked, refused
        assert page.is_hidden("#hands")
        Person(page, state).enter_pin()  # the people at the table: the hands come
        page.wait_for_selector("#hands:not([hidden])", timeout=30_000)
    finally:
        context.close()
        play.stop()
