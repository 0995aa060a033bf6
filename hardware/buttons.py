"""The players' buttons and the buzzer, through gpiozero.

One button per player (a press confirms, a hold undoes) and a menu button
(a press opens the menu, a hold pauses). gpiozero calls back on its own
thread; each event is handed to ``on_event`` and also kept in ``events``.
On the simulated table the pins come from gpiozero's ``MockFactory``, and
``press()`` drives them the way a finger would.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Buzzer, DigitalInputDevice, Factory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from hardware.pi_models import read_model
from hardware.profile import PIN_FACTORIES, ButtonsConfig, ProfileError

BUTTONS = ("A", "B", "menu")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonEvent:
    button: str  # "A", "B" or "menu"
    kind: str  # "press" or "hold"


class HoldButton(DigitalInputDevice):  # type: ignore[misc]  # gpiozero has no types (Any)
    """A push button to ground: ``when_pressed``, ``when_released``, and ``when_held`` once
    it has been down ``hold_time`` seconds.

    gpiozero's own ``Button`` times its hold on a thread that wakes ten times a
    second for as long as the button exists, so three buttons kept an idle
    table awake 30 times a second. Here a press starts a timer, and letting go
    cancels it: nothing runs while nobody touches the table.
    """

    def __init__(self, pin: str, *, hold_time: float, pin_factory: Factory | None = None) -> None:
        self._timing = threading.Lock()  # first: close() runs even if claiming the pin fails
        self._timer: threading.Timer | None = None
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self.hold_time = hold_time  # read at each press: a demo may shorten it
        self.when_pressed: Callable[[], None] | None = None
        self.when_released: Callable[[], None] | None = None
        self.when_held: Callable[[], None] | None = None
        self.when_activated = self._down
        self.when_deactivated = self._up

    @property
    def is_pressed(self) -> bool:
        return bool(self.is_active)

    def _down(self) -> None:
        timer = threading.Timer(self.hold_time, lambda: self._hold_for(timer))
        timer.daemon = True
        with self._timing:
            self._timer = timer
        if self.when_pressed is not None:
            self.when_pressed()
        timer.start()

    def _hold_for(self, timer: threading.Timer) -> None:
        with self._timing:
            if self._timer is not timer:  # let go (or pressed again) meanwhile
                return
            self._timer = None
        if self.when_held is not None:
            self.when_held()

    def _cancel(self) -> None:
        """Stop timing a hold (let go, or closed)."""
        with self._timing:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    def _up(self) -> None:
        self._cancel()
        if self.when_released is not None:
            self.when_released()

    def close(self) -> None:
        self._cancel()
        super().close()


def on_raspberry_pi() -> bool:
    """True on a Raspberry Pi, judged as setup.sh judges it (the device-tree model)."""
    return read_model() is not None


def _gpio_fix(exc: BaseException) -> str:
    """What to do on a Pi whose pins cannot be claimed, judged from /dev and the install."""
    if ".lgd-nfy" in str(exc) or (isinstance(exc, OSError) and ".lgd-nfy" in str(exc.filename)):
        return (f"lgpio could not make its notification pipe in the working directory "
                f"({os.getcwd()}): run it from a folder you may write to, or set LG_WD=/tmp "
                "(the table's systemd unit does)")
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return ("this Pi shows no GPIO chip (/dev/gpiochip0 is missing): in a container or "
                "chroot, pass the Pi's /dev/gpiochip* in; on the Pi itself, update it (sudo "
                "apt full-upgrade) and reboot")
    if not any(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return (f"no permission to use {chips[0]}: setup.sh adds you to the gpio group; log "
                "out and in again (or reboot)")
    return ("if the table service runs, stop it first (sudo systemctl stop obelisk); else run "
            "./setup.sh on the Pi (it installs lgpio and adds you to the gpio group; log out "
            "and in again after)")


def gpio_error(name: str, exc: BaseException, source: str = "profile",
               tried: tuple[str, ...] = ()) -> ProfileError:
    """Why the pins of pin factory ``name`` cannot be used here, and what to do instead.

    Off a Pi the profile is simply the wrong one (a person tried the reference
    build on a laptop); on a Pi the install, the gpio group or the kernel is at fault.
    """
    key = f"{source}: [buttons] pin_factory = {name!r}"
    if name == "default":
        key += " (gpiozero's own choice; also what a profile without pin_factory gets)"
    reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if tried:  # what each factory gpiozero fell back from said
        reason += " (" + "; ".join(tried) + ")"
    if not on_raspberry_pi():
        return ProfileError(
            f"{key} needs a Raspberry Pi's GPIO pins, and this machine is not a Raspberry Pi "
            f"({reason}); run this profile on the table's Pi, and here use --profile sim "
            "(or --profile sim-maze for the maze)")
    fix = ("run ./setup.sh on the Pi (it installs lgpio)" if isinstance(exc, ImportError)
           else _gpio_fix(exc))
    others = [f for f in PIN_FACTORIES if f not in (name, "mock")]
    return ProfileError(
        f"{key}: the Pi's GPIO pins cannot be used ({reason}); {fix}; or pick another "
        f"pin_factory: {', '.join(others)}")


def make_pin_factory(name: str, source: str = "profile") -> Factory | None:
    """The gpiozero pin factory a profile names; None keeps gpiozero's own choice.

    Raises ProfileError, never ImportError or gpiozero's errors, when the
    pins are not there (off a Pi, or lgpio not installed).
    """
    if name == "mock":
        return MockFactory()
    if name == "default":
        return None
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory as factory  # real pins only
        elif name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory as factory
        else:
            from gpiozero.pins.native import NativeFactory as factory
        return factory()
    except Exception as exc:  # ImportError, gpiozero's PinError, lgpio.error: all mean no pins
        raise gpio_error(name, exc, source) from None


class TableButtons:
    """The three buttons and the buzzer of a table."""

    def __init__(self, config: ButtonsConfig, *, pin_factory: Factory | None = None,
                 on_event: Callable[[ButtonEvent], None] | None = None,
                 source: str = "profile") -> None:
        """``source`` names the profile in errors, as ``Profile.source`` does."""
        self.factory = pin_factory if pin_factory is not None \
            else make_pin_factory(config.pin_factory, source)
        self.on_event = on_event
        self.events: list[ButtonEvent] = []
        self._lock = threading.Lock()
        pins = {"A": config.player_a, "B": config.player_b, "menu": config.menu}
        self.buttons: dict[str, HoldButton] = {}
        self._held: dict[str, bool] = {}
        self.buzzer: Buzzer | None = None
        # gpiozero warns once per factory it falls back from: say it in the error instead.
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always", PinFactoryFallback)
            self._claim(pins, config, source, fallbacks)
        for warning in fallbacks:
            log.info("gpiozero: %s", warning.message)
        # The factory in use, also when gpiozero chose it: the gpio-only board needs it.
        self.factory = self.buttons["A"].pin_factory
        self.hold_s = config.hold_s

    def _claim(self, pins: dict[str, str], config: ButtonsConfig, source: str,
               fallbacks: list[warnings.WarningMessage]) -> None:
        try:
            for name, pin in pins.items():
                button = HoldButton(pin, hold_time=config.hold_s, pin_factory=self.factory)
                button.when_held = self._handler(name, "hold")
                button.when_released = self._handler(name, "release")
                button.when_pressed = self._handler(name, "down")
                self.buttons[name] = button
                self._held[name] = False
            self.buzzer = Buzzer(config.buzzer, pin_factory=self.factory)
        except Exception as exc:  # gpiozero's default factory fails only here (BadPinFactory)
            self.close()
            if isinstance(self.factory, MockFactory):
                raise  # simulated pins: a bug, not the machine
            tried = tuple(str(w.message).removeprefix("Falling back from ")
                          for w in fallbacks if issubclass(w.category, PinFactoryFallback))
            raise gpio_error(config.pin_factory, exc, source, tried) from None

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
        if self.buzzer is None:  # only buttons whose pins could not all be claimed
            raise RuntimeError("the buzzer's pin was never claimed")
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
        for device in (*self.buttons.values(), self.buzzer):
            if device is not None:
                with contextlib.suppress(Exception):  # closing must not hide why we stop
                    device.close()


__all__ = ["BUTTONS", "ButtonEvent", "HoldButton", "TableButtons", "gpio_error", "make_pin_factory",
           "on_raspberry_pi"]
