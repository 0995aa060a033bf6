"""The players' buttons and the buzzer, through gpiozero.

One button per player (a press confirms, a hold undoes) and a menu button
(a press opens the menu, a hold pauses). gpiozero calls back on its own
thread; each event is handed to ``on_event`` and also kept in ``events``.
On the simulated table the pins come from gpiozero's ``MockFactory``, and
``press()`` drives them the way a finger would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button, Buzzer
from gpiozero.pins.mock import MockFactory

from hardware.profile import ButtonsConfig

BUTTONS = ("A", "B", "menu")


@dataclass(frozen=True)
class ButtonEvent:
    button: str  # "A", "B" or "menu"
    kind: str  # "press" or "hold"


def make_pin_factory(name: str):
    """The gpiozero pin factory a profile names; None keeps gpiozero's own choice."""
    if name == "mock":
        return MockFactory()
    if name == "default":
        return None
    from gpiozero.pins.lgpio import LGPIOFactory  # real pins only
    from gpiozero.pins.native import NativeFactory
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return {"lgpio": LGPIOFactory, "rpigpio": RPiGPIOFactory, "native": NativeFactory}[name]()


class TableButtons:
    """The three buttons and the buzzer of a table."""

    def __init__(self, config: ButtonsConfig, *, pin_factory=None,
                 on_event: Callable[[ButtonEvent], None] | None = None) -> None:
        self.factory = pin_factory if pin_factory is not None \
            else make_pin_factory(config.pin_factory)
        self.on_event = on_event
        self.events: list[ButtonEvent] = []
        self._lock = threading.Lock()
        pins = {"A": config.player_a, "B": config.player_b, "menu": config.menu}
        self.buttons: dict[str, Button] = {}
        self._held: dict[str, bool] = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, bounce_time=None, hold_time=config.hold_s,
                            pin_factory=self.factory)
            button.when_held = self._handler(name, "hold")
            button.when_released = self._handler(name, "release")
            button.when_pressed = self._handler(name, "down")
            self.buttons[name] = button
            self._held[name] = False
        self.buzzer = Buzzer(config.buzzer, pin_factory=self.factory)
        self.hold_s = config.hold_s

    def _handler(self, name: str, what: str) -> Callable[[], None]:
        def handle() -> None:
            if what == "down":
                self._held[name] = False
            elif what == "hold":
                self._held[name] = True
                self._emit(ButtonEvent(name, "hold"))
            elif not self._held[name]:
                self._emit(ButtonEvent(name, "press"))
        return handle

    def _emit(self, event: ButtonEvent) -> None:
        with self._lock:
            self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def is_pressed(self, name: str) -> bool:
        return self.buttons[name].is_pressed

    def beep(self, times: int = 1, on_s: float = 0.08, off_s: float = 0.08) -> None:
        """Sound the buzzer without waiting for it."""
        self.buzzer.beep(on_time=on_s, off_time=off_s, n=times, background=True)

    def press(self, name: str, *, hold: bool = False) -> None:
        """Simulated table only: a finger presses (and holds) a button, then lets go."""
        pin = self.buttons[name].pin
        if not hasattr(pin, "drive_low"):
            raise RuntimeError("press() drives mock pins; on real hardware press the button")
        pin.drive_low()
        if hold:
            deadline = time.monotonic() + self.hold_s + 2.0
            while not self._held[name] and time.monotonic() < deadline:
                time.sleep(0.005)
        pin.drive_high()

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buzzer.close()


__all__ = ["BUTTONS", "ButtonEvent", "TableButtons", "make_pin_factory"]
