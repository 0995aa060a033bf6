"""The gpio-only build: the scanner code on gpiozero pins, wired as a real matrix."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.link import ScannerLink
from hardware.onboard import PINS, onboard_scanner


def _wired_matrix(factory: MockFactory, closed: set[tuple[int, int]]) -> None:
    """Make each sense pin read low while a drive pin with a closed switch is low."""
    drives = {row: factory.pin(name) for row, name in enumerate(PINS["drive"])}

    class SensePin(MockPin):
        col = 0

        def _get_state(self):
            return not any((row, self.col) in closed and not drive.state
                           for row, drive in drives.items())

    for col, name in enumerate(PINS["sense"]):
        pin = factory.pin(name, pin_class=SensePin)
        pin.col = col


def test_the_same_scanner_code_reads_a_board_on_pi_pins():
    factory = MockFactory()
    closed = {(0, 0), (2, 3), (3, 1)}
    _wired_matrix(factory, closed)
    board = onboard_scanner(factory, 4, 4)
    board.start()
    try:
        with ScannerLink(board.port_path) as link:
            seen = link.wait_for(lambda s: s.squares() == closed, 30.0)
            assert seen is not None, link.health
            assert seen.layout.towers == 0 and (seen.layout.rows, seen.layout.cols) == (4, 4)
            closed.discard((2, 3))
            assert link.wait_for(lambda s: s.squares() == closed, 30.0) is not None
    finally:
        board.stop()


def test_the_gpio_only_pins_leave_buttons_buzzer_and_spi_alone():
    from hardware.profile import load_profile

    buttons = load_profile("gpio-only").buttons
    taken = {buttons.player_a, buttons.player_b, buttons.menu, buttons.buzzer}
    spi0 = {f"GPIO{n}" for n in (7, 8, 9, 10, 11)}
    matrix = set(PINS["drive"]) | set(PINS["sense"])
    assert len(matrix) == 16
    assert not matrix & taken and not matrix & spi0
