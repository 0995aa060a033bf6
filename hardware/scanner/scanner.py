"""The scanner board's work: scan switches, read load cells, drive LEDs, talk.

Runs on the scanner board under CircuitPython, and under CPython in the
tests and the simulator, with the same pins interface injected by
``code.py``'s ``build()``. Nothing here imports board modules.

Switch matrix: drive lines come from a chain of 74HC595 shift registers
(walking one low output along the chain), sense lines are inputs with
pull-ups; a closed switch, through its diode, pulls its sense line low
while its drive line is active. Load cells are HX711s sharing one clock.
"""

try:  # on the Pi and in tests
    from hardware.scanner import obelisk_proto as proto
except ImportError:  # on the scanner board, where files sit side by side
    import obelisk_proto as proto

FIRMWARE = "obelisk-scanner 1.1"
DEBOUNCE_SCANS = 3
"""A switch must read the same this many scans in a row before it counts."""
SNAPSHOT_EVERY_MS = 1000
"""A full snapshot doubles as a heartbeat."""
LOAD_EVERY_MS = 25
"""HX711s with RATE high convert 80 times a second; every other reading is sent when it
moved, so a pyramid set down is seen within about 25 ms rather than 100."""
LOAD_NOISE = 40
"""Load readings that move less than this (raw counts) are not sent again."""
RESYNC_RETRY_MS = 100
"""After a frame was dropped (the host is not reading), how often a snapshot is tried
again; changes and load readings wait for it, since it carries them all."""


class ShiftDrive:
    """Drive lines through 74HC595s: one output low at a time, walking along."""

    def __init__(self, data, clock, latch, count):
        self.data = data
        self.clock = clock
        self.latch = latch
        self.count = count
        self.active = -1
        data.value = True  # all outputs high: no line active
        self._bit = True  # what the data pin holds: it is written only when that changes
        for _ in range(count):
            clock.value = True
            clock.value = False
        latch.value = True
        latch.value = False

    def step(self):
        """Make the next line active (the first after the last), and return it.

        Called for every drive line of every scan, so written out in full: a
        method call per pulse cost more than the pulse."""
        active = self.active + 1
        if active >= self.count:
            active = 0
        self.active = active
        bit = active != 0  # a new low bit enters at line 0, then walks on
        if bit != self._bit:
            self.data.value = bit
            self._bit = bit
        clock = self.clock
        clock.value = True
        clock.value = False
        latch = self.latch
        latch.value = True
        latch.value = False
        return active


class DirectDrive:
    """Drive lines wired straight to output pins (small boards): one low at a time."""

    def __init__(self, pins):
        self.pins = pins
        self.count = len(pins)
        self.active = -1
        for pin in pins:
            pin.value = True

    def step(self):
        if self.active >= 0:
            self.pins[self.active].value = True
        self.active = (self.active + 1) % self.count
        self.pins[self.active].value = False
        return self.active


class Matrix:
    """Debounced switch states from the drive chain and the sense inputs."""

    def __init__(self, drive, sense, index_of):
        self.drive = drive
        self.sense = sense
        self.index_of = index_of  # (drive line, sense line) -> switch index or None
        self.count = 1 + max((i for row in index_of for i in row if i is not None), default=-1)
        self.stable = bytearray(self.count)
        self._runs = bytearray(self.count)
        # For each drive line, only its wired (sense pin, switch) pairs: what scan() walks.
        self._wired = [tuple((pin, i) for pin, i in zip(sense, row) if i is not None)
                       for row in index_of]

    def closed(self):
        return [i for i in range(self.count) if self.stable[i]]

    def scan(self):
        """One pass over every drive line; returns the switches that changed."""
        changes = []
        stable = self.stable
        runs = self._runs
        wired = self._wired
        step = self.drive.step
        for _ in range(self.drive.count):
            for pin, i in wired[step()]:
                now = 0 if pin.value else 1  # pulled low means closed
                if now == stable[i]:
                    if runs[i]:
                        runs[i] = 0
                    continue
                runs[i] += 1
                if runs[i] >= DEBOUNCE_SCANS:
                    stable[i] = now
                    runs[i] = 0
                    changes.append((i, bool(now)))
        return changes


