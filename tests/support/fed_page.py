"""A page fed the table's events through its routed stream: what it then shows.

No table, hands or broker: the page's server serves the page, and the browser answers its
``/events`` with the events given, so a test says exactly what the page hears.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

from tests.support.browser import PHONE
from tests.support.web import Web

OBSERVATION = {"game": "stones", "rows": 4, "cols": 4, "stacks": {}, "to_play": "B",
               "plies": 1, "symmetry": {}, "pillar": {"A": None, "B": None},
               "names": {"corner": "cornerstone", "key": "keystone", "cap": "capstone"}}
TABLE = {"event": "table", "game": "stones", "options": {"rows": 4, "cols": 4},
         "players": {"A": "player A", "B": "player B"}, "state": "repair", "turn": "B",
         "doing": "", "problem": "", "actions": 1, "observation": OBSERVATION, "moves": [],
         "words": "the stones table", "page": "stones", "table_key": "0123456789abcdef"}
"""A stones game of 4x4, one action played, B to move, in repair (a piece to put right):
the table as a page first hears it."""


def stream(*events: dict) -> str:
    """The events as the page's server streams them (no retry while the test looks)."""
    return "retry: 600000\n\n" + "".join(
        f"event: {e['event']}\ndata: {json.dumps({**e, 'words': ''})}\n\n" for e in events)


@contextlib.contextmanager
def fed(browser, state_dir, *events: dict, shown: str, viewport: dict = PHONE) -> Iterator:
    """A page at ``viewport`` fed ``events``, once its turn line matches the regular
    expression ``shown``; its server stopped after."""
    web = Web(state_dir).start()
    try:
        page = browser.new_context(viewport=viewport).new_page()
        page.route("**/events", lambda route: route.fulfill(
            status=200, content_type="text/event-stream", body=stream(*events)))
        page.goto(web.url)
        page.wait_for_function("(shown) => new RegExp(shown).test(document.getElementById("
                               "'turn').textContent)", arg=shown, timeout=30_000)
        yield page
    finally:
        web.stop()


def seen(browser, state_dir, *events: dict, where: str, shown: str) -> str | None:
    """The words at ``where`` once the page drew ``events`` and its turn line matches the
    regular expression ``shown`` (None: ``where`` is not shown)."""
    with fed(browser, state_dir, *events, shown=shown) as page:
        return None if page.is_hidden(where) else page.text_content(where)
