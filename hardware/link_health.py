"""The scanner link's health: the counters ``obelisk diag`` shows, and the log lines.

``LinkHealth`` is what a person can read of the link. ``LinkTelling`` is the
part of ``hardware.link.ScannerLink`` that says in the log what is wrong
(a port that will not open, bad frames piling up, a board speaking another
protocol version, a board whose hello disagrees with the profile), each when
it starts or changes and then at most every ``notice_every_s`` (``Notices``).
"""

from __future__ import annotations

import errno
import logging
import os
import time
from dataclasses import dataclass, field

from hardware.scanner import obelisk_proto as proto
from hardware.sensors import BoardStatus, Layout

# The link's own logger: its lines keep the name they have always had in the log
# (``obelisk run`` prints it), whichever module tells them.
log = logging.getLogger("hardware.link")

NOTICE_EVERY_S = 30.0
"""A trouble that lasts is told again at most this often."""
WATCH_EVERY_S = 1.0
"""How often the reader looks at its counters (bad frames, versions, held notices)."""
BAD_FRAMES_WARN = 5
"""Bad frames within one period worth a warning; a single one happens at any plug-in."""
_BAD_WORDS = {"crc": "wrong checksum", "cobs": "garbled", "short": "too short",
              "long": "too long", "overflow": "never ended", "body": "contents made no sense",
              "gap": "out of sequence: frames lost, or another sender on the line"}
"""The frame reader's reasons for dropping a frame, as a person would say them."""


@dataclass
class LinkHealth:
    """Counters a person can read in ``obelisk diag``."""

    connected: bool = False
    frames: int = 0
    bad_frames: dict[str, int] = field(default_factory=dict)
    gaps: int = 0
    reconnects: int = 0
    resyncs: int = 0
    last_pong: int | None = None
    last_error: str = ""
    layout_mismatch: str = ""
    """Set while the board's hello disagrees with the profile: what differs and the fix."""
    board_version: int | None = None
    """The protocol version of refused frames from a board that speaks another one."""
    board_status: BoardStatus | None = None
    """The board's own figures from its latest STATUS (None: none since the port opened)."""

    @property
    def bad_total(self) -> int:
        return sum(self.bad_frames.values())


class Notices:
    """When a trouble is worth a log line: when it starts or changes, then every ``every_s``.

    A missing port is retried five times a second and a loose cable may flap;
    the log must stay readable all the same. At most ``burst`` changes of one
    kind are told per ``every_s``; after that the reader's watch tells the
    state as it then is, once the period allows.
    """

    def __init__(self, every_s: float, burst: int = 6) -> None:
        self.every_s = every_s
        self.burst = burst
        self._said: dict[str, tuple[object, float]] = {}  # kind -> (state, when told)
        self._changes: dict[str, list[float]] = {}  # kind -> when its recent changes were told

    def due(self, kind: str, state: object, now: float, *, remind: bool = True) -> bool:
        """Whether ``state`` is news: a change within the burst, or a lasting trouble's reminder."""
        said = self._said.get(kind)
        if said is not None and said[0] == state:
            return remind and now - said[1] >= self.every_s
        recent = [t for t in self._changes.get(kind, ()) if now - t < self.every_s]
        self._changes[kind] = recent
        return len(recent) < self.burst

    def told(self, kind: str, state: object, now: float) -> None:
        said = self._said.get(kind)
        if said is None or said[0] != state:
            self._changes.setdefault(kind, []).append(now)
        self._said[kind] = (state, now)

    def last(self, kind: str) -> object:
        """The state last told for ``kind``, or None."""
        said = self._said.get(kind)
        return None if said is None else said[0]


