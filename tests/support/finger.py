"""A finger on a phone's screen: taps only what is in view and on top (issue 48, point 2).

Each walk of a game at a phone's size acts through it, so a control the turn asks for that
lies below the fold, under the bar or under another element fails the walk, naming it.
"""

from __future__ import annotations

WHERE = """(selector) => {
  // the element's box now, and whether a finger at its middle touches it (nothing over it);
  // asked in one go: the drawing is drawn again as the table's events come
  const meant = document.querySelector(selector);
  if (!meant) return null;
  const r = meant.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return { x: r.left, y: r.top, width: r.width, height: r.height, scrolled: window.scrollY,
    touched: Boolean(hit && (meant === hit || meant.contains(hit))) };
}"""
"""Where an element is on the screen, and whether a tap at its middle reaches it."""


class Finger:
    """Taps what is on the screen, and only that: fails naming the element out of view."""

    def __init__(self, page, viewport: dict) -> None:
        self.page, self.view = page, viewport

    def tap(self, selector: str) -> None:
        """Tap the middle of the element once it is drawn, if it is in view."""
        self.page.wait_for_selector(selector, state="visible", timeout=30_000)
        box = self.page.evaluate(WHERE, selector)
        width, height = self.view["width"], self.view["height"]
        assert box is not None, f"{selector} is gone at {width}x{height}"
        assert box["scrolled"] == 0, f"the page scrolled ({selector}): {box}"
        inside = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width \
            and box["y"] + box["height"] <= height
        assert inside, f"{selector} is out of view at {width}x{height}: {box}"
        assert box["touched"], f"{selector} is covered at {width}x{height}: {box}"
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def act(self, selector: str) -> None:
        """Tap, then wait for the hands' act it makes to be answered."""
        acts = int(self.page.get_attribute("#hands", "data-acts") or 0)
        self.tap(selector)
        self.page.wait_for_function(
            f"() => Number(document.getElementById('hands').dataset.acts || 0) > {acts}",
            timeout=30_000)
