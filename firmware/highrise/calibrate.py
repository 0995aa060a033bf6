"""``obelisk calibrate highrise``: weigh an empty board and one piece of each size.

The load cells report raw counts. What an empty pad reads, and what a small,
a medium and a large pyramid add, differ from table to table, so a person
measures them once: the steps below are shown one at a time, the person
does each and confirms (Enter, or a player button), and the table takes a
steady reading. The result goes into the state directory, where the High
Rise table finds it.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine.highrise.sensing import Calibration, CalibrationError
from firmware.store.state_dir import StateDir, StateDirError, default_state_dir, write_whole
from hardware.buttons import ButtonEvent
from hardware.devices import TableDevices, open_table
from hardware.files import KIB, read_limited
from hardware.link import ScannerLink
from hardware.profile import load_profile
from hardware.sim.table import PYRAMID_GRAMS

FILE = "highrise-calibration.json"
STEPS = (
    ("empty", "Take every piece off the board, covers too."),
    ("small", "Put one small pyramid (1 pip) alone on square a1."),
    ("medium", "Take it off and put one medium pyramid (2 pips) alone on a1."),
    ("large", "Take it off and put one large pyramid (3 pips) alone on a1."),
)
_READINGS = 5


def load_calibration(state_dir: str | Path, pads: int) -> Calibration:
    """The stored calibration, checked for a board of ``pads`` squares."""
    path = Path(state_dir) / FILE
    fix = "run `obelisk calibrate highrise` (with the same --state-dir)"
    try:
        data = json.loads(read_limited(path, 64 * KIB).decode("utf-8"))
        zero = tuple(int(v) for v in data["zero"])
        sizes = tuple(int(v) for v in data["sizes"])
        tolerance = int(data["tolerance"])
    except FileNotFoundError:
        raise CalibrationError(f"the High Rise table is not calibrated ({path} is missing): "
                               f"{fix}") from None
    except OSError as exc:  # not a file, too large, no permission
        raise CalibrationError(f"{path} cannot be read ({exc.strerror}): {fix} again") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise CalibrationError(f"{path} is damaged ({exc}): {fix} again") from None
    if len(sizes) != 3 or not tolerance > 0 or not 0 < sizes[0] < sizes[1] < sizes[2]:
        raise CalibrationError(f"{path} does not describe three piece sizes: {fix} again")
    cal = Calibration(zero, sizes, tolerance)
    if len(cal.zero) < pads:
        raise CalibrationError(f"{path} was measured on {len(cal.zero)} load cells, but this "
                               f"board has {pads} squares: {fix} again")
    return cal


def save_calibration(state_dir: str | Path, cal: Calibration) -> Path:
    """Store the calibration whole (StateDirError, with the fix, when it cannot be)."""
    path = Path(state_dir) / FILE
    text = json.dumps({"zero": list(cal.zero), "sizes": list(cal.sizes),
                       "tolerance": cal.tolerance,
                       "measured": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=1) + "\n"
    write_whole(path, text.encode("utf-8"))
    return path


def steady_loads(link: ScannerLink, count: int = _READINGS) -> tuple[tuple[int, ...], int]:
    """A steady reading of every load cell (the median of fresh snapshots) and its spread."""
    readings = []
    for _ in range(count * 4):
        snap = link.fresh_snapshot(1.0)
        if snap is not None and snap.loads:
            readings.append(snap.loads)
            if len(readings) == count:
                break
        time.sleep(0.11)  # a few of the board's readings apart (LOAD_EVERY_MS, 25 ms)
    if len(readings) < count:
        raise CalibrationError("the scanner board sends no load-cell readings: check the "
                               "cable and run `obelisk diag`")
    pads = list(zip(*readings, strict=True))
    median = tuple(sorted(p)[len(p) // 2] for p in pads)
    spread = max(max(p) - min(p) for p in pads)
    return median, spread


def calibrate(link: ScannerLink, do_step: Callable[[str, str], None]) -> Calibration:
    """Walk through the steps; ``do_step(name, words)`` returns once the person is done."""
    measured: dict[str, tuple[int, ...]] = {}
    noise = 0
    for name, words in STEPS:
        do_step(name, words)
        measured[name], spread = steady_loads(link)
        noise = max(noise, spread)
    zero = measured["empty"]
    sizes = tuple(measured[name][0] - zero[0] for name in ("small", "medium", "large"))
    return Calibration.measured(zero, (sizes[0], sizes[1], sizes[2]), noise)


def sim_hand(devices: TableDevices) -> Callable[[str, str], None]:
    """On the simulated table, a hand that does each step (the sim pyramids' weights)."""
    sim = devices.sim
    assert sim is not None

    def do_step(name: str, words: str) -> None:
        for pad in range(len(sim.grams)):
            sim.weigh(pad, 0.0)
        if name != "empty":
            sim.weigh(0, PYRAMID_GRAMS[1 + ("small", "medium", "large").index(name)])
        devices.link.wait_for(lambda snap: tuple(snap.loads) == sim.load_counts(), 3.0)

    return do_step


def _person(devices: TableDevices, out) -> Callable[[str, str], None]:
    """A person at the table: each step is shown, Enter or a player button says done."""
    done = threading.Event()

    def pressed(event: ButtonEvent) -> None:
        if event.button != "menu":  # the menu button is no "done"
            done.set()

    devices.buttons.on_event = pressed

    def read_enter() -> None:
        for _ in sys.stdin:
            done.set()

    threading.Thread(target=read_enter, daemon=True).start()

    def do_step(name: str, words: str) -> None:
        done.clear()
        print(f"{words}\n  then press Enter, or a player button.", file=out, flush=True)
        done.wait()

    return do_step


def run_calibrate(profile_name: str, state_dir: str | Path | None = None, out=None) -> int:
    """``obelisk calibrate highrise``: measure, show and store the calibration.

    The state directory is taken and checked before the first weighing, so
    that a person never weighs four times for a result that cannot be kept.
    """
    out = out or sys.stdout
    profile = load_profile(profile_name)
    if not profile.scanner.load_cells:
        raise CalibrationError(f"profile {profile.name} has no load cells ([scanner] "
                               "load_cells = 0): High Rise needs one under each square")
    where = f" --state-dir {state_dir}" if state_dir else ""
    with StateDir(state_dir or default_state_dir()).open(f"obelisk calibrate highrise{where}") \
            as state:
        cal = _measure(profile, out)
        path = _keep(state, cal, out)
    small, medium, large = cal.sizes
    print(f"pieces weigh {small}, {medium} and {large} counts; a reading within "
          f"{cal.tolerance} counts of one counts as that size.\nsaved to {path}",
          file=out, flush=True)
    return 0


def _keep(state: StateDir, cal: Calibration, out) -> Path:
    """Save the measurements; if the disk fails meanwhile, show them so none are lost."""
    try:
        return save_calibration(state.path, cal)
    except StateDirError as exc:
        print(f"the measurements could not be saved, so here they are to keep: "
              f"zero = {list(cal.zero)}, sizes = {list(cal.sizes)}, "
              f"tolerance = {cal.tolerance}", file=out, flush=True)
        raise exc from None


def _measure(profile, out) -> Calibration:
    with open_table(profile) as devices:
        if devices.link.wait_for(lambda snap: True, 5.0) is None:
            raise CalibrationError("no scanner board answers: check the cable, then run "
                                   "`obelisk diag`")
        hand = sim_hand(devices) if devices.sim is not None else _person(devices, out)

        def step(name: str, words: str) -> None:
            if devices.sim is not None:
                print(f"{words}  (the simulated hand does it)", file=out, flush=True)
            hand(name, words)

        return calibrate(devices.link, step)
