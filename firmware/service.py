"""The table service: one loop between the devices and the game.

Sensor snapshots (from the link's thread) and button events (from gpiozero's
thread) are put on one queue; a single loop takes them in order, feeds the
game, ticks its clock at the next deadline, and redraws the LEDs when the
picture changed. Nothing else touches the game, so no locks are needed.
Under systemd the loop also reports readiness and feeds the watchdog.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable

from hardware.devices import TableDevices
from hardware.sensors import Snapshot

log = logging.getLogger(__name__)


def sd_notify(message: str) -> bool:
    """Tell systemd something (READY=1, WATCHDOG=1); False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(message.encode(), address)
        return True
    except OSError as exc:
        log.warning("could not notify systemd: %s", exc)
        return False


def watchdog_period_s() -> float | None:
    """Half the watchdog interval systemd asked for, or None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    return int(usec) / 2_000_000 if usec and usec.isdigit() else None


class TableService:
    """Runs a game's table (``TowersTable``, ``StonesTable``) on a table's devices.

    ``view_of`` turns a sensor snapshot into the view that game compares.
    """

    def __init__(self, devices: TableDevices, table, view_of: Callable[[Snapshot], object],
                 clock: Callable[[], float] = time.monotonic, *, frame_s: float = 0.05) -> None:
        self.devices = devices
        self.table = table
        self.view_of = view_of
        self.clock = clock
        self.frame_s = frame_s
        self.events: queue.Queue = queue.Queue()
        self.stopping = threading.Event()
        self._last_frame: dict | None = None
        devices.link.on_snapshot = lambda snap: self.events.put(("snapshot", snap))
        devices.buttons.on_event = lambda event: self.events.put(("button", event))
        table.beep = devices.buttons.beep
        table.settler.confirm = self._reread
        self._rings = max((n for kind, _, n in devices.leds.parts() if kind == "ring"),
                          default=0)

    def run(self) -> None:
        """The loop; returns when ``stopping`` is set or the game is over and shown."""
        with self.table.lock:
            self.table.start(self.clock())
        snapshot = self.devices.link.snapshot()
        if snapshot is not None:
            self.events.put(("snapshot", snapshot))
        sd_notify("READY=1")
        watchdog = watchdog_period_s()
        next_pat = time.monotonic()
        while not self.stopping.is_set():
            now = self.clock()
            deadline = self.table.next_deadline()
            wait = self.frame_s if deadline is None else min(self.frame_s, max(0.0, deadline - now))
            try:
                kind, item = self.events.get(timeout=wait)
            except queue.Empty:
                kind, item = None, None
            now = self.clock()
            with self.table.lock:
                if kind == "snapshot":
                    self.table.on_view(self.view_of(item), now)
                elif kind == "button":
                    self.table.on_button(item, now)
                self.table.tick(now)
                self._draw(now)
            if watchdog is not None and time.monotonic() >= next_pat:
                sd_notify("WATCHDOG=1")
                next_pat = time.monotonic() + watchdog
        sd_notify("STOPPING=1")

    def _reread(self):
        """After a settle, read the whole table again before deciding anything."""
        snapshot = self.devices.link.fresh_snapshot(timeout=0.5)
        return None if snapshot is None else self.view_of(snapshot)

    def _draw(self, now: float) -> None:
        frame = self.table.led_frame(now, self._rings)
        if frame == self._last_frame:
            return
        leds = self.devices.leds
        last = self._last_frame or {}
        for key, colour in frame.items():
            if last.get(key) == colour:
                continue
            try:
                leds[key] = colour
            except (KeyError, IndexError):
                continue  # this table has no such LED
        leds.show()
        self._last_frame = frame
