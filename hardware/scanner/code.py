"""Scanner board entry point (CircuitPython runs code.py at boot).

``build()`` wires pins to the scanner; ``main()`` gives it the real board
modules and loops for ever. The simulator calls ``build()`` with fake
modules, and the tests call ``main()`` with fake board modules and a step
limit, so this wiring is tested too. Copy code.py, scanner.py and
obelisk_proto.py to the CIRCUITPY drive (see hardware/README.md).

What ``main()`` survives, where a builder watches: a first boot without the
data channel (it says so on the console and blinks ``WAITING_BLINK``), a Pi
that stops reading (writes time out at once; frames are dropped and
counted), an exception in a scan (told on the console; the loop goes on), a
hang (the watchdog resets the board) and a file saved mid-game (autoreload
is off while the board plays).
"""

try:
    from hardware.scanner import scanner as _scanner
except ImportError:
    import scanner as _scanner

try:  # the type checker's view of the board modules (board_types.pyi); none at run time
    from board_types import (
        DigitalInOut,
        Digitalio,
        Modules,
        Neopixel,
        Serial,
        Supervisor,
        WatchDogTimer,
    )
except ImportError:
    pass

# The reference build's Raspberry Pi Pico pin map (hardware/README.md).
PINS = {
    "drive_data": "GP2",
    "drive_clock": "GP3",
    "drive_latch": "GP4",
    "sense": ["GP5", "GP6", "GP7", "GP8", "GP9", "GP10", "GP11", "GP12", "GP13"],
    "load_clock": "GP14",
    "load_data": ["GP15", "GP16", "GP17", "GP18", "GP19", "GP20", "GP21", "GP22", "GP26"],
    "pixels": "GP28",
}

# What the reference board has attached (keep in step with the reference
# profile): two towers of 9 rods x 9 levels, an 8 x 8 board, 9 load cells and
# a pixel under each board square; one switch per square ("stack": 1, see
# hardware/README.md for stack-height sensors).
LAYOUT = {"towers": 2, "rods": 9, "levels": 9, "rows": 8, "cols": 8, "loads": 9, "leds": 64,
          "stack": 1}


def drive_lines(layout):
    """Tower levels, then board rows (once per stack level the board senses)."""
    return layout["towers"] * layout["levels"] + layout["rows"] * layout.get("stack", 1)


def _output(digitalio: "Digitalio", board, name) -> "DigitalInOut":
    pin = digitalio.DigitalInOut(getattr(board, name))
    pin.direction = digitalio.Direction.OUTPUT
    pin.value = False
    return pin


def _input(digitalio: "Digitalio", board, name, pull_up=True) -> "DigitalInOut":
    pin = digitalio.DigitalInOut(getattr(board, name))
    pin.direction = digitalio.Direction.INPUT
    if pull_up:
        pin.pull = digitalio.Pull.UP
    return pin


def build(board, digitalio: "Digitalio", neopixel: "Neopixel", serial: "Serial", layout=None,
          pins=None):
    """A ready Scanner on these modules; its hello is already on the wire."""
    layout = dict(LAYOUT if layout is None else layout)
    pins = PINS if pins is None else pins
    drive_count = drive_lines(layout)
    if "drive" in pins:  # drive lines straight on pins (a small board)
        drive = _scanner.DirectDrive([_output(digitalio, board, name)
                                      for name in pins["drive"][:drive_count]])
    else:  # a chain of 74HC595 shift registers
        drive = _scanner.ShiftDrive(_output(digitalio, board, pins["drive_data"]),
                                    _output(digitalio, board, pins["drive_clock"]),
                                    _output(digitalio, board, pins["drive_latch"]), drive_count)
    sense = [_input(digitalio, board, name) for name in pins["sense"]]
    matrix = _scanner.Matrix(drive, sense, _scanner.matrix_map(layout, drive_count, len(sense)))
    loads = None
    if layout["loads"]:
        loads = _scanner.Hx711Bank(
            _output(digitalio, board, pins["load_clock"]),
            [_input(digitalio, board, name, pull_up=False)
             for name in pins["load_data"][:layout["loads"]]])
    pixels = None
    if layout["leds"]:
        pixels = neopixel.NeoPixel(getattr(board, pins["pixels"]), layout["leds"],
                                   auto_write=False, pixel_order="GRB")
    return _scanner.Scanner(matrix, loads, pixels, serial, layout)


