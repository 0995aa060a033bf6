"""``obelisk diag``: every sensor live, the link's health, and an LED test.

For building and repairing a table: the towers as 3x3x9 grids, the board
squares, the load cells, the buttons, the scanner link's counters, the scan
and load-cell periods the scanner board measured of itself (its STATUS: the
one true figure for a table), and each logical LED lit in turn. On the sim
profile a demo hand moves pieces on the simulated table so the view can be
seen changing.

While the table service runs it holds the devices (the scanner's port, the
buttons' pins, and the LED pin, which a Pi 5 lets only one process open), so
diag asks it instead, over its command socket: the service lights each LED
in turn over the game's picture and answers with the same screen of its own
devices. Nothing has to be stopped to test a table.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.core.palette import LED_TEST as _LIT
from firmware.core.palette import OFF as _OFF
from firmware.service.command_socket import ControlUnavailable, running_tables, send
from firmware.store.state_dir import dir_words, table_dirs
from hardware.devices import TableDevices, open_table
from hardware.profile import Profile, load_profile
from hardware.readout import render

if TYPE_CHECKING:
    from hardware.sim.table import SimTable


class _DemoHand(threading.Thread):
    """Moves pieces on the simulated table so the view shows something happening."""

    def __init__(self, devices: TableDevices, period_s: float = 1.0) -> None:
        super().__init__(name="demo-hand", daemon=True)
        self.devices = devices
        self.period_s = period_s
        self.halt = threading.Event()

    def run(self) -> None:
        sim = self.devices.sim
        assert sim is not None
        for step in itertools.cycle(self._round(sim)):
            if self.halt.wait(self.period_s):
                return
            step()

    @staticmethod
    def _round(sim: SimTable) -> tuple[Callable[[], None], ...]:
        """The hand's round, one step a period; a step for a part this layout lacks (a
        second tower, squares, load cells) only waits its turn."""
        towers, squares, loads = sim.layout["towers"], sim.layout["rows"], sim.layout["loads"]

        def when(there: object, step: Callable[[], None]) -> Callable[[], None]:
            return step if there else (lambda: None)

        def clear() -> None:
            for t in range(towers):
                sim.lift(t, sim.cubes[t])

        return (
            when(towers > 0, lambda: sim.place(0, {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0),
                                                   (0, 2, 0)})),
            when(towers > 1, lambda: sim.place(1, {(1, 0, 0), (1, 1, 0), (1, 2, 0)})),
            when(squares, lambda: sim.put((3, 4))),
            when(loads, lambda: sim.weigh(0, 25.0)),
            when(towers > 0, lambda: sim.place(0, {(2, 0, 0), (2, 1, 0), (2, 2, 0),
                                                   (1, 2, 0)})),
            lambda: sim.take((3, 4)),
            when(loads, lambda: sim.weigh(0, 0.0)),
            clear,
        )


def led_note(key: tuple | list, chain: int, pixel: int, where: str = "") -> str:
    """The LED test's line: which LED is lit, and where it sits on its chain."""
    label = " ".join(str(k) for k in key if k != "")
    return f"LED test{where}: {label} lit (chain {chain}, pixel {pixel})"


EXIT_PERSON = 2
"""diag was told something it cannot do: a person must act (as ``firmware.cli`` ends so)."""
HEADLINE = re.compile(r"obelisk diag: profile (.+?) \((?:simulated table|scanner on .*)\)")
"""The first line of ``render``'s screen, naming the profile of the devices shown."""


def run_diag(profile_name: str | None, *, once: bool = False, seconds: float | None = None,
             led_test: bool = True, demo: bool = True, refresh_s: float = 0.25,
             state_dir: str | Path | None = None) -> int:
    """The diag loop; returns the exit status.

    diag does what it was told, and says on stderr what that was: ``state_dir`` (typed
    --state-dir) asks the table service running there, and ``profile_name`` (typed
    --profile) opens that profile's devices here; only with neither does it look for a
    running table (the first of ``state_dir.table_dirs`` that answers), else it opens the
    simulated table. A running service is asked rather than opened because it holds the
    devices (see the module's docstring).

    A reader that goes away (``obelisk diag | head``) ends it like Ctrl-C does: devices
    closed, status 0, no traceback.
    """
    if state_dir is not None:
        return _named_service(Path(state_dir), profile_name, once=once, seconds=seconds,
                              led_test=led_test, refresh_s=refresh_s)
    if profile_name is None:
        places = table_dirs()
        found = list(running_tables(places, {"command": "diag"}))
        if found:
            others = "".join(f"; another runs on {p} (obelisk diag --state-dir {p})"
                             for p in found[1:])
            _say(f"the table running on {found[0]} ({dir_words(found[0])}){others}")
            return _through_service(found[0], once=once, seconds=seconds, led_test=led_test,
                                    refresh_s=refresh_s)
        profile_name = "sim"
        listed = ", ".join(str(p) for p in places)
        said = (f"no table is running (none answers in {listed}), so the simulated table: "
                "profile sim (--profile names another)")
    else:
        said = (f"profile {profile_name}, its devices opened here as --profile says (a table "
                "running on them holds them: give its --state-dir to ask it instead)")
    return _on_devices(load_profile(profile_name), said, once=once, seconds=seconds,
                       led_test=led_test, demo=demo, refresh_s=refresh_s)


def _say(words: str) -> None:
    print(f"obelisk diag: {words}", file=sys.stderr, flush=True)


