"""The scanner board's code where a builder watches: faults a real board meets.

The board's files run on CircuitPython (a MicroPython), not CPython. These
tests give them what the board gives: a ``decode`` without an errors
handler, a data channel missing on a first boot, a host that stops
reading, a scan that raises, and the board modules (LED, watchdog,
supervisor) as fakes that record what was done to them. Time is a fake
clock: nothing here sleeps.
"""

from __future__ import annotations

import itertools

from hardware.scanner import obelisk_proto as proto
from tests.support.scanner import Wire


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


class Host(Wire):
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
    from hardware.sim.table import SimTable, _fake_modules

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


# ------------------------------------------------------------------ code.py on a board


class Clock:
    """CircuitPython's ``time`` on a fake clock: ``sleep`` moves it on, nobody waits.

    Each ``monotonic_ns`` reading (one a scan) also moves it on by a scan's time.
    """

    def __init__(self, scan_ns: int = 5_000_000) -> None:
        self.ns = 0
        self.scan_ns = scan_ns
        self.sleeps: list[float] = []

    def monotonic_ns(self) -> int:
        self.ns += self.scan_ns
        return self.ns

    def monotonic(self) -> float:
        return self.ns / 1e9

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.ns += round(seconds * 1e9)


class Led:
    """The onboard LED: every change, with when it happened."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.direction = None
        self.changes: list[tuple[float, bool]] = []
        self._value = False

    @property
    def value(self) -> bool:
        return self._value

    @value.setter
    def value(self, v: bool) -> None:
        self._value = bool(v)
        self.changes.append((self.clock.monotonic(), self._value))


class Dog:
    """microcontroller.watchdog: what it was set to, and each feed. Like CircuitPython 10's,
    it has no deinit(): setting its mode to None stops it."""

    def __init__(self) -> None:
        self.timeout = None
        self._mode = None
        self.feeds = 0
        self.stopped = False

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, mode) -> None:
        self.stopped = self._mode is not None and mode is None
        self._mode = mode

    def feed(self) -> None:
        assert self.mode is not None, "fed before it was started"
        self.feeds += 1


class UsbCdc:
    """usb_cdc: ``data`` is None until ``plugged`` seconds have passed (None: never)."""

    def __init__(self, clock: Clock, host: Host, plugged: float | None = 0.0) -> None:
        self.clock, self.host, self.plugged = clock, host, plugged

    @property
    def data(self):
        if self.plugged is None or self.clock.monotonic() < self.plugged:
            return None
        return self.host


def _board_modules(host: Host | None = None, plugged: float | None = 0.0, supervisor=None):
    from types import SimpleNamespace

    from hardware.sim.table import SimTable, _fake_modules

    table = SimTable(dict(SMALL))
    board, digitalio, neopixel = _fake_modules(table)
    clock = Clock()
    led = Led(clock)
    board.LED = "LED"
    pins = digitalio.DigitalInOut
    fake_digitalio = SimpleNamespace(
        DigitalInOut=lambda name: led if name == "LED" else pins(name),
        Direction=digitalio.Direction, Pull=digitalio.Pull)
    host = Host() if host is None else host
    modules = {
        "time": clock, "board": board, "digitalio": fake_digitalio, "neopixel": neopixel,
        "usb_cdc": UsbCdc(clock, host, plugged),
        "microcontroller": SimpleNamespace(watchdog=Dog()),
        "watchdog": SimpleNamespace(WatchDogMode=SimpleNamespace(RAISE="raise", RESET="reset")),
        "supervisor": supervisor or SimpleNamespace(runtime=SimpleNamespace(autoreload=True)),
    }
    return modules, table, led, host


def _code():
    from hardware.local_board import load_code_py

    return load_code_py()


def test_a_first_boot_without_the_data_channel_says_why_and_blinks_without_crashing(capsys):
    code = _code()
    modules, _table, led, host = _board_modules(plugged=None)
    assert code.main(modules, SMALL, steps=4) is None  # still waiting, nothing raised
    said = capsys.readouterr().out
    assert "boot.py" in said and "RESET" in said and "unplug" in said
    # The LED blinks the waiting pattern, the same in every cycle.
    cycle = len(code.WAITING_BLINK)
    times = [t for t, _ in led.changes]
    lengths = [round(b - a, 3) for a, b in itertools.pairwise(times)]
    assert lengths[:cycle] == list(code.WAITING_BLINK)
    assert lengths[cycle:2 * cycle] == list(code.WAITING_BLINK)
    assert [v for _, v in led.changes][:cycle] == [True, False] * (cycle // 2)
    assert host.writes == 0
    assert modules["microcontroller"].watchdog.mode is None, "no watchdog while waiting"
    assert modules["supervisor"].runtime.autoreload, "files can still be copied and run"


def test_a_data_channel_that_appears_is_found_and_the_board_starts(capsys):
    code = _code()
    modules, _table, led, host = _board_modules(plugged=4.0)
    scanner = code.main(modules, SMALL, steps=10)
    assert scanner is not None
    assert proto.FrameReader().feed(host.pi_reads())[0][0] == proto.HELLO
    assert led.value, "the LED stays lit while the board scans"


def test_while_playing_writes_never_wait_the_watchdog_is_fed_and_saving_a_file_does_not_reload():
    code = _code()
    modules, _table, _led, host = _board_modules()
    code.main(modules, SMALL, steps=50)
    assert host.write_timeout is not None and 0 <= host.write_timeout <= 0.02
    dog = modules["microcontroller"].watchdog
    assert dog.mode == "reset" and 1 <= dog.timeout <= 8  # the RP2040's watchdog tops at 8.3 s
    assert dog.feeds >= 50, "fed on every turn of the loop"
    assert modules["supervisor"].runtime.autoreload is False


def test_autoreload_is_held_on_circuitpython_7_as_well():
    from types import SimpleNamespace

    held = []
    old = SimpleNamespace(disable_autoreload=lambda: held.append(True))
    code = _code()
    modules, _table, _led, _host = _board_modules(supervisor=old)
    code.main(modules, SMALL, steps=3)
    assert held == [True]


def test_an_exception_in_a_scan_is_told_and_the_loop_goes_on(capsys, monkeypatch):
    code = _code()
    modules, table, _led, host = _board_modules()
    real = code._scanner.Scanner.step
    calls = []

    def flaky(self, now_ms):
        calls.append(now_ms)
        if len(calls) == 5:
            raise RuntimeError("sense line 3 stuck")
        return real(self, now_ms)

    monkeypatch.setattr(code._scanner.Scanner, "step", flaky)
    table.put((0, 1))
    code.main(modules, SMALL, steps=40)
    said = capsys.readouterr().out
    assert "RuntimeError" in said and "sense line 3 stuck" in said
    assert len(calls) == 40, "the loop went on after the failure"
    assert modules["microcontroller"].watchdog.feeds >= 40
    assert code.FAILURE_BACKOFF_S in modules["time"].sleeps
    frames = proto.FrameReader().feed(host.delivered + host.pi_reads())
    assert proto.CHANGES in [k for k, _, _ in frames], "scanning still reports changes"


def test_a_scan_that_always_fails_does_not_flood_the_console(capsys, monkeypatch):
    code = _code()
    modules, _table, _led, _host = _board_modules()

    def broken(self, now_ms):
        raise ValueError("always")

    monkeypatch.setattr(code._scanner.Scanner, "step", broken)
    code.main(modules, SMALL, steps=400)  # 400 failures, 20 s of them with the back-off
    lines = [line for line in capsys.readouterr().out.splitlines() if "always" in line]
    assert 1 <= len(lines) <= 25
    assert "(1 in all)" in lines[0]


def test_a_host_that_stops_reading_is_told_on_the_console(capsys):
    code = _code()
    host = Host(room=80)
    host.reading = False
    modules, _table, _led, _host = _board_modules(host=host)
    code.main(modules, SMALL, steps=4000)  # with the steps' pace, some seconds
    said = capsys.readouterr().out
    assert "dropped" in said and "not reading" in said


def test_ctrl_c_stops_the_watchdog_and_gives_autoreload_back(monkeypatch):
    import pytest

    code = _code()
    modules, _table, _led, _host = _board_modules()

    def interrupted(self, now_ms):
        raise KeyboardInterrupt

    monkeypatch.setattr(code._scanner.Scanner, "step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        code.main(modules, SMALL, steps=10)
    assert modules["microcontroller"].watchdog.stopped
    assert modules["supervisor"].runtime.autoreload is True
