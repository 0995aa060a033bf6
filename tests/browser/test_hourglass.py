"""The running hourglass stays in view on a phone (issue 32, trial 7: at 360 x 640 the
towers cards, and the hourglass on them, scroll away under the pinned board while the
chooser fetches blocks with the hands).

While the hands are shown and the cards have scrolled away under the band pinned at the
top (the turn line and the board), the band shows the glass that runs, with whose it is;
with the cards in view, or no glass running, it shows none.
"""

from __future__ import annotations

from tests.support.page import PlayPage

SMALL_PHONE = {"width": 360, "height": 640}

IN_VIEW = """(selector) => { const el = document.querySelector(selector);
  if (!el || el.offsetParent === null) return false;
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight; }"""


def test_the_running_hourglass_stays_in_the_pinned_band_when_the_cards_scroll_away(
        browser, tmp_path):
    state = tmp_path / "towers"
    state.mkdir()
    table = PlayPage(browser, "towers", state)
    page, follow = table.page, table.follow
    try:
        page.set_viewport_size(SMALL_PHONE)
        assert not page.evaluate(IN_VIEW, "#band-glass")  # before the game: no glass
        follow.start_game(lambda: table.act({"act": "press", "seat": "A"}))
        chooser = follow.obs["active"]
        page.wait_for_function(f"() => /\\d+ s$/.test(document.querySelector("
                               f"'#players [data-player=\"{chooser}\"] .hourglass .seconds')"
                               "?.textContent || '')", timeout=30_000)
        # at the top, the card shows it: the band does not say it again
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function(f"() => ({IN_VIEW})('#players .hourglass')", timeout=10_000)
        assert not page.evaluate(IN_VIEW, "#band-glass")
        # down to the hands' last row, as a person reaching the rods does
        page.evaluate("document.querySelector('#hands').scrollIntoView({block: 'end'})")
        page.wait_for_function(f"() => !({IN_VIEW})('#players .hourglass')", timeout=10_000)
        page.wait_for_function(IN_VIEW, arg="#band-glass", timeout=10_000)
        said = page.text_content("#band-glass")
        name = page.evaluate(f"() => document.querySelector('#players [data-player=\"{chooser}\"]"
                             " .name').textContent")
        assert name.split(" (")[0] in said, (said, name)
        seconds = page.text_content("#band-glass .seconds")
        assert seconds.endswith(" s") and 0 < int(seconds.split()[0]) <= 60, seconds
        # the hands are still in view beneath it
        assert page.evaluate(IN_VIEW, "#hands")
    finally:
        table.stop()
