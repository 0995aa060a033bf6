"""The scanner board's code where a builder watches: faults a real board meets.

The board's files run on CircuitPython (a MicroPython), not CPython. These
tests give them what the board gives: a ``decode`` without an errors
handler, a data channel missing on a first boot, a host that stops
reading, a scan that raises, and the board modules (LED, watchdog,
supervisor) as fakes that record what was done to them. Time is a fake
clock: nothing here sleeps.
"""

from __future__ import annotations

from hardware.scanner import obelisk_proto as proto


class MicroBytes(bytes):
    """bytes as MicroPython has them: ``decode`` takes no errors handler."""

    def decode(self, encoding="utf-8"):
        text = bytes(self).decode(encoding)  # strict: raises UnicodeError on bad bytes
        return text


def _hello(firmware: bytes) -> bytes:
    return proto.pack_hello("", 2, 9, 9, 8, 8, 9, 64) + firmware


def test_a_hello_decodes_with_micropythons_decode(monkeypatch):
    monkeypatch.setattr(proto, "bytes", MicroBytes, raising=False)
    assert proto.unpack_hello(_hello(b"obelisk-scanner 1.1"))[0] == "obelisk-scanner 1.1"
    assert proto.unpack_hello(_hello("caf\u00e9".encode()))[0] == "caf\u00e9"


def test_a_hello_with_bad_utf8_becomes_ascii_text_on_either_python(monkeypatch):
    bad = b"scan\xffner\xc3"
    on_cpython = proto.unpack_hello(_hello(bad))
    monkeypatch.setattr(proto, "bytes", MicroBytes, raising=False)
    on_board = proto.unpack_hello(_hello(bad))
    assert on_cpython == on_board
    assert on_board[0] == "scan?ner?"
    assert on_board[1:] == (2, 9, 9, 8, 8, 9, 64, 1)


# ------------------------------------------------------------------ a host that stops reading


class Host:
    """The board's data channel with a small buffer towards a Pi that may stop reading.

    ``write`` takes what fits (as CircuitPython's ``usb_cdc`` does with a write
    timeout) and says how much; ``reading`` off, nothing drains; ``fail``
    makes writes raise as a port gone wrong would.
    """

    def __init__(self, room: int = 256) -> None:
        self.room = room
        self.buffer = bytearray()
        self.delivered = bytearray()
        self.reading = True
        self.fail: BaseException | None = None
        self.writes = 0
        self.incoming = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.incoming)

    def read(self, n: int) -> bytes:
        data, self.incoming = bytes(self.incoming[:n]), self.incoming[n:]
        return data

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.fail is not None:
            raise self.fail
        took = bytes(data[:self.room - len(self.buffer)])
        self.buffer += took
        return len(took)

    def pi_reads(self) -> bytes:
        """What the Pi reads now (all of it, if it is reading)."""
        if not self.reading:
            return b""
        data, self.buffer = bytes(self.buffer), bytearray()
        self.delivered += data
        return data


SMALL = {"towers": 2, "rods": 9, "levels": 9, "rows": 3, "cols": 3, "loads": 0, "leds": 0}


def _board(host: Host):
    from hardware.sim import SimTable, _fake_modules

    table = SimTable(dict(SMALL))
    scanner = table._code.build(*_fake_modules(table), host, table.layout)
    return table, scanner


def _run(scanner, host, reader, start_ms, end_ms, every_ms=5):
    """Step the board from ``start_ms`` to ``end_ms``; the frames the Pi read meanwhile."""
    frames = []
    for now in range(start_ms, end_ms, every_ms):
        scanner.step(now)
        frames += reader.feed(host.pi_reads())
    return frames


def test_a_host_that_stops_reading_costs_dropped_frames_then_a_snapshot_resyncs_it():
    from hardware.scanner import scanner as board

    host = Host(room=80)  # a few frames' worth
    table, scanner = _board(host)
    reader = proto.FrameReader()
    frames = _run(scanner, host, reader, 0, 200)
    assert [k for k, _, _ in frames][:2] == [proto.HELLO, proto.SNAPSHOT]
    assert scanner.dropped == 0

    host.reading = False  # the Pi holds the port open but stops reading
    table.put((1, 2))     # ...while a piece is set down
    writes = host.writes
    assert _run(scanner, host, reader, 200, 3200) == []
    assert scanner.dropped > 0, "frames that did not fit are dropped and counted"
    assert board.Matrix.closed(scanner.matrix), "the board went on scanning"
    # A stalled port is tried again now and then, not at every scan.
    assert host.writes - writes <= 3000 // board.RESYNC_RETRY_MS + 4

    host.reading = True
    host.pi_reads()  # what was stuck in the buffer (old news, possibly a torn frame)
    reader = proto.FrameReader()
    frames = _run(scanner, host, reader, 3200, 3200 + board.RESYNC_RETRY_MS + 10)
    kinds = [k for k, _, _ in frames]
    assert kinds and kinds[0] == proto.SNAPSHOT, "the next thing the Pi hears is the whole picture"
    closed, _count, _loads = proto.unpack_snapshot(frames[0][2])
    square = 2 * 9 * 9 + 1 * 3 + 2
    assert closed == [square]

    table.put((0, 0))  # caught up: changes go out as they happen again
    dropped = scanner.dropped
    start = 3200 + board.RESYNC_RETRY_MS + 10
    frames = _run(scanner, host, reader, start, start + 500)
    assert [k for k, _, _ in frames] == [proto.CHANGES]
    assert scanner.dropped == dropped


def test_a_torn_frame_costs_only_itself():
    host = Host()
    _table, scanner = _board(host)
    reader = proto.FrameReader()
    _run(scanner, host, reader, 0, 50)
    host.room = len(host.buffer) + 4  # the next frame only fits in part
    torn = scanner.seq
    scanner.snapshot()
    assert scanner.dropped == 1
    host.room = 256
    before = reader.bad_total
    frames = _run(scanner, host, reader, 50, 400)
    assert frames[0][:2] == (proto.SNAPSHOT, (torn + 1) & 0xFF), \
        "the frame after the torn one reads whole"
    assert reader.bad_total - before == 1, "the torn frame is dropped, alone"


def test_a_write_that_raises_is_a_dropped_frame_not_a_crash():
    host = Host()
    _table, scanner = _board(host)
    reader = proto.FrameReader()
    _run(scanner, host, reader, 0, 50)
    host.fail = TimeoutError("write timed out")
    _run(scanner, host, reader, 50, 1500)
    assert scanner.dropped >= 1
    host.fail = None
    frames = _run(scanner, host, reader, 1500, 1700)
    assert frames and frames[0][0] == proto.SNAPSHOT