def _named_service(where: Path, profile_name: str | None, **view: Any) -> int:
    """diag given --state-dir: the service running there, asked (given --profile too, only
    if it runs that profile); none running there is said, with what to type."""
    try:
        screen = str(send(where, {"command": "diag"}, timeout=2.0).get("screen", ""))
    except ControlUnavailable:
        _say(f"no table service answers on {where}: start the table there (obelisk run "
             f"--state-dir {where}), or give --profile alone to open a profile's devices here")
        return EXIT_PERSON
    if profile_name is not None:
        wanted = load_profile(profile_name).name
        match = HEADLINE.match(screen)
        runs = match.group(1) if match else "another"
        if runs != wanted:
            _say(f"the table service on {where} runs profile {runs}, not {wanted}: give "
                 "--state-dir alone to ask it, or --profile alone to open that profile's "
                 "devices here (with the table stopped, as it holds them)")
            return EXIT_PERSON
    _say(f"the table running on {where}, as --state-dir named it")
    return _through_service(where, **view)


def _on_devices(profile: Profile, said: str, *, once: bool, seconds: float | None,
                led_test: bool, demo: bool, refresh_s: float) -> int:
    """diag on a profile's devices, opened here; ``said`` once they are (a profile that
    cannot open here is refused in its one line)."""
    # On a Pi, what works is tested and what does not is said (the service may hold the
    # buttons' pins, the scanner may not be plugged in yet): the LEDs light all the same.
    devices = open_table(profile, tolerant=True)
    _say(said)
    hand = None
    if profile.simulated and demo and not once:
        hand = _DemoHand(devices)
        hand.start()
    leds = itertools.cycle(list(devices.leds.keys())) if led_test else None
    try:
        devices.link.wait_for(lambda s: True, timeout=3.0)
        if once:  # a board just started has measured nothing until its second heartbeat
            _wait_for_figures(devices, timeout=1.5)
        return _show(lambda: (render(devices, _light_next(devices, leds)), devices.link.synced),
                     once=once, seconds=seconds, refresh_s=refresh_s)
    finally:
        _put_away(devices, hand)


class _DiagEnds(Exception):
    """diag cannot go on (the service stopped answering); the words went to stderr."""


def _show(next_view: Callable[[], tuple[str, bool]], *, once: bool, seconds: float | None,
          refresh_s: float) -> int:
    """Each view in turn (cleared in place on a terminal) until the time is up, or once: 0
    when the board was synced at the last; Ctrl-C 130; a reader that went away, quietly 0."""
    live = sys.stdout.isatty() and not once
    end = None if seconds is None else time.monotonic() + seconds
    try:
        while True:
            screen, synced = next_view()
            print(("\x1b[H\x1b[2J" if live else "") + screen, flush=True)
            if once or (end is not None and time.monotonic() >= end):
                return 0 if synced else 1
            if not live:
                print()
            time.sleep(refresh_s)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _stdout_to_devnull()
        return 0
    except _DiagEnds:
        return 1


def _light_next(devices: TableDevices, leds: Iterator | None) -> str:
    """The next LED lit alone, and the words saying which it is ("" with no LED test)."""
    if leds is None:
        return ""
    key = next(leds)
    devices.leds.fill(_OFF)
    devices.leds[key] = _LIT
    devices.leds.show()
    return led_note(key, *devices.leds.locate(key))


def _put_away(devices: TableDevices, hand: _DemoHand | None) -> None:
    """The demo hand stopped, the LEDs dark and the devices closed, however diag ended."""
    if hand is not None:
        hand.halt.set()
    devices.leds.fill(_OFF)
    devices.leds.show()
    devices.close()


def _through_service(directory: Path, *, once: bool, seconds: float | None, led_test: bool,
                     refresh_s: float) -> int:
    """diag asked of the running service: its screen, and each LED lit in turn by it."""
    where = f" through the table service on {directory}"
    steps = itertools.count()

    def view() -> tuple[str, bool]:
        ask: dict = {"command": "diag"}
        if led_test:
            ask["led"] = next(steps)
        try:
            answer = send(directory, ask)
        except ControlUnavailable as exc:
            print(f"obelisk diag: the table service stopped answering ({exc}); run "
                  "`obelisk diag` again", file=sys.stderr)
            raise _DiagEnds from None
        if not answer.get("ok"):
            print(f"obelisk diag: the table service refused: {answer.get('error')}",
                  file=sys.stderr)
            raise _DiagEnds
        lit = answer.get("lit")
        note = led_note(lit["led"], lit["chain"], lit["pixel"], where) if lit else \
            f"LED test: none ({'--no-led-test' if not led_test else 'no LEDs'}){where}"
        return f"{answer['screen']}\n{note}", bool(answer.get("synced"))

    try:
        return _show(view, once=once, seconds=seconds, refresh_s=refresh_s)
    finally:
        if led_test:  # the game's picture back at once, not in LED_TEST_S
            with contextlib.suppress(ControlUnavailable):
                send(directory, {"command": "diag"}, timeout=2.0)


def _wait_for_figures(devices: TableDevices, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while devices.link.health.board_status is None and time.monotonic() < deadline:
        time.sleep(0.05)


def _stdout_to_devnull() -> None:
    """Our reader is gone: later writes, and the interpreter's last flush, go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is no real file (a test's capture): nothing will flush it to a pipe
