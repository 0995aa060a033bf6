"""The scanner protocol: framing, checksum, bodies, and a parser that never raises."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.scanner import obelisk_proto as proto


def test_crc16_is_ccitt_false():
    assert proto.crc16(b"123456789") == 0x29B1
    assert proto.crc16(b"") == 0xFFFF


@given(st.binary(max_size=700), st.integers(0, 0xFFFF))
def test_the_pis_crc_in_c_is_the_boards_own(data, start):
    """The Pi uses binascii's CRC; the board (CircuitPython) its own table: the same sums."""
    c_made = proto.crc16(data, start)
    board, proto._crc_in_c = proto._crc_in_c, None
    try:
        assert proto.crc16(data, start) == c_made
    finally:
        proto._crc_in_c = board


def _cobs_by_the_byte(data: bytes) -> bytes:
    """COBS a byte at a time, as the protocol describes it: the reference."""
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
    return bytes(out + bytes([len(block) + 1]) + block)


@given(st.lists(st.sampled_from([b"\x00", b"\x07", b"\x07" * 253, b"\x07" * 254,
                                 b"\x07" * 255]), max_size=8))
def test_cobs_cuts_runs_as_the_protocol_says(parts):
    data = b"".join(parts)
    assert proto.cobs_encode(data) == _cobs_by_the_byte(data)


@given(st.binary(max_size=700))
def test_cobs_round_trips_and_removes_zeros(data):
    encoded = proto.cobs_encode(data)
    assert 0 not in encoded
    assert proto.cobs_decode(encoded) == data


@given(kind=st.integers(0, 255), seq=st.integers(0, 255), body=st.binary(max_size=500))
def test_frames_round_trip(kind, seq, body):
    frame = proto.encode_frame(kind, seq, body)
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    assert proto.decode_frame(frame[:-1]) == (kind, seq, body)


def test_the_reader_joins_split_frames_and_skips_junk():
    a = proto.encode_frame(proto.PING, 1, proto.pack_token(7))
    b = proto.encode_frame(proto.PONG, 2, proto.pack_token(7))
    reader = proto.FrameReader()
    stream = b"\x13\x37junk\x00" + a + b
    got = []
    for i in range(0, len(stream), 3):  # arrives three bytes at a time
        got += reader.feed(stream[i:i + 3])
    assert got == [(proto.PING, 1, b"\x00\x07"), (proto.PONG, 2, b"\x00\x07")]
    assert reader.frames == 2 and reader.bad_total == 1


@pytest.mark.parametrize(("wire", "reason"), [
    (proto.encode_frame(1, 0, b"abc")[:-3] + b"\x00", "cobs"),    # truncated
    (b"\x05ab\x00", "cobs"),                                      # block past the end
    (proto.cobs_encode(b"\x01\x02") + b"\x00", "short"),
    (proto.cobs_encode(bytes([9, 1, 0, 0, 0])) + b"\x00", "crc"),
])
def test_bad_frames_are_counted_by_reason(wire, reason):
    reader = proto.FrameReader()
    assert reader.feed(wire) == []
    assert reader.bad == {reason: 1}


def test_a_newer_protocol_version_is_refused():
    payload = bytes([proto.PROTOCOL_VERSION + 1, proto.PING, 0, 0, 1])
    crc = proto.crc16(payload)
    wire = proto.cobs_encode(payload + bytes([crc >> 8, crc & 0xFF])) + b"\x00"
    reader = proto.FrameReader()
    assert reader.feed(wire) == [] and reader.bad == {"version": 1}


def test_an_endless_frame_overflows_then_the_reader_recovers():
    reader = proto.FrameReader(max_frame=100)
    assert reader.feed(b"\x07" * 500) == []
    good = proto.encode_frame(proto.PING, 3, proto.pack_token(1))
    assert reader.feed(b"more junk\x00" + good) == [(proto.PING, 3, b"\x00\x01")]
    assert reader.bad == {"overflow": 1}


