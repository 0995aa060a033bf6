"""Everything a table has, assembled from its profile.

``open_table(profile)`` gives the same objects on every build: a
``ScannerLink`` with live snapshots, ``TableButtons`` and ``Leds``. Only the
bottom layer differs: the simulated table, the scanner code on the Pi's own
pins, or a real scanner board on USB.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory

from hardware.buttons import TableButtons, on_raspberry_pi
from hardware.leds import Leds
from hardware.link import ScannerLink
from hardware.local_board import LocalBoard
from hardware.profile import Profile, ProfileError, board_layout
from hardware.sensors import Layout
from hardware.sim.table import SimTable
from hardware.trouble import Missing

log = logging.getLogger(__name__)


@dataclass
class TableDevices:
    profile: Profile
    link: ScannerLink
    buttons: TableButtons
    leds: Leds
    sim: SimTable | None = None
    local_board: LocalBoard | None = None
    missing_at_start: tuple[Missing, ...] = ()
    """What could not start (a table not wired up yet), each with what to do."""

    def missing(self) -> list[Missing]:
        """What the table cannot use now: what could not start, and LEDs lost since."""
        return [*self.missing_at_start, *self.leds.missing]

    def close(self) -> None:
        self.link.stop()
        self.buttons.close()
        if self.sim is not None:
            self.sim.stop()
        if self.local_board is not None:
            self.local_board.stop()

    def __enter__(self) -> TableDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def expected_layout(profile: Profile) -> Layout:
    """The layout the scanner board should announce in its hello, for this profile."""
    lay = board_layout(profile)
    return Layout(f"as {profile.source} describes", lay["towers"], lay["rods"], lay["levels"],
                  lay["rows"], lay["cols"], lay["loads"], lay["leds"], lay["stack"])


def open_table(profile: Profile, *, tolerant: bool = False) -> TableDevices:
    """Start every device of the table; close it with ``close()`` or ``with``.

    If one device cannot start, those already started are stopped again
    before the error (a ProfileError or LedError for a person) goes up.

    ``tolerant`` (the service on a Raspberry Pi): a table not wired up yet still
    starts. Buttons whose GPIO pins cannot be claimed are replaced by pins nobody
    presses, LEDs that cannot start stay dark, and ``missing()`` says what and why;
    a scanner board that is not there is waited for, as always. Off a Pi nothing is
    tolerated: there the profile is the wrong one.
    """
    sim = board = link = None
    missing: list[Missing] = []
    tolerant = tolerant and on_raspberry_pi()
    try:
        buttons = TableButtons(profile.buttons, source=profile.source)
    except ProfileError as exc:
        if not tolerant:
            raise
        log.warning("buttons: %s", exc)
        missing.append(Missing("buttons", str(exc)))
        buttons = TableButtons(profile.buttons, pin_factory=MockFactory(), source=profile.source)
    try:
        port = profile.scanner.port
        if port == "sim":
            sim = SimTable(board_layout(profile)).start()
            port = sim.port_path
        elif port == "gpio":
            from hardware.onboard import onboard_scanner  # only the gpio-only build needs it

            board = onboard_scanner(buttons.factory, profile.scanner.rows, profile.scanner.cols)
            board.start()
            port = board.port_path
        link = ScannerLink(port, profile.scanner.baud, expected=expected_layout(profile),
                           expected_from=profile.source).start()
        leds = Leds(profile, send=link.send, tolerant=tolerant)
    except BaseException:
        for started in (link, board, sim):
            if started is not None:
                started.stop()
        buttons.close()
        raise
    return TableDevices(profile, link, buttons, leds, sim, board, tuple(missing))
