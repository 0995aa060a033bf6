"""The scanner board's own code, run under CPython against fake pins."""

from __future__ import annotations

from hardware.leds import RecordingPixels
from hardware.local_board import load_code_py
from hardware.scanner import obelisk_proto as proto
from hardware.scanner import scanner as board
from hardware.sim.table import SimTable
from tests.support.scanner import Wire


class Pin:
    """A bare digitalio-like pin that remembers what was written."""

    def __init__(self, value: bool = True) -> None:
        self.value = value
        self.writes: list[bool] = []

    def __setattr__(self, name, value):
        if name == "value" and "writes" in self.__dict__:
            self.writes.append(value)
        object.__setattr__(self, name, value)


def test_the_drive_chain_walks_one_low_line_along():
    table = SimTable({"towers": 2, "rods": 9, "levels": 9, "rows": 3, "cols": 3,
                      "loads": 0, "leds": 0})
    code = load_code_py()
    scanner = code.build(*_modules(table), Wire(), table.layout)
    drive = scanner.matrix.drive
    for expected in range(drive.count * 2):
        line = drive.step()
        assert line == expected % drive.count
        low = [i for i, level in enumerate(table._outputs) if not level]
        assert low == [line], "exactly the active line is low on the simulated 74HC595s"


def _modules(table):
    from hardware.sim.table import _fake_modules

    return _fake_modules(table)


def _matrix(sense_values):
    class Drive:
        count = 1

        def step(self):
            return 0

    pins = [Pin(v) for v in sense_values]
    return board.Matrix(Drive(), pins, [[0, 1, None]]), pins


def test_a_switch_counts_only_after_it_reads_the_same_three_scans():
    matrix, pins = _matrix([True, True, True])
    pins[0].value = False          # closed...
    assert matrix.scan() == [] and matrix.scan() == []
    pins[0].value = True           # ...a bounce: open again before the third scan
    assert matrix.scan() == []
    pins[0].value = False
    assert [matrix.scan() for _ in range(board.DEBOUNCE_SCANS)][-1] == [(0, True)]
    assert matrix.closed() == [0]
    assert matrix.scan() == []     # unchanged switches are not reported again


def test_hx711_readings_are_signed_24_bit():
    class Hx:
        """Shifts out a fixed 24-bit reading as the clock pulses."""

        def __init__(self, raw):
            self.raw, self.bit = raw, 0

        @property
        def value(self):
            return bool(self.raw >> (24 - self.bit) & 1) if 0 < self.bit <= 24 else False

    class Clock:
        def __init__(self, outs):
            self.outs, self._v = outs, False

        @property
        def value(self):
            return self._v

        @value.setter
        def value(self, v):
            if v and not self._v:
                for hx in self.outs:
                    hx.bit += 1
            self._v = v

    outs = [Hx(0x000123), Hx(0xFFFFFE)]
    bank = board.Hx711Bank(Clock(outs), outs)
    assert bank.ready()
    assert bank.read() == [0x123, -2]


def test_sync_ping_and_led_frames_from_the_host():
    wire = Wire()
    pixels = RecordingPixels(4)

    class NoMatrix:
        count = 0

        def scan(self):
            return []

        def closed(self):
            return []

    scanner = board.Scanner(NoMatrix(), None, pixels, wire,
                            {"towers": 0, "rods": 9, "levels": 9, "rows": 0, "cols": 0})
    assert [k for k, _, _ in wire.frames()] == [proto.HELLO]
    wire.out.clear()
    wire.incoming += proto.encode_frame(proto.SYNC, 0)
    wire.incoming += proto.encode_frame(proto.PING, 1, proto.pack_token(99))
    wire.incoming += proto.encode_frame(proto.LED_FRAME, 2, proto.pack_leds(1, b"\x0a\x0b\x0c"))
    wire.incoming += b"\x00garbage\x00"
    scanner.step(0)
    kinds = [k for k, _, _ in wire.frames()]
    assert kinds[:3] == [proto.HELLO, proto.SNAPSHOT, proto.PONG]
    assert pixels.frames[-1][1] == (10, 11, 12)
    assert scanner.reader.bad_total == 1
    seqs = [s for _, s, _ in wire.frames()]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def _statuses(wire: Wire) -> list[tuple[int, int, int]]:
    return [proto.unpack_status(body) for kind, _, body in wire.frames() if kind == proto.STATUS]


def test_the_board_reports_the_scan_and_load_cell_periods_it_measured():
    """Measured on the clock the board is given (moved by hand here, 3 ms a turn of its
    loop): a scan every 3 ms, and the load cells read at the first turn at least
    LOAD_EVERY_MS after the last one, so every 27 ms rather than the constant's 25."""
    table = SimTable({"towers": 0, "rods": 9, "levels": 9, "rows": 2, "cols": 2,
                      "loads": 2, "leds": 0})
    wire = Wire()
    scanner = load_code_py().build(*_modules(table), wire, table.layout, table.pins)
    scanner.step(0)
    assert _statuses(wire) == [], "nothing is measured before a whole heartbeat's interval"
    for now in range(3, 2200, 3):
        scanner.step(now)
    assert board.LOAD_EVERY_MS == 25
    assert _statuses(wire) == [(3000, 27000, 0)] * 2, "one a heartbeat, each second"
    wire.out.clear()
    wire.incoming += proto.encode_frame(proto.SYNC, 0)
    scanner.step(2200)
    assert [k for k, _, _ in wire.frames()] == [proto.HELLO, proto.STATUS, proto.SNAPSHOT]
    assert _statuses(wire) == [(3000, 27000, 0)], "a SYNC's answer repeats the last figures"


def test_a_board_without_load_cells_reports_none_read():
    wire = Wire()

    class NoMatrix:
        count = 0

        def scan(self):
            return []

        def closed(self):
            return []

    scanner = board.Scanner(NoMatrix(), None, None, wire,
                            {"towers": 0, "rods": 9, "levels": 9, "rows": 0, "cols": 0})
    for now in range(0, 1100, 7):
        scanner.step(now)
    assert _statuses(wire) == [(7000, 0, 0)]
