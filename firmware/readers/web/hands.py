"""``/hands``: a person's hands on the simulated table, from the page.

Only a simulated table has hands: its board process (``firmware.sim.hands_board``)
serves ``hands.sock`` in the state directory, and the service's mock
buttons ``buttons.sock`` (``firmware.sim.fingers``). Where neither is there, the
answer is a 404 in words and the page shows no hands panel.

| request | answer |
|---|---|
| ``GET /hands`` | what is on the table (``table``) and the game's last ``observation`` |
| ``POST /hands`` ``{"act": ...}`` | the act done, the table after it (or why not) |
| ``POST /hands`` ``{"press": "A", "hold": false}`` | a finger on a table button |

A POST needs what the page's controls need
(``firmware.readers.web.controls.session_refusal``): the table's PIN, a session made with it
and its token in the header, so a guest on the network watches but moves nothing; with no
PIN (``obelisk play`` prints it once the table made it) no one does.
Looking needs the session too: the hands' view holds what the page never
shows before the end (each player's High Rise pyramids left, by size), so a
guest sees the game as the page shows it, and no hands panel.
A request from anywhere but this server's own page (its Host, its Origin, a body that
is not ``application/json``) is refused before anything, by the one check of every handler
that takes a body (``firmware.readers.web.origin``).
Each act changes only the simulated sensors; the table sees it as it would
see wooden pieces.

The hands see the physical board (the simulated table's switches are 8x8);
the game may use part of it (stones on 6x4). A look carries the game's last
observation, as the page's reader of the table last had it, so the panel
draws the game's own board from its first frame, not the switches' whole one.
"""

from __future__ import annotations

import logging
from pathlib import Path

import tornado.ioloop

from firmware.readers.web.controls import GUEST, Sessions, session_refusal
from firmware.readers.web.follow import KeptEvent
from firmware.readers.web.safe import JsonHandler
from hardware.sim.line_socket import LineSocketError, ask

log = logging.getLogger("obelisk.web")

HANDS = "hands.sock"
BUTTONS = "buttons.sock"
NO_ANSWER = ("the simulated table's hands do not answer: is `obelisk play` still running? If "
             "it is, try again in a moment")
NOT_SIMULATED = ("this table has no simulated hands: they come with `obelisk play GAME`, "
                 "where the simulated board runs")


class HandsPanel(JsonHandler):
    """The hands panel's one address: look (GET), act or press (POST)."""

    def initialize(self, state_dir: Path, controls: Sessions) -> None:
        self.state_dir = state_dir
        self.controls = controls

    def words(self, status_code: int) -> str:
        if status_code == 405:
            return "the hands look with GET and act with POST"
        return super().words(status_code)

    def _refused(self, looking: bool = False) -> str | None:
        """Only a page with the PIN's session and token moves pieces, and only one with its
        session looks at them; with no PIN, no one."""
        refused = session_refusal(self, self.controls, looking=looking)
        return f"{refused} (the hands too)" if refused == GUEST else refused

    async def _ask(self, socket_name: str, request: dict) -> dict | None:
        """The hands' (or buttons') answer, or None once refused in words."""
        path = self.state_dir / socket_name
        if not path.exists():
            self.refuse(404, NOT_SIMULATED)
            return None
        loop = tornado.ioloop.IOLoop.current()
        try:
            return await loop.run_in_executor(None, ask, path, request)
        except LineSocketError as exc:  # its words name a socket: the log's, not a person's
            log.warning("the hands did not answer: %s", exc)
            self.refuse(503, NO_ANSWER)
            return None

    async def get(self) -> None:
        refused = self._refused(looking=True)
        if refused:
            self.refuse(403, refused)
            return
        answer = await self._ask(HANDS, {"act": "look"})
        if answer is None:
            return
        seen = await self._observation()
        self.answer(200, answer if seen is None else {**answer, "observation": seen})

    async def _observation(self) -> dict | None:
        """The game's position as the table last told the page's reader (None: not yet)."""
        follower = self.settings.get("follower")
        if follower is None:
            return None
        await follower.known()  # a page opened at once: the table's first word, if it comes
        return last_observation(follower.kept)

    async def post(self) -> None:
        refused = self._refused()
        if refused:
            self.refuse(403, refused)
            return
        request = self.body()
        if request is None:
            return
        wrong = malformed(request)
        if wrong:
            self.refuse(400, wrong)
            return
        if "press" in request:
            answer = await self._ask(BUTTONS, {"button": request["press"],
                                               "hold": bool(request.get("hold"))})
        else:
            answer = await self._ask(HANDS, request)
        if answer is not None:
            self.answer(200, answer)


def last_observation(kept: list[KeptEvent]) -> dict | None:
    """The newest observation among the events kept for late pages (they begin with the
    table's whole state, so one is there once the table has answered)."""
    for one in reversed(kept):
        seen = one.event.get("observation")
        if isinstance(seen, dict):
            return seen
    return None


def malformed(request: dict) -> str | None:
    """What is wrong with an act's shape, in words (None: the hands may judge it).

    The hands judge what an act means (a square off the board, a piece not
    there); what is not even of an act's shape is refused here: the act or
    button must be a name, a hold yes or no, a ``setup``'s ``options`` (the
    game's, as the table's status names them) names and short plain values.
    """
    if "press" in request:
        if not isinstance(request["press"], str) or len(request["press"]) > 20:
            return "press names a button, like {\"press\": \"A\"}"
        if not isinstance(request.get("hold", False), bool):
            return "hold is true or false"
        return None
    act = request.get("act")
    if not isinstance(act, str) or not act or len(act) > 40:
        return "an act is named in words, like {\"act\": \"take\", \"seat\": \"A\"}"
    if "options" in request and not _plain(request["options"]):
        return "the options are an object of names and short values, like {\"rows\": 6}"
    return None


def _plain(options: object) -> bool:
    """A game's options as the table's status says them: a few names, each a short plain
    value (a number, words, yes or no, or none)."""
    return isinstance(options, dict) and len(options) <= 20 and all(
        isinstance(k, str) and len(k) <= 40 and type(v) in (str, int, float, bool, type(None))
        and len(str(v)) <= 40 for k, v in options.items())


def routes(state_dir: str | Path, controls: Sessions) -> list:
    """The hands' routes, for ``make_app``: looks and acts need the PIN's session."""
    return [(r"/hands", HandsPanel, {"state_dir": Path(state_dir), "controls": controls})]