class LinkTelling:
    """What the scanner link tells the log about itself; mixed into ``ScannerLink``,
    which sets everything below."""

    port: str
    health: LinkHealth
    reader: proto.FrameReader
    expected: Layout | None
    expected_from: str
    _notices: Notices
    _port_state: tuple[object, str, int, float] | None
    _port_changes: int
    _port_changes_told: int
    _next_watch: float
    _bad_base: tuple[float, dict[str, int]]
    _versions_watched: int

    def _port_is(self, state: object, level: int, message: str) -> None:
        """The port's state now; told at once if that is news (see ``Notices``)."""
        now = time.monotonic()
        if self._port_state is None or self._port_state[0] != state:
            self._port_changes += 1
            self._port_state = (state, message, level, now)
        else:
            self._port_state = (state, message, level, self._port_state[3])
        self._tell_port(now)

    def _tell_port(self, now: float) -> None:
        if self._port_state is None:
            return
        state, message, level, since = self._port_state
        if not self._notices.due("port", state, now, remind=state != "connected"):
            return
        if self._notices.last("port") == state:
            message += f" (still, after {now - since:.0f} s)"
        untold = self._port_changes - self._port_changes_told - 1
        if untold > 0:
            message += f" ({untold} more changes since the last line about it)"
        self._port_changes_told = self._port_changes
        self._notices.told("port", state, now)
        log.log(level, "%s", message)

    def _watch(self, now: float) -> None:
        """Once a second or so: tell what the counters say is wrong, and held-back news."""
        self._next_watch = now + WATCH_EVERY_S
        self._tell_port(now)
        bad = self.reader.bad
        self._watch_versions(now, bad.get("version", 0))
        since, base = self._bad_base
        bad = {**bad, "gap": self.health.gaps}  # each gap cost a whole new snapshot
        new = {k: n - base.get(k, 0) for k, n in bad.items()
               if k != "version" and n > base.get(k, 0)}
        total = sum(new.values())
        if total >= BAD_FRAMES_WARN and self._notices.due("bad frames", "piling up", now):
            self._notices.told("bad frames", "piling up", now)
            kinds = ", ".join(f"{n} {kind}" + (f" ({_BAD_WORDS[kind]})" if kind in _BAD_WORDS
                                                else "") for kind, n in sorted(new.items()))
            log.warning("scanner link on %s: %d bad frames in the last %.0f s (%s), dropped; "
                        "check the USB cable and its plugs (keep it short and "
                        "away from the LED power wires), then watch the counts in `obelisk "
                        "diag`", self.port, total, now - since, kinds)
            self._bad_base = (now, dict(bad))
        elif total < BAD_FRAMES_WARN and now - since >= self._notices.every_s:
            self._bad_base = (now, dict(bad))  # a few stray frames are no news

    def _watch_versions(self, now: float, refused: int) -> None:
        if refused <= self._versions_watched:
            return  # none arrived since the last watch: nothing new to tell
        self._versions_watched = refused
        version = self.health.board_version
        if not self._notices.due("version", version, now):
            return
        self._notices.told("version", version, now)
        speaks = f"protocol version {version}" if version is not None \
            else "another protocol version"
        newer = version is not None and version > proto.PROTOCOL_VERSION
        log.warning("scanner board on %s speaks %s, and this Pi speaks version %d: %d of its "
                    "frames refused so far; update the scanner board's code: copy %s "
                    "onto its CIRCUITPY drive (hardware/README.md, Installing the scanner code)",
                    self.port, speaks, proto.PROTOCOL_VERSION, refused,
                    "this project's hardware/scanner files" + (
                        ", from an obelisk at least as new as the board's (update this Pi's "
                        "obelisk first)" if newer else ""))
        self.health.last_error = (f"the scanner board speaks {speaks}, this Pi version "
                                  f"{proto.PROTOCOL_VERSION}")

    def _sniff_version(self, data: bytes) -> None:
        """The version byte of a whole, checksummed frame of another protocol version."""
        for part in bytes(data).split(b"\x00"):
            try:
                payload = proto.cobs_decode(part)
            except ValueError:
                continue
            if (len(payload) >= 5 and payload[0] != proto.PROTOCOL_VERSION
                    and proto.crc16(payload[:-2]) == (payload[-2] << 8 | payload[-1])):
                self.health.board_version = payload[0]
                self._next_watch = 0.0  # tell it at once
                return

    def _check_layout(self, board: Layout) -> None:
        """Tell a hello that disagrees with the profile (once per hello, every_s at most)."""
        want = self.expected
        if want is None:
            return
        fields = ("towers", "rows", "cols", "loads", "stack")
        if all(getattr(board, f) == getattr(want, f) for f in fields):
            if self.health.layout_mismatch:
                log.info("scanner board on %s now matches %s", self.port, self.expected_from)
            self.health.layout_mismatch = ""
            return
        message = (f"the scanner board on {self.port} ({board.firmware}) has "
                   f"{_describe(board)}, but {self.expected_from} describes "
                   f"{_describe(want)}; until they agree the table misreads its sensors: set "
                   "LAYOUT at the top of the board's code.py to match, or [scanner] towers, "
                   f"board, load_cells and stack_levels or wall_sensors in {self.expected_from} "
                   "(copy a built-in profile to a file and pass it with --profile)")
        self.health.layout_mismatch = message
        self.health.last_error = message
        state = tuple(getattr(board, f) for f in fields)
        now = time.monotonic()
        if self._notices.due("layout", state, now):
            self._notices.told("layout", state, now)
            log.warning("%s", message)


