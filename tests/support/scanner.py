"""The scanner board's serial port for its code run under CPython: what it wrote, kept."""

from __future__ import annotations

from hardware.scanner import obelisk_proto as proto


class Wire:
    """The board's serial port, captured."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.incoming = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.incoming)

    def read(self, n: int) -> bytes:
        data, self.incoming = bytes(self.incoming[:n]), self.incoming[n:]
        return data

    def write(self, data: bytes) -> None:
        self.out.extend(data)

    def frames(self) -> list:
        return proto.FrameReader().feed(bytes(self.out))
