"""A finger on the simulated table's buttons, for the page's hands.

On the simulated table the buttons are gpiozero's mock pins inside the
service. So that a person with no table can press them too, the service
(only with mock pins) serves ``buttons.sock`` in its state directory: one
JSON object a line, ``{"button": "A"|"B"|"menu", "hold": false}``, answered
once the finger has let go. A press here is exactly a press of the table's
button: the same pin, the same events, the same rules and journal.
"""

from __future__ import annotations

from pathlib import Path

from hardware.buttons import BUTTONS, TableButtons
from hardware.profile import Profile
from hardware.sim.line_socket import LineServer

SOCKET = "buttons.sock"
"""The finger's socket, in the state directory."""


def serve_fingers(buttons: TableButtons, profile: Profile,
                  state_dir: str | Path) -> LineServer | None:
    """Listen for presses on the simulated buttons; None on a table with real buttons."""
    if profile.buttons.pin_factory != "mock":
        return None

    def answer(request: dict) -> dict:
        name = request.get("button")
        if name not in BUTTONS:
            return {"ok": False, "error": f"there is no button {name!r}: the buttons are "
                    f"{', '.join(BUTTONS)}"}
        buttons.press(name, hold=bool(request.get("hold")))
        return {"ok": True}

    return LineServer(Path(state_dir) / SOCKET, answer).open()