def test_10000_random_garbage_frames_never_raise():
    rng = random.Random(2026)
    reader = proto.FrameReader()
    good = proto.encode_frame(proto.CHANGES, 9, proto.pack_changes([(4, True)]))
    seen_good = 0
    for i in range(10_000):
        kind = rng.randrange(4)
        if kind == 0:  # raw noise with delimiters
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + b"\x00"
        elif kind == 1:  # a real frame with one byte flipped
            frame = bytearray(good)
            frame[rng.randrange(len(frame) - 1)] ^= 1 << rng.randrange(8) or 1
            junk = bytes(frame)
        elif kind == 2:  # a real frame cut short
            junk = good[:rng.randrange(1, len(good) - 1)] + b"\x00"
        else:  # well framed, checksum fine, nonsense inside
            junk = proto.encode_frame(rng.randrange(256), rng.randrange(256),
                                      bytes(rng.randrange(256) for _ in range(rng.randrange(9))))
        reader.feed(junk)
        if i % 1000 == 0:
            seen_good += len(reader.feed(good))
    assert seen_good == 10  # real frames still get through between the garbage
    assert reader.bad_total > 5_000


@given(st.binary(max_size=300))
def test_any_bytes_at_all_are_safe(data):
    reader = proto.FrameReader()
    for kind, seq, body in reader.feed(data):
        assert 0 <= kind < 256 and 0 <= seq < 256 and isinstance(body, bytes)


def test_message_bodies_round_trip():
    hello = proto.pack_hello("fw 1.2", 2, 9, 9, 8, 8, 9, 64)
    assert proto.unpack_hello(hello) == ("fw 1.2", 2, 9, 9, 8, 8, 9, 64, 1)
    hello = proto.pack_hello("fw 1.2", 0, 9, 9, 6, 4, 0, 24, 3)
    assert proto.unpack_hello(hello) == ("fw 1.2", 0, 9, 9, 6, 4, 0, 24, 3)
    closed = [0, 7, 8, 161, 225]
    body = proto.pack_snapshot(closed, 226, [5, -3, 1 << 20])
    assert proto.unpack_snapshot(body) == (closed, 226, [5, -3, 1 << 20])
    assert proto.unpack_changes(proto.pack_changes([(3, True), (200, False)])) == \
        [(3, True), (200, False)]
    assert proto.unpack_leds(proto.pack_leds(4, b"\x01\x02\x03")) == (4, b"\x01\x02\x03")


def test_a_status_carries_the_boards_own_periods_and_drops():
    body = proto.pack_status(8412, 25000, 3)
    assert proto.unpack_status(body) == (8412, 25000, 3)
    kind, seq, got = proto.decode_frame(proto.encode_frame(proto.STATUS, 9, body)[:-1])
    assert (kind, seq, proto.unpack_status(got)) == (proto.STATUS, 9, (8412, 25000, 3))
    assert proto.KIND_NAMES[proto.STATUS] == "status"
    assert proto.unpack_status(proto.pack_status(1, 0, 0) + b"later") == (1, 0, 0), \
        "fields a later board adds at the end are left for it"
    huge = proto.unpack_status(proto.pack_status(1 << 40, 5, 1 << 33))
    assert huge == (0xFFFFFFFF, 5, 0xFFFFFFFF), "a figure past 32 bits is capped, not wrapped"


@pytest.mark.parametrize(("unpack", "body"), [
    (proto.unpack_hello, b"\x01\x02"),
    (proto.unpack_hello, b"\x02\x09\x09\x08\x08\x00\x00\x40\x07fw"),  # 7 stack levels
    (proto.unpack_snapshot, b"\x00\xff\x00"),
    (proto.unpack_changes, b"\x00"),
    (proto.unpack_loads, b"\x02\x00\x00\x00\x01"),
    (proto.unpack_leds, b"\x00\x00\x01"),
    (proto.unpack_token, b"\x01"),
    (proto.unpack_status, b"\x00\x00\x20\xdc\x00\x00"),
])
def test_short_bodies_are_refused_with_value_error(unpack, body):
    with pytest.raises(ValueError, match=r"^body: "):
        unpack(body)