class Hx711Bank:
    """Several HX711 load-cell amplifiers clocked together, read in parallel."""

    def __init__(self, clock, data_pins, gain_pulses=1):
        self.clock = clock
        self.data = data_pins
        self.gain_pulses = gain_pulses  # 1: channel A, gain 128
        self.values = [0] * len(data_pins)

    def ready(self):
        return bool(self.data) and not any(pin.value for pin in self.data)

    def read(self):
        raw = [0] * len(self.data)
        for _ in range(24):
            self.clock.value = True
            self.clock.value = False
            for k, pin in enumerate(self.data):
                raw[k] = (raw[k] << 1) | (1 if pin.value else 0)
        for _ in range(self.gain_pulses):
            self.clock.value = True
            self.clock.value = False
        self.values = [v - (1 << 24) if v & 0x800000 else v for v in raw]
        return self.values


class Scanner:
    """The board's main loop, one ``step(now_ms)`` at a time."""

    def __init__(self, matrix, loads, pixels, serial, layout):
        self.matrix = matrix
        self.loads = loads
        self.pixels = pixels
        self.serial = serial
        self.layout = layout  # dict: towers, rods, levels, rows, cols
        self.reader = proto.FrameReader()
        self.seq = 0
        self._sent_loads = None
        self._next_snapshot = 0
        self._next_load = 0
        self.dropped = 0
        """Frames that did not go out whole (the host not reading, a cable out)."""
        self.behind = False
        """True from a dropped frame until a snapshot goes out whole."""
        self._torn = False  # part of a frame went out: end it before the next one
        self._next_retry = 0
        self.scan_us = 0
        """The average turn of the loop over the last heartbeat's interval, in microseconds,
        as this board measured it on the clock ``step`` is given (0: not measured yet)."""
        self.load_us = 0
        """The same for the load cells' readings (0: fewer than two read in the interval)."""
        self._beat_ms = None  # when the interval being measured began (the last heartbeat)
        self._scans = 0  # turns of the loop since then
        self._load_first = 0  # when the interval's first load-cell reading was taken
        self._load_last = 0
        self._loads_read = 0
        self._status_due = False  # measured figures not sent yet
        self.hello()

    def _send(self, kind, body=b""):
        """Write one frame; never waits for a host that does not read (the port's write
        timeout bounds it). A frame that does not go out whole is dropped and counted;
        its sequence number is spent, so the host sees the gap and asks for a SYNC."""
        frame = proto.encode_frame(kind, self.seq, body)
        self.seq = (self.seq + 1) & 0xFF
        if self._torn:  # a delimiter first: the torn frame ends here, alone
            frame = b"\x00" + frame
        try:
            wrote = self.serial.write(frame)
        except OSError:  # a timeout, or nobody listening (cable out)
            wrote = 0
        if wrote is None:  # a stream that does not say: it took it all
            wrote = len(frame)
        if wrote >= len(frame):
            self._torn = False
            return True
        if wrote > 0:
            self._torn = True
        self.dropped += 1
        self.behind = True
        return False

    def hello(self):
        lay = self.layout
        leds = len(self.pixels) if self.pixels is not None else 0
        loads = len(self.loads.data) if self.loads is not None else 0
        self._send(proto.HELLO, proto.pack_hello(
            FIRMWARE, lay["towers"], lay["rods"], lay["levels"], lay["rows"], lay["cols"],
            loads, leds, lay.get("stack", 1)))

    def snapshot(self):
        values = self.loads.values if self.loads is not None else []
        if self._send(proto.SNAPSHOT, proto.pack_snapshot(
                self.matrix.closed(), self.matrix.count, values)):
            self.behind = False  # the host has the whole picture again
            if self.loads is not None:
                self._sent_loads = list(values)

    def status(self):
        """Tell the host what this board measured; the figures wait for the next whole
        snapshot if this frame does not go out."""
        if self._send(proto.STATUS, proto.pack_status(self.scan_us, self.load_us,
                                                      self.dropped)):
            self._status_due = False

    def _measure(self, now_ms):
        """Close the interval since the last heartbeat: its average scan and load-cell
        periods. Averages over a second make a millisecond clock precise enough."""
        if self._beat_ms is not None and self._scans:
            self.scan_us = (now_ms - self._beat_ms) * 1000 // self._scans
            reads = self._loads_read
            self.load_us = ((self._load_last - self._load_first) * 1000 // (reads - 1)
                            if reads > 1 else 0)
            self._status_due = True
        self._beat_ms = now_ms
        self._scans = 0
        if self._loads_read:  # the last reading begins the next interval
            self._load_first = self._load_last
            self._loads_read = 1

    def _receive(self):
        try:
            waiting = self.serial.in_waiting
            data = self.serial.read(waiting) if waiting else b""
        except OSError:
            return
        for kind, _seq, body in self.reader.feed(data or b""):
            try:
                self._handle(kind, body)
            except ValueError:
                self.reader.count_bad("body")

    def _handle(self, kind, body):
        if kind == proto.SYNC:
            self.hello()
            if self.scan_us:  # before the snapshot, so a host that waits for it has both
                self.status()
            self.snapshot()
        elif kind == proto.PING:
            self._send(proto.PONG, proto.pack_token(proto.unpack_token(body)))
        elif kind == proto.LED_FRAME and self.pixels is not None:
            start, rgb = proto.unpack_leds(body)
            n = len(self.pixels)
            for k in range(len(rgb) // 3):
                if start + k < n:
                    self.pixels[start + k] = (rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2])
            self.pixels.show()

    def step(self, now_ms):
        """Listen, scan once, report what changed, and send what is due."""
        self._scans += 1
        self._receive()
        changes = self.matrix.scan()
        if changes and not self.behind:  # behind, the next snapshot carries them
            self._send(proto.CHANGES, proto.pack_changes(changes))
        if self.loads is not None and now_ms >= self._next_load and self.loads.ready():
            self._next_load = now_ms + LOAD_EVERY_MS
            if not self._loads_read:
                self._load_first = now_ms
            self._load_last = now_ms
            self._loads_read += 1
            values = self.loads.read()
            last = self._sent_loads
            moved = last is None or any(abs(a - b) >= LOAD_NOISE for a, b in zip(values, last))
            if moved and not self.behind:
                self._sent_loads = list(values)
                self._send(proto.LOAD, proto.pack_loads(values))
        beat = now_ms >= self._next_snapshot
        if beat or (self.behind and now_ms >= self._next_retry):
            if beat:
                self._measure(now_ms)
            self._next_snapshot = now_ms + SNAPSHOT_EVERY_MS
            self._next_retry = now_ms + RESYNC_RETRY_MS
            self.snapshot()
            if self._status_due and not self.behind:
                self.status()


def matrix_map(layout, drive_count, sense_count):
    """Which switch each (drive line, sense line) pair reads.

    Drive lines: tower 0 levels 1-9, tower 1 levels 1-9, then board rows
    (and with stack-height sensing, the board rows again for each upper level).
    Sense lines: rods a1..c3 for towers, columns for the board.
    """
    towers, rods, levels = layout["towers"], layout["rods"], layout["levels"]
    rows, cols = layout["rows"], layout["cols"]
    stack = layout.get("stack", 1)
    table = []
    for d in range(drive_count):
        row = [None] * sense_count
        if d < towers * levels:
            tower, level = divmod(d, levels)
            for s in range(min(rods, sense_count)):
                row[s] = tower * levels * rods + level * rods + s
        elif d - towers * levels < rows * stack:
            k, r = divmod(d - towers * levels, rows)
            for s in range(min(cols, sense_count)):
                row[s] = towers * levels * rods + k * rows * cols + r * cols + s
        table.append(row)
    return table
