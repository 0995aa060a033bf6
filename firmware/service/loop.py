"""The table service: one loop between the devices and the game.

Sensor snapshots (from the link's thread) and button events (from gpiozero's
thread) are put on one queue; a single loop takes them in order, feeds the
game, ticks its clock at the next deadline, and redraws the LEDs when the
picture changed. The loop holds the table's lock while it does, so that
whoever else looks at the table (a demo's hands) sees it between events.
Under systemd the loop also reports readiness and feeds the watchdog
(``notify``), but only while it and the scanner link's reader are alive: a
service that can no longer see the board stops, and systemd starts it again.
Over the game's LED frame it lays the PIN and diag's LED test (``overlays``).

When the journal cannot take an action (a full disk), nothing is confirmed:
the table shows why and waits, and the loop tries the same reading again
every few seconds until the disk allows it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.service import notify
from firmware.service.collector import collect_young
from firmware.service.diag_answer import diag_answer
from firmware.service.overlays import LedTest, PinShow, UnseenBoard
from firmware.store.journal import JournalError
from hardware.buttons import ButtonEvent
from hardware.devices import TableDevices
from hardware.link import CHECK_BOARD
from hardware.sensors import BoardStatus, Snapshot
from hardware.trouble import Missing

log = logging.getLogger(__name__)

RETRY_S = 3.0
"""After the journal refused an action, how long (table time) before trying again."""
ASK_EARLY_S = 0.01
"""Real seconds before a settle window closes that the whole board is asked for again: a
board answers within a scan or two, so its answer is back when the window closes."""
ASK_EARLY_SHARE = 0.1
"""...but never earlier than the window's last tenth: the answer must still show the reading
held (a demo's fast clock makes 10 ms longer than a whole window; asked at its start, a
transient whose put-back frame was lost would pass)."""


class LinkDeadError(RuntimeError):
    """The scanner link's reader stopped: the service cannot see the board any more."""


class _Stopping(threading.Event):
    """The stop flag; setting it also wakes the loop from its sleep."""

    def __init__(self, wake: Callable[[], None]) -> None:
        super().__init__()
        self._wake = wake

    def set(self) -> None:
        super().set()
        self._wake()


