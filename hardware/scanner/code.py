"""Scanner board entry point (CircuitPython runs code.py at boot).

``build()`` wires pins to the scanner; ``main()`` gives it the real board
modules and loops for ever. The simulator calls ``build()`` with fake
modules, so this wiring is tested too. Copy code.py, scanner.py and
obelisk_proto.py to the CIRCUITPY drive (see hardware/README.md).
"""

try:
    from hardware.scanner import scanner as _scanner
except ImportError:
    import scanner as _scanner

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


def _output(digitalio, board, name):
    pin = digitalio.DigitalInOut(getattr(board, name))
    pin.direction = digitalio.Direction.OUTPUT
    pin.value = False
    return pin


def _input(digitalio, board, name, pull_up=True):
    pin = digitalio.DigitalInOut(getattr(board, name))
    pin.direction = digitalio.Direction.INPUT
    if pull_up:
        pin.pull = digitalio.Pull.UP
    return pin


def build(board, digitalio, neopixel, serial, layout=None, pins=None):
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


def main():
    import time

    import board
    import digitalio
    import neopixel
    import usb_cdc

    scanner = build(board, digitalio, neopixel, usb_cdc.data)
    while True:
        scanner.step(time.monotonic_ns() // 1_000_000)


if __name__ == "__main__":
    main()
