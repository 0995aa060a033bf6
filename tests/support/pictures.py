"""The pictures of the pages under docs/pages/, drawn by the one-board walks mid-game.

Each game's walk alone against the computer draws its page once, at the moment the
computer's move is asked (lit on the board, the bar holding what the turn asks), at a
phone's size and on a laptop. A plain run writes them under the test's own directory and
leaves the checkout as it was; ``OBELISK_DRAW_DOCS=1`` writes them into docs/pages/.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.support import ROOT
from tests.support.browser import LAPTOP, PHONE

DOCS = ROOT / "docs" / "pages"
"""Where the README and docs/playing.md find the pages' pictures."""

SIZES = {(PHONE["width"], PHONE["height"]): "phone", (LAPTOP["width"], LAPTOP["height"]): "laptop"}
"""The screens a picture is drawn at, by the name its file carries."""


class Pictures:
    """One picture of a game's page at a walk's screen, drawn the first time it is asked."""

    def __init__(self, game: str, viewport: dict, elsewhere: Path) -> None:
        size = SIZES.get((viewport["width"], viewport["height"]))
        where = DOCS if os.environ.get("OBELISK_DRAW_DOCS") else elsewhere
        self.path = where / f"{game}-{size}.png" if size else None
        self.drawn = False

    def draw(self, page) -> None:
        """The page as it stands, once (a screen with no picture of its own: nothing)."""
        if self.path is None or self.drawn:
            return
        page.wait_for_selector("#drawing [data-lit]", timeout=30_000)  # the lit square in it
        self.path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(self.path))
        assert self.path.stat().st_size > 0
        self.drawn = True
