"""What the stones, High Rise and maze tables share: settled views in, repairs shown.

Each game's table is a ``transitions`` model; this base holds the plumbing
that does not depend on the game: the machine itself, a sensor view fed to
the settler, a settled one handed to the game's ``_decide`` once, the
service told when to wake, and a problem shown and waited out in ``repair``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from transitions import Machine

from firmware.settle import Settler

V = TypeVar("V")


class BoardTable(Generic[V]):
    """Settling and repair plumbing; subclasses give ``STATES``, ``TRANSITIONS``
    (with ``go_wrong`` into "repair") and ``_decide``.

    ``problem`` says what is wrong, ``wrong`` the squares to light red, and
    ``candidates`` what a player may pick with their button.
    """

    def __init__(self, emit: Callable[[dict], None], beep: Callable[[], None],
                 settle_s: float) -> None:
        self.emit = emit
        self.beep = beep
        self.settler: Settler[V] = Settler(settle_s)
        self.view: V | None = None
        self.decided: V | None = None
        self.problem = ""
        self.wrong: tuple[tuple[int, int], ...] = ()
        self.candidates: tuple = ()
        self.lock = threading.RLock()  # the service and the people's hands take turns
        self.machine = Machine(model=self, states=list(self.STATES),
                               transitions=list(self.TRANSITIONS), initial="setup",
                               auto_transitions=False, queued=True)

    def on_view(self, view: V, now: float) -> None:
        """A fresh (unsettled) reading of the board."""
        self.view = view
        self.settler.feed(view, now)

    def tick(self, now: float) -> None:
        """Decide on a view the first time it has held still for the settle time."""
        settled = self.settler.settled(now)
        if settled is not None:
            try:
                self._decide(settled, now)
            finally:
                self.decided = settled

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (for the service's sleep)."""
        return self.settler.deadline()

    def _decide(self, view: V, now: float) -> None:
        raise NotImplementedError

    def _wrong(self, message: str, squares: tuple[tuple[int, int], ...] = ()) -> None:
        """Show what is wrong and record nothing: go to repair, or say a new problem there."""
        changed = message != self.problem
        self.problem = message
        self.wrong = squares
        self.candidates = ()
        if self.state != "repair" and self.may_go_wrong():
            self.go_wrong()
        elif changed:
            self.beep()
            self.emit({"event": "illegal", "message": message})

    def cannot_record(self, message: str) -> None:
        """The journal refused the last action (a full disk): nothing was confirmed.

        The table shows why and waits; the service tries the same reading
        again a little later, so the action is recorded once the disk allows.
        """
        self._wrong(message)

    def on_button_over(self, event) -> bool:
        """After the end, a player's press sets up the next game; True if it did."""
        if self.state == "over" and event.button != "menu" and event.kind == "press":
            self.new_game()
            return True
        return False

    def on_enter_repair(self) -> None:
        self.beep()
        self.emit({"event": "illegal", "message": self.problem})

    def on_enter_play(self) -> None:
        self.problem = ""
