"""Throws at the table service what once lost a game or left it hanging (issue 30).

Three classes of fault, each tried ``rounds`` times:

- 1, the end on a full disk: a stones game's last move is written, then the disk
  is full for its end. Held when nothing announces the end and no press starts a
  new game while it is not on disk, and the end is written and announced, with
  its result, once the disk takes it.
- 6, a late command: ``obelisk run`` on the simulated table is stopped
  (SIGSTOP) while a command is sent with a 3 s wait; it is woken once the
  sender has given up. Held when the command is dropped (a line in the log)
  and the table never does it.
- 10, files that are no such file: each file the table reads (journal, PIN,
  seal key, calibration, set, profile) made a FIFO, a folder, a link to
  /dev/zero or an 8 GiB sparse file. Held when reading it ends within 20 s in
  an error meant for a person that names the file.

Prints one line per class and ends with `faults_service: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_service.py [--rounds 3]
"""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fault_tally import bench_main  # noqa: E402
from engine.errors import ObeliskError  # noqa: E402
from engine.players import Player  # noqa: E402
from firmware.service import control  # noqa: E402
from firmware.service.pin import PinError  # noqa: E402
from firmware.store.journal import Journal, JournalError  # noqa: E402
from firmware.store.state_dir import StateDirError  # noqa: E402
from hardware.buttons import ButtonEvent  # noqa: E402
from hardware.profile import ProfileError  # noqa: E402
from tests.support.files import (  # noqa: E402
    HUNG,
    FillingJournal,
    device,
    fifo,
    folder,
    huge,
    outcome_within,
    readers,
)
from tests.support.processes import OBELISK  # noqa: E402
from tests.support.stones import position  # noqa: E402
from tests.support.tables import StonesHarness as Table  # noqa: E402

NAMES = {1: "the end on a full disk", 6: "a command come late", 10: "files of every kind"}
PERSON = (StateDirError, ObeliskError, ProfileError, PinError)


def _until(check, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _end_on_a_full_disk(where: Path) -> bool:
    a = Player.A
    t = Table(where, state=position({"d2": "AcAk", "c1": "Ap", "a4": "Bp", "a6": "Bk",
                                     "b6": "Bc"}, to_play=a)).started()
    journal = FillingJournal(where)
    t.table.journal = t.journal = journal
    t.see(t.after("-c1"))
    journal.full = True
    try:
        t.press(a, "hold")
    except JournalError as exc:
        t.table.cannot_record(str(exc))
    t.table.on_button(ButtonEvent("A", "press"), t.now)
    early = any(e["event"] == "game_over" for e in t.events) or t.table.state in ("over",
                                                                                   "setup")
    journal.full = False
    t.table.tick(t.now + 3)
    over = [e for e in t.events if e["event"] == "game_over"]
    written = Journal(where).read().entries[-1]
    return not early and len(over) == 1 and written == {"t": "over",
                                                        "result": over[0]["outcome"]}


def _late_command(where: Path) -> bool:
    state, log = where / "state", where / "run.log"
    state.mkdir()
    with open(log, "w") as out:
        running = subprocess.Popen([OBELISK, "run", "--state-dir", str(state)], stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        def ready() -> bool:
            try:
                return bool(control.send(state, {"command": "status"})["can"]["start"])
            except control.ControlUnavailable:
                return False

        if not _until(ready, 30):
            return False
        running.send_signal(signal.SIGSTOP)
        try:
            control.send(state, {"command": "start"}, timeout=3.0)
            return False  # a stopped table cannot have answered
        except control.ControlUnavailable:
            pass
        finally:
            running.send_signal(signal.SIGCONT)
        dropped = _until(lambda: "dropped the start command" in log.read_text(), 20)
        return dropped and control.send(state, {"command": "status"})["state"] == "setup"
    finally:
        running.terminate()
        running.wait(20)


def _files(where: Path) -> tuple[int, int]:
    """(tried, held) over every file kind and every wrong kind of file."""
    tried = held = 0
    for make in (huge, fifo, folder, device):
        state = where / make.__name__
        state.mkdir()
        for name, read in readers(state).items():
            target = state / name
            make(target)
            got = outcome_within(read, 20)
            tried += 1
            if isinstance(got, PERSON) and name in str(got):
                held += 1
            else:
                print(f"  lost: {name} as {make.__name__}: "
                      f"{'hung' if got is HUNG else repr(got)[:200]}", file=sys.stderr)
    return tried, held


def run(rounds: int) -> list[dict]:
    """Each class tried ``rounds`` times (class 10: every file kind each round)."""
    counts = {k: [0, 0] for k in NAMES}  # class: [tried, held]
    with tempfile.TemporaryDirectory(prefix="faults-service-") as top:
        for n in range(rounds):
            where = Path(top) / f"round{n}"
            for number, trial in ((1, _end_on_a_full_disk), (6, _late_command)):
                place = where / str(number)
                place.mkdir(parents=True)
                counts[number][0] += 1
                counts[number][1] += trial(place)
            place = where / "10"
            place.mkdir()
            tried, held = _files(place)
            counts[10][0] += tried
            counts[10][1] += held
    return [{"class": k, "name": NAMES[k], "tried": t, "held": h, "lost": t - h}
            for k, (t, h) in counts.items()]


def main() -> None:
    bench_main("faults_service", __doc__, run)


if __name__ == "__main__":
    main()
