"""The maze at a phone's width, as a newcomer's trial of `obelisk play maze` found it."""

from __future__ import annotations

from tests.test_browser_leftovers import Playing


def test_a_reloaded_maze_page_asks_for_nothing_that_is_not_there(browser, tmp_path):
    """After a reload the console showed a 404: every address the page asks for is there."""
    table = Playing(browser, "maze", tmp_path)
    page = table.page
    missing: list[str] = []
    page.on("response", lambda r: missing.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    try:
        page.wait_for_selector("#hands [data-hand-square='a1']", timeout=30_000)
        page.reload()
        page.wait_for_selector("#hands [data-hand-square='a1']", timeout=30_000)
        page.wait_for_load_state("networkidle")
        assert missing == []
    finally:
        table.stop()
