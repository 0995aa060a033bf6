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
