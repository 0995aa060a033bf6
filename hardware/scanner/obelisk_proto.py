"""The scanner link protocol: framing, checksum and message bodies.

This one file is copied unchanged onto the scanner board (CircuitPython) and
imported by the Pi, so both ends speak exactly the same protocol. It uses
only what CircuitPython has: no dataclasses, no typing, no enum.
See hardware/PROTOCOL.md for the specification.
"""

import struct

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


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


try:  # the same CRC done in C, for the Pi, which checks every frame (CircuitPython has none)
    from binascii import crc_hqx as _crc_in_c
except ImportError:
    _crc_in_c = None  # type: ignore[assignment]  # CircuitPython: no crc_hqx in binascii


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): b"123456789" gives 0x29B1."""
    if _crc_in_c is not None:
        return _crc_in_c(data, crc)
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
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


def cobs_decode(data):
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


def encode_frame(kind, seq, body=b""):
    """A whole frame on the wire: COBS(header + body + CRC) and a zero delimiter."""
    payload = bytes((PROTOCOL_VERSION, kind, seq & 0xFF)) + bytes(body)
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(encoded):
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

    def __init__(self, max_frame=2 * MAX_PAYLOAD):
        self._buf = bytearray()
        self._max = max_frame
        self._skipping = False
        self.frames = 0
        self.bad = {}

    def count_bad(self, reason):
        """Count one bad frame under ``reason``. The reader counts the frames it cannot
        decode; the board's scanner and the Pi's link call it too, for a frame whose body
        they cannot read (only they know the body's layout), so all land in one tally."""
        self.bad[reason] = self.bad.get(reason, 0) + 1

    @property
    def bad_total(self):
        return sum(self.bad.values())

    def reset(self):
        """Forget any partial frame (after a reconnect)."""
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data):
        """Every good frame completed by ``data``, as (kind, seq, body) tuples."""
        out = []
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

    def _add(self, part):
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


def pack_hello(firmware, towers, rods, levels, rows, cols, loads, leds, stack=1):
    text = firmware.encode("utf-8")[:64]
    return struct.pack(">BBBBBBHB", towers, rods, levels, rows, cols, loads, leds, stack) + text


def unpack_hello(body):
    """(firmware, towers, rods, levels, rows, cols, loads, leds, stack)."""
    if len(body) < 9:
        raise ValueError("body: hello too short")
    fields = struct.unpack(">BBBBBBHB", body[:9])
    if not 1 <= fields[-1] <= 3:
        raise ValueError("body: hello with %d stack levels" % fields[-1])
    return (_text(body[9:]),) + fields


def _text(raw):
    """UTF-8 text from ``raw``; bad bytes become "?" (MicroPython's decode has no errors
    handler, so decode strictly and fall back to the printable ASCII bytes)."""
    raw = bytes(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeError:  # UnicodeDecodeError on CPython is one
        return "".join(chr(b) if 32 <= b < 127 else "?" for b in raw)


def pack_bits(closed, count):
    bits = bytearray((count + 7) // 8)
    for i in closed:
        bits[i >> 3] |= 1 << (i & 7)
    return bytes(bits)


def unpack_bits(bits, count):
    closed = []
    for i in range(count):
        if bits[i >> 3] & (1 << (i & 7)):
            closed.append(i)
    return closed


def pack_snapshot(closed, count, loads):
    return (struct.pack(">H", count) + pack_bits(closed, count)
            + struct.pack(">B", len(loads)) + b"".join(struct.pack(">i", v) for v in loads))


def unpack_snapshot(body):
    """(closed switch indices, switch count, load readings)."""
    if len(body) < 3:
        raise ValueError("body: snapshot too short")
    count = struct.unpack(">H", body[:2])[0]
    nbytes = (count + 7) // 8
    if len(body) < 2 + nbytes + 1:
        raise ValueError("body: snapshot bitmap cut short")
    closed = unpack_bits(body[2:2 + nbytes], count)
    loads = unpack_loads(body[2 + nbytes:])
    return closed, count, loads


def pack_changes(changes):
    """``changes`` is a list of (switch index, closed) pairs."""
    return b"".join(struct.pack(">H", (0x8000 if closed else 0) | index)
                    for index, closed in changes)


def unpack_changes(body):
    if len(body) % 2:
        raise ValueError("body: changes of odd length")
    out = []
    for i in range(0, len(body), 2):
        word = (body[i] << 8) | body[i + 1]
        out.append((word & 0x7FFF, bool(word & 0x8000)))
    return out


def pack_loads(loads):
    return struct.pack(">B", len(loads)) + b"".join(struct.pack(">i", v) for v in loads)


def unpack_loads(body):
    if not body:
        raise ValueError("body: load readings missing")
    n = body[0]
    if len(body) != 1 + 4 * n:
        raise ValueError("body: load readings cut short")
    return [struct.unpack(">i", body[1 + 4 * i:5 + 4 * i])[0] for i in range(n)]


_U32 = 0xFFFFFFFF


def pack_status(scan_us, load_us, dropped):
    """The board's own figures: its average scan period and load-cell period (microseconds,
    0: none read) over the last heartbeat's interval, and frames dropped since it started.
    A figure past 32 bits is capped, so it reads as huge rather than wrapping to small."""
    return struct.pack(">III", min(scan_us, _U32), min(load_us, _U32), min(dropped, _U32))


def unpack_status(body):
    """(scan period us, load-cell period us or 0, frames dropped); bytes after these three
    fields are left for a later board to define."""
    if len(body) < 12:
        raise ValueError("body: status too short")
    return struct.unpack(">III", body[:12])


def pack_leds(start, rgb):
    return struct.pack(">H", start) + bytes(rgb)


def unpack_leds(body):
    """(first LED index, RGB bytes)."""
    if len(body) < 2 or (len(body) - 2) % 3:
        raise ValueError("body: LED frame is not whole RGB triples")
    return struct.unpack(">H", body[:2])[0], bytes(body[2:])


def pack_token(token):
    return struct.pack(">H", token & 0xFFFF)


def unpack_token(body):
    if len(body) != 2:
        raise ValueError("body: ping token must be 2 bytes")
    return struct.unpack(">H", body)[0]