WAITING_BLINK = (0.15, 0.15, 0.15, 1.05)
"""No data channel yet: the onboard LED's on and off times (seconds), over and over:
two short blinks, then a pause. hardware/README.md explains it."""
WAITING_SAY_EVERY_S = 30
"""While waiting, the console is told again this often (a console opened late)."""
WRITE_TIMEOUT_S = 0.005
"""The longest one write to the data channel may wait for a Pi that does not read."""
WATCHDOG_S = 5.0
"""Without a turn of the loop for this long the board resets (the RP2040 allows 8.3 s)."""
FAILURE_BACKOFF_S = 0.05
"""After a scan raised, this pause, so a failing scan does not spin."""
REPORT_EVERY_S = 10
"""Failures and dropped frames are told on the console at most this often."""
NO_DATA_CHANNEL = (
    "obelisk scanner: no USB data channel yet (usb_cdc.data is None). boot.py opens it, "
    "but only at a hard reset: copy boot.py to CIRCUITPY, then unplug and replug the "
    "board or press its RESET button. Waiting (the LED blinks twice, then pauses).")


def board_modules() -> "Modules":
    """The real board modules, by name; a module this CircuitPython lacks is None."""
    import time

    import board
    import digitalio
    import neopixel
    import usb_cdc

    modules = {"time": time, "board": board, "digitalio": digitalio, "neopixel": neopixel,
               "usb_cdc": usb_cdc}  # type: Modules
    for name in ("microcontroller", "supervisor", "watchdog"):
        try:
            modules[name] = __import__(name)
        except ImportError:
            modules[name] = None
    return modules


def _led(modules: "Modules") -> "DigitalInOut | None":
    pin = getattr(modules["board"], "LED", None)
    if pin is None:
        return None
    digitalio = modules["digitalio"]
    led = digitalio.DigitalInOut(pin)
    led.direction = digitalio.Direction.OUTPUT
    return led


def wait_for_data(modules: "Modules", led: "DigitalInOut | None",
                  cycles=None) -> "Serial | None":
    """The data channel, once there is one; None if ``cycles`` blink cycles pass first.

    On a new board it stays None until the hard reset after boot.py is copied,
    so say so, blink, and look again after each cycle; never raise.
    """
    usb_cdc = modules["usb_cdc"]
    time = modules["time"]
    said = None
    done = 0
    while True:
        serial = usb_cdc.data
        if serial is not None:
            return serial
        if cycles is not None and done >= cycles:
            return None
        now = time.monotonic()
        if said is None or now - said >= WAITING_SAY_EVERY_S:
            print(NO_DATA_CHANNEL)
            said = now
        for k in range(len(WAITING_BLINK)):
            if led is not None:
                led.value = k % 2 == 0
            time.sleep(WAITING_BLINK[k])
        done += 1


def hold_autoreload(supervisor: "Supervisor | None", on=False):
    """Autoreload off (a file saved mid-game must not restart the board) or back on."""
    if supervisor is None:
        return
    runtime = getattr(supervisor, "runtime", None)
    if runtime is not None and hasattr(runtime, "autoreload"):  # CircuitPython 8 and later
        runtime.autoreload = on
    elif not on and hasattr(supervisor, "disable_autoreload"):  # CircuitPython 7
        supervisor.disable_autoreload()
    elif on and hasattr(supervisor, "enable_autoreload"):
        supervisor.enable_autoreload()