_PORT_WORDS = {
    errno.ENOENT: "no such port: the board is not plugged in, or the profile names another "
                  "port",
    errno.ENODEV: "no such device: the board is not plugged in",
    errno.ENXIO: "no such device: the board is not plugged in",
    errno.EACCES: "no permission to open it: add this user to the dialout group (sudo "
                  "usermod -aG dialout $USER), then log in again",
    errno.EPERM: "no permission to open it: add this user to the dialout group (sudo "
                 "usermod -aG dialout $USER), then log in again",
    errno.EBUSY: "in use by another program: a table service running on it holds it, and "
                 "`obelisk diag --state-dir DIR` asks that one",
    errno.EAGAIN: "in use by another program: a table service running on it holds it, and "
                  "`obelisk diag --state-dir DIR` asks that one",
    errno.EIO: "the line failed: the cable was pulled, or the board restarted",
    errno.ENOTTY: "not a serial port: check [scanner] port in the profile",
}


def port_trouble(exc: BaseException) -> str:
    """What a port's failure means to a person, from its errno (pyserial's own text names
    its call and repeats the path: ``[Errno 2] could not open port ...``)."""
    code = getattr(exc, "errno", None)
    if code in _PORT_WORDS:
        return _PORT_WORDS[code]
    if isinstance(code, int) and code > 0:
        return os.strerror(code).lower()
    if isinstance(exc, TypeError):  # pyserial selecting on a descriptor closed under it
        return "the port was closed under a write (the cable pulled as the Pi wrote)"
    return "the board stopped answering (unplugged, or another program reads its port)"


def impossible(lay: Layout) -> str:
    """Why no table of this project has ``lay`` ("": one may; a hello that names it is a
    frame of nonsense, not a board to adopt): two towers of 9 rods 9 levels high or none,
    a board of 1x1 to 8x8 or none, at most 64 load cells."""
    if lay.towers not in (0, 2):
        return f"{lay.towers} towers"
    if lay.towers and (lay.rods, lay.levels) != (9, 9):
        return f"towers of {lay.rods} rods and {lay.levels} levels"
    if (lay.rows == 0) != (lay.cols == 0) or not (0 <= lay.rows <= 8 and 0 <= lay.cols <= 8):
        return f"a board of {lay.rows}x{lay.cols}"
    if lay.loads > 64:
        return f"{lay.loads} load cells"
    return ""


def _describe(lay: Layout) -> str:
    """A layout as a person counts it: towers, board, load cells, switches per square."""
    board = f"board {lay.rows}x{lay.cols}" if lay.rows else "no board"
    return (f"{lay.towers} towers, {board}, {lay.loads} load cells, {lay.stack} "
            f"switch{'es' if lay.stack != 1 else ''} per square")
