"""The scanner link protocol: framing, checksum and message bodies.

This one file is copied unchanged onto the scanner board (CircuitPython) and
imported by the Pi, so both ends speak exactly the same protocol. It uses
only what CircuitPython has: no dataclasses, no typing, no enum. Its type hints
are for mypy on the Pi: MicroPython never evaluates an annotation, and the names
from collections.abc are quoted and imported only by the type checker.
See hardware/PROTOCOL.md for the specification.
"""

import struct

TYPE_CHECKING = False  # mypy takes it as True; the board has no typing module to import it from
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 1024
"""Largest decoded frame (header + body + CRC) either side accepts."""

# Board to host.
HELLO = 0x01
SNAPSHOT = 0x02
CHANGES = 0x03
LOAD = 0x04
STATUS = 0x05
# Host to board.
SYNC = 0x20
LED_FRAME = 0x21
# Either way.
PING = 0x30
PONG = 0x31

KIND_NAMES = {HELLO: "hello", SNAPSHOT: "snapshot", CHANGES: "changes", LOAD: "load",
              STATUS: "status", SYNC: "sync", LED_FRAME: "led_frame", PING: "ping", PONG: "pong"}

_HEADER = 3  # version, kind, sequence
_CRC = 2


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


_crc_in_c: "Callable[[bytes, int], int] | None"
try:  # the same CRC done in C, for the Pi, which checks every frame (CircuitPython has none)
    from binascii import crc_hqx as _crc_in_c