def start_watchdog(modules: "Modules") -> "WatchDogTimer | None":
    """The hardware watchdog, resetting the board unless fed; None where there is none."""
    micro = modules.get("microcontroller")
    kinds = modules.get("watchdog")
    dog = getattr(micro, "watchdog", None)  # type: WatchDogTimer | None
    if dog is None or kinds is None:
        print("obelisk scanner: no watchdog on this board; a hang needs a reset by hand")
        return None
    try:
        dog.timeout = WATCHDOG_S
        dog.mode = kinds.WatchDogMode.RESET
    except Exception as exc:  # a port whose watchdog cannot do this
        print("obelisk scanner: watchdog not started:", type(exc).__name__, exc)
        return None
    dog.feed()
    return dog


def _stop_watchdog(dog: "WatchDogTimer | None"):
    if dog is None:
        return
    try:  # CircuitPython 9 and 10 (10 has no deinit())
        dog.mode = None
    except Exception:  # some ports cannot stop it: the REPL then has WATCHDOG_S
        pass


class _Reports:
    """Failures and dropped frames, told on the console, at most every REPORT_EVERY_S."""

    def __init__(self, time):
        self.time = time
        self.failures = 0
        self.failures_told = 0
        self.last_failure = None
        self.dropped_told = 0
        self.next_ms = 0

    def failed(self, exc, now_ms):
        self.failures += 1
        text = "%s: %s" % (type(exc).__name__, exc)
        if text != self.last_failure or now_ms >= self.next_ms:
            self.last_failure = text
            print("obelisk scanner: a scan failed (%d in all), going on: %s"
                  % (self.failures, text))
            self.failures_told = self.failures
            self.next_ms = now_ms + REPORT_EVERY_S * 1000

    def dropped(self, dropped, now_ms):
        if dropped > self.dropped_told and now_ms >= self.next_ms:
            print("obelisk scanner: the Pi is not reading the data channel; %d frames dropped"
                  " (%d in all)" % (dropped - self.dropped_told, dropped))
            self.dropped_told = dropped
            self.next_ms = now_ms + REPORT_EVERY_S * 1000


def run(scanner, modules: "Modules", steps=None):
    """Scan for ever (or ``steps`` turns): feed the watchdog, and let no scan end it."""
    time = modules["time"]
    dog = start_watchdog(modules)
    reports = _Reports(time)
    done = 0
    try:
        while steps is None or done < steps:
            done += 1
            if dog is not None:
                dog.feed()
            now_ms = time.monotonic_ns() // 1000000
            try:
                scanner.step(now_ms)
            except Exception as exc:  # told, then on with the next scan
                reports.failed(exc, now_ms)
                time.sleep(FAILURE_BACKOFF_S)
            reports.dropped(scanner.dropped, now_ms)
    except KeyboardInterrupt:  # Ctrl-C on the console: the REPL, with no reset coming
        _stop_watchdog(dog)
        hold_autoreload(modules.get("supervisor"), on=True)
        raise


def main(modules: "Modules | None" = None, layout=None, steps=None):
    """Wait for the data channel, build the scanner, and scan for ever.

    The tests pass fake ``modules`` (as ``board_modules()`` returns them) and
    ``steps``, a limit on the blink cycles while waiting and on the turns of
    the loop; then the scanner is returned (None if the channel never came).
    """
    modules = board_modules() if modules is None else modules
    led = _led(modules)
    serial = wait_for_data(modules, led, steps)
    if serial is None:
        return None
    if led is not None:
        led.value = True  # lit while the board scans
    try:
        serial.write_timeout = WRITE_TIMEOUT_S
    except (AttributeError, ValueError):
        print("obelisk scanner: the data channel has no write timeout; a Pi that does not "
              "read may stall the board until the watchdog resets it")
    scanner = build(modules["board"], modules["digitalio"], modules["neopixel"], serial, layout)
    hold_autoreload(modules.get("supervisor"))
    run(scanner, modules, steps)
    return scanner


if __name__ == "__main__":
    main()