class TableService:
    """Runs a game's table (``TowersTable``, ``StonesTable``) on a table's devices.

    ``view_of`` turns a sensor snapshot into the view that game compares; ``stream``
    (a ``firmware.service.stream.EventStream``, if any) publishes the table's events, each after
    the LED frame it changed, and follows each table swapped in.
    """

    def __init__(self, devices: TableDevices, table, view_of: Callable[[Snapshot], object],
                 clock: Callable[[], float] = time.monotonic, *, rate: float = 1.0,
                 stream=None, pin_dir: Path | None = None) -> None:
        """``pin_dir``: where the table PIN is kept (``load_pin`` reads it once ready)."""
        self.devices = devices
        self.table = table
        self.view_of = view_of
        self.clock = clock
        self.rate = rate  # the table's clock runs this much faster than real time (demos)
        # SimpleQueue: its put takes no lock the loop could hold, so SIGTERM's handler (which
        # runs in the loop's thread, between any two of its steps) may put the stop on it.
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.stopping = _Stopping(lambda: self.events.put(("stop", None)))
        self.wakes = 0  # loop turns, for bench/service.py
        self._last_frame: dict | None = None
        self._told_lights: dict | None = None  # the game's frame as the page last heard it
        self._started = False
        self._retry_at: float | None = None  # when to try recording again
        self._refused = ""  # the journal's last refusal, logged once
        self.unseen = UnseenBoard()  # the rings say so when the board is not seen
        self._asked: tuple[float, int] | None = None  # (settle deadline, the link's ticket)
        # Told after each turn's input is decided (the command socket's runner: what an
        # input agreed to, such as a match's end, is carried out then).
        self.after_input: list[Callable[[float], None]] = []
        self.stream = stream  # stream.EventStream: its events go after the LED frame
        self.on_swap: list[Callable[[object], None]] = []  # told of each new table
        if stream is not None:  # its new readers start from the table now played
            self.on_swap.append(stream.follow)
        # Done in the loop's first turn, just after READY=1: what only comes into use later
        # (the page's command socket, the PIN, the simulated buttons' socket), so that
        # systemd hears the table is ready as soon as it can read the board.
        self.after_ready: list[Callable[[], None]] = []
        devices.link.on_snapshot = lambda snap: self.events.put(("snapshot", snap))
        devices.link.on_unsynced = lambda: self.events.put(("unsynced", None))
        devices.link.on_status = lambda status: self.events.put(("status", status))
        devices.buttons.on_event = lambda event: self.events.put(("button", event))
        self._rings = max((n for kind, _, n in devices.leds.parts() if kind == "ring"),
                          default=0)
        self.pin_show = PinShow({owner: n for kind, owner, n in devices.leds.parts()
                                 if kind == "ring"}, pin_dir)
        self.led_test = LedTest(devices.leds)  # an LED lit by ``obelisk diag``

    def start_table(self) -> None:
        """Resume the journal's game or set up a new one; raises if the journal refuses."""
        with self.table.lock:
            table = self.table
            table.start(self.clock())
            if not table.started and self.stream is not None:  # a new game's setup: a
                self.stream.publish(table.public_state())  # reader that came first hears it
        self._started = True

    def run(self) -> None:
        """The loop; returns when ``stopping`` is set, raises LinkDeadError without a link."""
        if not self._started:
            self.start_table()
        snapshot = self.devices.link.snapshot()  # the link tells only what comes after
        self.events.put(("snapshot", snapshot) if snapshot is not None else ("unsynced", None))
        notify.sd_notify("READY=1")
        watchdog = notify.watchdog_period_s()
        next_pat = time.monotonic()
        try:  # Ctrl-C or a dead link stop the loop too: systemd hears of it either way
            for work in self.after_ready:
                work()
            while not self.stopping.is_set():
                wait = self._sleep(self.clock(), next_pat if watchdog is not None else None)
                try:
                    kind, item = self.events.get(timeout=wait)
                except queue.Empty:
                    kind, item = None, None
                self.wakes += 1
                self._step(kind, item)
                if watchdog is not None and time.monotonic() >= next_pat:
                    notify.sd_notify("WATCHDOG=1")
                    next_pat = time.monotonic() + watchdog
        finally:
            notify.sd_notify("STOPPING=1")
            self._keep_standing()

    def _keep_standing(self) -> None:
        """At the stop: what the journal does not keep (a turn's hourglass), for the resume."""
        with self.table.lock:
            lost = self.table.stopping(self.clock())
        if lost:
            log.warning("%s", lost)

    def _step(self, kind: str | None, item: object) -> None:
        """One wake-up: hand the table what came (a reading, a press), then its timers. A
        reading that has held still is read from the board once more before it counts, and
        that read (up to half a second) is made with the table's lock free."""
        link = self.devices.link
        if not link.alive:
            raise LinkDeadError(f"the scanner link on {link.port} stopped "
                                f"({link.health.last_error or 'no reason given'}); the "
                                "service stops so that it can be started afresh")
        now = self.clock()
        read: tuple[object, object] | None = None
        if kind is None and self._retry_at is None:  # woken for a window that closes: the
            ripe = self.table.settler.ripe(now)  # loop alone moves the settler, so no lock
            if ripe is not None:
                read = (ripe, self._reread())
        ripe = self._locked(now, self._decide, kind, item, now, read,
                            figures=item if kind == "status" else None)
        if ripe is not None:  # ripened by what came (a press, a retry): read it too
            self._locked(now, self._confirm, ripe, self._reread(), now)
        collect_young()

    def _locked(self, now: float, work: Callable[..., Any], *args: Any,
                figures: Any = None) -> Any:
        """``work`` with the table's lock held, then the LEDs (and the board's ``figures``,
        if it sent them); the readers hear of it once the LEDs show it."""
        stream = self.stream
        with self.table.lock:
            if stream is not None:
                stream.hold()
            try:
                done = work(*args)
                self._draw(now)
                self._say_missing()
                if figures is not None:
                    self._say_figures(figures)
                return done
            finally:
                if stream is not None:
                    stream.release()

    def _decide(self, kind: str | None, item: object, now: float,
                read: tuple[object, object] | None = None) -> Any:
        """Hand the table what came (and ``read``: a ripe reading and the board's answer
        when read again), then its timers; a reading that has held still and was not read
        again is returned instead, to be read from the board first (``_confirm``)."""
        try:
            if read is not None:
                self._answer(*read, now)
            self._take(kind, item, now)
            for follow_up in self.after_input:
                follow_up(now)
            if self._retry_at is not None and now >= self._retry_at:
                self._retry_at = None
                self.table.reconsider()  # decide the same reading once more
            if self._retry_at is None:
                ripe = self.table.settler.ripe(now)
                if read is None or ripe is None or ripe != read[0]:  # not just confirmed
                    self._ask_early(now)
                    if ripe is not None:
                        return ripe
                self._tick(now)
        except JournalError as exc:
            self._not_recorded(exc, now)
        return None

    def _take(self, kind: str | None, item: object, now: float) -> None:
        """Hand the table what came: a reading, a press, a command."""
        if kind == "snapshot" and isinstance(item, Snapshot):
            self.table.on_view(self.view_of(item), now)
        elif kind == "button" and isinstance(item, ButtonEvent):
            self._button(item, now)
        elif kind == "control":
            from firmware.service.command_queue import Request  # loaded with the command socket

            if isinstance(item, Request):
                item.carry_out(now)

    def _answer(self, ripe: object, fresh: object, now: float) -> None:
        """The board read again after ``ripe`` held still: the same reading stands (it
        counts at the tick); another starts the clock again; no answer asks again a moment
        later."""
        settler = self.table.settler
        if settler.ripe(now) != ripe:
            return  # moved meanwhile: read again once it ripens
        if fresh is None:
            settler.postpone(now)
        else:
            self.table.settle_on(fresh, now)

    def _confirm(self, ripe: object, fresh: object, now: float) -> None:
        """``_answer``, then the timers: the reading counts now if it stood."""
        self._answer(ripe, fresh, now)
        if self.table.settler.ripe(now) not in (None, ripe):
            return  # another ripened meanwhile: the next wake-up reads it again
        try:
            self._tick(now)
        except JournalError as exc:
            self._not_recorded(exc, now)

    def _tick(self, now: float) -> None:
        self.table.tick(now)
        self._refused = ""

    def _sleep(self, now: float, next_pat: float | None) -> float | None:
        """Real seconds until something is due: a settle, a retry, a game's timer, the next
        LED change, the rings saying the board is not seen, the watchdog. None: nothing is,
        and the loop sleeps until input (a new reading, a press, the link losing the board,
        a stop)."""
        due = [self._retry_at, self.table.led_change(now, self._rings)]
        if self._retry_at is None:  # while the journal refuses, nothing is decided or asked
            due += [self.table.next_deadline(), self._ask_at()]
        waits = [max(0.0, t - now) / self.rate for t in due if t is not None]
        real = time.monotonic()
        if next_pat is not None:
            waits.append(max(0.0, next_pat - real))
        waits += [w for w in (self.unseen.wait(real), self.pin_show.wait(real),
                              self.led_test.wait(real)) if w is not None]
        return min(waits, default=None)

    # ------------------------------------------------------------ the PIN, diag

    def _button(self, event, now: float) -> None:
        """A button to the table; holding the menu button also shows the PIN on the rings."""
        if event.button == "menu" and event.kind == "hold":
            self.pin_show.held()
        self.table.on_button(event, now)

    @property
    def pin(self) -> str | None:
        """The table PIN the menu button's hold shows (None: the table has none)."""
        return self.pin_show.pin

    @property
    def pin_dir(self) -> Path | None:
        """Where the PIN is kept: read again at each hold (``obelisk pin --new``)."""
        return self.pin_show.directory

    def load_pin(self) -> str:
        """The table PIN, read (or made) in ``pin_dir`` (``PinShow.load``)."""
        return self.pin_show.load()

    @property
    def pin_mark(self) -> str:
        """Changes with each hold that shows the PIN (``PinShow.mark``), for the page."""
        return self.pin_show.mark

    def diag(self, led: int | None) -> dict:
        """``obelisk diag`` while this service runs (``firmware.service.diag_answer``)."""
        return diag_answer(self.devices, self.led_test, led)

    def swap_table(self, table, view_of: Callable[[Snapshot], object], now: float) -> None:
        """Play on a fresh table in setup (another game, or the game ended from the page).

        Called in the loop with the table's lock held; the new table was made with the old
        one's surroundings (its lock, listeners, buzzer and what is known of the devices),
        and every reader is given its whole state.
        """
        if table.around is not self.table.around:
            raise ValueError("a table swapped in must be made with the service's surroundings")
        self.table, self.view_of = table, view_of
        table.start(now)
        snapshot = self.devices.link.snapshot()
        if snapshot is not None:
            table.on_view(view_of(snapshot), now)
        self._last_frame = self._told_lights = None
        for told in self.on_swap:
            told(table)
        for event in table.opening(now):
            table.emit(event)

    def _not_recorded(self, exc: JournalError, now: float) -> None:
        """The journal refused: nothing is confirmed; show it, say it once, try again later."""
        message = str(exc)
        if message != self._refused:
            log.error("%s", message)
            self._refused = message
        self.table.cannot_record(message)
        self._retry_at = now + RETRY_S

    def _ask_at(self) -> float | None:
        """When (table time) to ask the board for the reading that closes a settle window."""
        deadline = self.table.settler.deadline()
        if deadline is None or (self._asked is not None and self._asked[0] == deadline):
            return None
        settler = self.table.settler
        return deadline - min(ASK_EARLY_S * self.rate, ASK_EARLY_SHARE * settler.window)

    def _ask_early(self, now: float) -> None:
        at = self._ask_at()
        if at is not None and now >= at:
            ticket = self.devices.link.ask_fresh()
            deadline = self.table.settler.deadline()
            self._asked = None if ticket is None or deadline is None else (deadline, ticket)

    def _reread(self) -> object:
        """Once a reading has held still, the whole table again before it counts: the
        answer to the ask made just before the window closed, or a new ask (the reading
        moved). The loop alone changes the settler, so this needs not the table's lock."""
        deadline, asked = self.table.settler.deadline(), self._asked
        self._asked = None
        after = asked[1] if asked is not None and asked[0] == deadline else None
        snapshot = self.devices.link.fresh_snapshot(timeout=0.5, after=after)
        return None if snapshot is None else self.view_of(snapshot)

    def _draw(self, now: float) -> None:
        frame = self.table.led_frame(now, self._rings)
        game = dict(frame)  # the game's frame only: the page never sees the PIN on the rings
        self.pin_show.overlay(frame)
        if self.unseen.check(self.devices.link.synced):
            self.unseen.overlay(frame)
        self.led_test.overlay(frame)  # last: a table with no board yet is tested too
        if frame != self._last_frame:
            self._show(frame)
        self._tell_lights(game)

    def _show(self, frame: dict) -> None:
        """Send the LEDs that changed, then show them all at once."""
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

    def _tell_lights(self, frame: dict) -> None:
        """The page hears what the LEDs show, once they show it (the move's light first)."""
        if frame != self._told_lights:
            self._told_lights = frame
            self.table.tell_lights(frame)

    def _say_missing(self) -> None:
        """Tell the log and the page whenever what the table cannot use changes: a table not
        wired up yet (no GPIO chip, no LEDs, no scanner board) runs, and says what to do."""
        missing = [m.as_dict() for m in self.devices.missing()]
        if self.unseen.shown and not self.devices.profile.simulated:
            link = self.devices.link
            why = link.health.last_error or "it does not answer"  # the link's own words
            missing.append(Missing("scanner board", f"not seen on {link.port} ({why}); "
                                   f"{CHECK_BOARD}").as_dict())
        around = self.table.around
        if missing != around.missing:
            around.missing = missing
            self.table.emit(self.table.event("devices", missing=missing))

    def _say_figures(self, status: BoardStatus) -> None:
        """Tell the stream's readers (the page, `obelisk watch`) the board's own measured
        periods as numbers (the link tells only a move); a reader joining later starts with
        the last ones told. They are no game's news, so the game's own listeners (a demo's
        screen, a club) do not hear them; the log says them in a line."""
        event = self.table.event("scanner", scan_us=status.scan_us, load_us=status.load_us)
        if event == self.table.around.scanner:
            return
        self.table.around.scanner = event
        log.info("the scanner board measured %s", status.words())
        if self.stream is not None:
            self.stream.publish(event)
