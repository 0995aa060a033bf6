"""What surrounds a table whatever its game: given once, handed on when the game changes."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

Listener = Callable[[dict[str, Any]], None]


def _silent() -> None:
    """No buzzer (a table in a test, a bench)."""


class Surroundings:
    """The lock, the listeners, the buzzer and what the service knows of the devices.

    A table is given this at construction and never wired afterwards; when the page sets
    up another game, the new table is given the same value, so whoever listens, the lock
    the hands take and what is known of the devices carry over as they are.
    """

    def __init__(self, *, listeners: Iterable[Listener] = (),
                 beep: Callable[[], None] = _silent) -> None:
        self.lock = threading.RLock()  # the service and the people's hands take turns
        self.beep = beep
        self._listeners = list(listeners)
        self._muted = 0
        # devices the table cannot use (the service says which), and the board's own figures,
        # as last told (an event)
        self.missing: list[dict[str, Any]] = []
        self.scanner: dict[str, Any] | None = None

    def listen(self, listener: Listener) -> None:
        """Hear every event told from now on (the stream's readers, a demo's screen)."""
        self._listeners.append(listener)

    def tell(self, event: dict[str, Any]) -> None:
        """Hand one event to every listener, in the order they came, unless muted."""
        if not self._muted:
            for listener in tuple(self._listeners):
                listener(event)

    @contextlib.contextmanager
    def muted(self) -> Iterator[None]:
        """Tell nothing meanwhile (a resumed game replays what was told already)."""
        self._muted += 1
        try:
            yield
        finally:
            self._muted -= 1