except ImportError:  # CircuitPython: no crc_hqx in binascii
    _crc_in_c = None


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): b"123456789" gives 0x29B1."""
    if _crc_in_c is not None:
        return _crc_in_c(data, crc)
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte.

    Each run between zero bytes becomes its length + 1 and the run, a run of
    254 bytes being cut there (code 255, no zero implied).
    """
    out = bytearray()
    for run in bytes(data).split(b"\x00"):
        while len(run) >= 254:
            out.append(255)
            out.extend(run[:254])
            run = run[254:]
        out.append(len(run) + 1)
        out.extend(run)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo ``cobs_encode``; raises ValueError on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("cobs: zero byte inside a frame")
        end = i + code
        if end > n:
            raise ValueError("cobs: block runs past the end of the frame")
        out.extend(data[i + 1:end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(kind: int, seq: int, body: bytes = b"") -> bytes:
    """A whole frame on the wire: COBS(header + body + CRC) and a zero delimiter."""
    payload = bytes((PROTOCOL_VERSION, kind, seq & 0xFF)) + bytes(body)
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(encoded: bytes) -> tuple[int, int, bytes]:
    """(kind, seq, body) from one frame without its delimiter; ValueError if bad."""
    payload = cobs_decode(encoded)
    if len(payload) < _HEADER + _CRC:
        raise ValueError("short: frame too short")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("long: frame too long")
    got = (payload[-2] << 8) | payload[-1]
    if crc16(payload[:-_CRC]) != got:
        raise ValueError("crc: checksum mismatch")
    if payload[0] != PROTOCOL_VERSION:
        raise ValueError("version: protocol version %d, expected %d"
                         % (payload[0], PROTOCOL_VERSION))
    return payload[1], payload[2], payload[_HEADER:-_CRC]


class FrameReader:
    """Turns a byte stream into frames; never raises on garbage.

    Partial frames are kept until their delimiter arrives; bad frames are
    dropped and counted by reason in ``bad`` (a dict reason -> count).
    """

    def __init__(self, max_frame: int = 2 * MAX_PAYLOAD) -> None:
        self._buf = bytearray()
        self._max = max_frame
        self._skipping = False
        self.frames = 0
        self.bad: dict[str, int] = {}

    def count_bad(self, reason: str) -> None:
        """Count one bad frame under ``reason``. The reader counts the frames it cannot
        decode; the board's scanner and the Pi's link call it too, for a frame whose body
        they cannot read (only they know the body's layout), so all land in one tally."""
        self.bad[reason] = self.bad.get(reason, 0) + 1

    @property
    def bad_total(self) -> int:
        return sum(self.bad.values())

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect)."""
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """Every good frame completed by ``data``, as (kind, seq, body) tuples."""
        out: list[tuple[int, int, bytes]] = []
        data = bytes(data)
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._add(data[start:])
                return out
            self._add(data[start:end])
            chunk = bytes(self._buf)
            skipped = self._skipping
            self.reset()
            start = end + 1
            if skipped:
                continue
            if not chunk:
                continue  # delimiters back to back: idle line
            try:
                out.append(decode_frame(chunk))
                self.frames += 1
            except ValueError as exc:
                self.count_bad(str(exc).split(":")[0])

    def _add(self, part: bytes) -> None:
        if self._skipping or not part:
            return
        if len(self._buf) + len(part) > self._max:
            self.count_bad("overflow")
            self._buf = bytearray()
            self._skipping = True
            return
        self._buf.extend(part)


# ---------------------------------------------------------------- message bodies
# Switch numbering: towers first (tower t, level z, rod r) as
# t * levels * rods + z * rods + r, then board squares row * cols + col,
# then, with stack-height sensing, board level k (k = 1 .. stack - 1) as
# k * rows * cols + row * cols + col after the squares.


def pack_hello(firmware: str, towers: int, rods: int, levels: int, rows: int, cols: int,
               loads: int, leds: int, stack: int = 1) -> bytes:
    text = firmware.encode("utf-8")[:64]
    return struct.pack(">BBBBBBHB", towers, rods, levels, rows, cols, loads, leds, stack) + text


def unpack_hello(body: bytes) -> tuple[str, int, int, int, int, int, int, int, int]:
    """(firmware, towers, rods, levels, rows, cols, loads, leds, stack)."""
    if len(body) < 9:
        raise ValueError("body: hello too short")
    towers, rods, levels, rows, cols, loads, leds, stack = struct.unpack(">BBBBBBHB", body[:9])
    if not 1 <= stack <= 3:
        raise ValueError("body: hello with %d stack levels" % stack)
    return _text(body[9:]), towers, rods, levels, rows, cols, loads, leds, stack


def _text(raw: bytes) -> str:
    """UTF-8 text from ``raw``; bad bytes become "?" (MicroPython's decode has no errors
    handler, so decode strictly and fall back to the printable ASCII bytes)."""
    raw = bytes(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeError:  # UnicodeDecodeError on CPython is one
        return "".join(chr(b) if 32 <= b < 127 else "?" for b in raw)


def pack_bits(closed: "Iterable[int]", count: int) -> bytes:
    bits = bytearray((count + 7) // 8)
    for i in closed:
        bits[i >> 3] |= 1 << (i & 7)
    return bytes(bits)


def unpack_bits(bits: bytes, count: int) -> list[int]:
    closed = []
    for i in range(count):
        if bits[i >> 3] & (1 << (i & 7)):
            closed.append(i)
    return closed


def pack_snapshot(closed: "Iterable[int]", count: int, loads: "Sequence[int]") -> bytes:
    return (struct.pack(">H", count) + pack_bits(closed, count)
            + struct.pack(">B", len(loads)) + b"".join(struct.pack(">i", v) for v in loads))


def unpack_snapshot(body: bytes) -> tuple[list[int], int, list[int]]:
    """(closed switch indices, switch count, load readings)."""
    if len(body) < 3:
        raise ValueError("body: snapshot too short")
    count: int = struct.unpack(">H", body[:2])[0]
    nbytes = (count + 7) // 8
    if len(body) < 2 + nbytes + 1:
        raise ValueError("body: snapshot bitmap cut short")
    closed = unpack_bits(body[2:2 + nbytes], count)
    loads = unpack_loads(body[2 + nbytes:])
    return closed, count, loads


def pack_changes(changes: "Iterable[tuple[int, bool]]") -> bytes:
    """``changes`` is a list of (switch index, closed) pairs."""
    return b"".join(struct.pack(">H", (0x8000 if closed else 0) | index)
                    for index, closed in changes)


def unpack_changes(body: bytes) -> list[tuple[int, bool]]:
    if len(body) % 2:
        raise ValueError("body: changes of odd length")
    out = []
    for i in range(0, len(body), 2):
        word = (body[i] << 8) | body[i + 1]
        out.append((word & 0x7FFF, bool(word & 0x8000)))
    return out


def pack_loads(loads: "Sequence[int]") -> bytes:
    return struct.pack(">B", len(loads)) + b"".join(struct.pack(">i", v) for v in loads)


def unpack_loads(body: bytes) -> list[int]:
    if not body:
        raise ValueError("body: load readings missing")
    n = body[0]
    if len(body) != 1 + 4 * n:
        raise ValueError("body: load readings cut short")
    return [struct.unpack(">i", body[1 + 4 * i:5 + 4 * i])[0] for i in range(n)]


_U32 = 0xFFFFFFFF


def pack_status(scan_us: int, load_us: int, dropped: int) -> bytes:
    """The board's own figures: its average scan period and load-cell period (microseconds,
    0: none read) over the last heartbeat's interval, and frames dropped since it started.
    A figure past 32 bits is capped, so it reads as huge rather than wrapping to small."""
    return struct.pack(">III", min(scan_us, _U32), min(load_us, _U32), min(dropped, _U32))


def unpack_status(body: bytes) -> tuple[int, int, int]:
    """(scan period us, load-cell period us or 0, frames dropped); bytes after these three
    fields are left for a later board to define."""
    if len(body) < 12:
        raise ValueError("body: status too short")
    scan_us, load_us, dropped = struct.unpack(">III", body[:12])
    return scan_us, load_us, dropped


def pack_leds(start: int, rgb: "Iterable[int]") -> bytes:
    return struct.pack(">H", start) + bytes(rgb)


def unpack_leds(body: bytes) -> tuple[int, bytes]:
    """(first LED index, RGB bytes)."""
    if len(body) < 2 or (len(body) - 2) % 3:
        raise ValueError("body: LED frame is not whole RGB triples")
    start: int = struct.unpack(">H", body[:2])[0]
    return start, bytes(body[2:])


def pack_token(token: int) -> bytes:
    return struct.pack(">H", token & 0xFFFF)


def unpack_token(body: bytes) -> int:
    if len(body) != 2:
        raise ValueError("body: ping token must be 2 bytes")
    token: int = struct.unpack(">H", body)[0]
    return token
