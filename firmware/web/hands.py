"""``/hands``: a person's hands on the simulated table, from the page.

Only a simulated table has hands: its board process (``hardware.sim_board``)
serves ``hands.sock`` in the state directory, and the service's mock
buttons ``buttons.sock`` (``firmware.fingers``). Where neither is there, the
answer is a 404 in words and the page shows no hands panel.

| request | answer |
|---|---|
| ``GET /hands`` | what is on the table: ``{"ok": true, "table": {...}}`` |
| ``POST /hands`` ``{"act": ...}`` | the act done, the table after it (or why not) |
| ``POST /hands`` ``{"press": "A", "hold": false}`` | a finger on a table button |

Once the table has a PIN (``obelisk play`` prints it), a POST needs what the
page's controls need (``firmware.web.controls.refusal``): a PIN's session and
its token in the header, so a guest on the network watches but moves nothing.
Looking needs the session too: the hands' view holds what the page never
shows before the end (each player's High Rise pyramids left, by size), so a
guest sees the game as the page shows it, and no hands panel.
A POST must be ``application/json``: a form on another site cannot send
that without the browser asking first, so no other page acts for a person.
Each act changes only the simulated sensors; the table sees it as it would
see wooden pieces.
"""

from __future__ import annotations

import json
from pathlib import Path

import tornado.ioloop
import tornado.web

from firmware.pin import PinError, read_pin
from firmware.web.controls import COOKIE, GUEST, Controls, refusal
from hardware.line_socket import LineSocketError, ask

HANDS = "hands.sock"
BUTTONS = "buttons.sock"
NOT_SIMULATED = ("this table has no simulated hands: they come with `obelisk play GAME`, "
                 "where the simulated board runs")


class Hands(tornado.web.RequestHandler):
    """The hands panel's one address: look (GET), act or press (POST)."""

    def initialize(self, state_dir: Path, headers: dict, controls: Controls | None = None) -> None:
        self.state_dir = state_dir
        self.headers = headers
        self.controls = controls

    def _refused(self, looking: bool = False) -> str | None:
        """Once the table has a PIN, only a page with its session and token moves pieces, and
        only one with its session looks at them."""
        if self.controls is None:
            return None
        try:
            pin = read_pin(self.state_dir)
        except PinError as exc:
            return str(exc)
        if pin is None:
            return None
        if looking:
            found = self.controls.session(self.get_cookie(COOKIE))
            return None if found is not None else f"{GUEST} (the hands too)"
        refused = refusal(self, self.controls)
        return None if refused is None else f"{refused} (the hands too)"

    def set_default_headers(self) -> None:
        for name, value in getattr(self, "headers", {}).items():
            self.set_header(name, value)
        self.set_header("Cache-Control", "no-cache")

    def write_error(self, status_code: int, **kwargs: object) -> None:
        self._json({"ok": False, "error": str(getattr(self, "_reason", "error")).lower()})

    def _json(self, data: dict) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data) + "\n")

    async def _ask(self, socket_name: str, request: dict) -> None:
        path = self.state_dir / socket_name
        if not path.exists():
            self.set_status(404)
            self._json({"ok": False, "error": NOT_SIMULATED})
            return
        loop = tornado.ioloop.IOLoop.current()
        try:
            answer = await loop.run_in_executor(None, ask, path, request)
        except LineSocketError as exc:
            self.set_status(503)
            self._json({"ok": False, "error": f"{exc}"})
            return
        self._json(answer)

    async def get(self) -> None:
        refused = self._refused(looking=True)
        if refused:
            self.set_status(403)
            self._json({"ok": False, "error": refused})
            return
        await self._ask(HANDS, {"act": "look"})

    async def post(self) -> None:
        kind = self.request.headers.get("Content-Type", "").split(";")[0].strip()
        if kind != "application/json":
            self.set_status(415)
            self._json({"ok": False, "error": "send the act as application/json"})
            return
        refused = self._refused()
        if refused:
            self.set_status(403)
            self._json({"ok": False, "error": refused})
            return
        try:
            request = json.loads(self.request.body or b"null")
        except ValueError:
            request = None
        if not isinstance(request, dict):
            self.set_status(400)
            self._json({"ok": False, "error": "an act is one JSON object"})
            return
        if "press" in request:
            await self._ask(BUTTONS, {"button": request["press"],
                                      "hold": bool(request.get("hold"))})
            return
        await self._ask(HANDS, request)


def routes(state_dir: str | Path, headers: dict, controls: Controls | None = None) -> list:
    """The hands' routes, for ``make_app``; with ``controls``, acts need a PIN's session."""
    return [(r"/hands", Hands, {"state_dir": Path(state_dir), "headers": headers,
                                "controls": controls})]
