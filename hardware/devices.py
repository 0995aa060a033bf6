"""Everything a table has, assembled from its profile.

``open_table(profile)`` gives the same objects on every build: a
``ScannerLink`` with live snapshots, ``TableButtons`` and ``Leds``. Only the
bottom layer differs: the simulated table, the scanner code on the Pi's own
pins, or a real scanner board on USB.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.buttons import TableButtons
from hardware.leds import Leds
from hardware.link import ScannerLink
from hardware.local_board import LocalBoard
from hardware.profile import Profile
from hardware.sensors import Layout
from hardware.sim import SimTable


@dataclass
class TableDevices:
    profile: Profile
    link: ScannerLink
    buttons: TableButtons
    leds: Leds
    sim: SimTable | None = None
    local_board: LocalBoard | None = None

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


def sim_layout(profile: Profile) -> dict:
    """The simulated scanner board's layout, as the profile describes the table."""
    scanner = profile.scanner
    leds = sum(count for chain in profile.chains if chain.output == "scanner"
               for _, _, count in chain.parts)
    layout = {"towers": scanner.towers, "rods": 9, "levels": 9, "rows": scanner.rows,
              "cols": scanner.cols, "loads": scanner.load_cells, "leds": leds,
              "stack": scanner.square_switches}
    if scanner.wall_sensors:
        layout["walls"] = True  # the second switch under each square sees walls
    return layout


def expected_layout(profile: Profile) -> Layout:
    """The layout the scanner board should announce in its hello, for this profile."""
    lay = sim_layout(profile)
    return Layout(f"as {profile.source} describes", lay["towers"], lay["rods"], lay["levels"],
                  lay["rows"], lay["cols"], lay["loads"], lay["leds"], lay["stack"])


def open_table(profile: Profile) -> TableDevices:
    """Start every device of the table; close it with ``close()`` or ``with``.

    If one device cannot start, those already started are stopped again
    before the error (a ProfileError or LedError for a person) goes up.
    """
    sim = board = link = None
    buttons = TableButtons(profile.buttons, source=profile.source)
    try:
        port = profile.scanner.port
        if port == "sim":
            sim = SimTable(sim_layout(profile)).start()
            port = sim.port_path
        elif port == "gpio":
            from hardware.onboard import onboard_scanner  # only the gpio-only build needs it

            board = onboard_scanner(buttons.factory, profile.scanner.rows, profile.scanner.cols)
            board.start()
            port = board.port_path
        link = ScannerLink(port, profile.scanner.baud, expected=expected_layout(profile),
                           expected_from=profile.source).start()
        leds = Leds(profile, send=link.send)
    except BaseException:
        for started in (link, board, sim):
            if started is not None:
                started.stop()
        buttons.close()
        raise
    return TableDevices(profile, link, buttons, leds, sim, board)
