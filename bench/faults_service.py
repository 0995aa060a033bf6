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

- 14, a damaged last journal line: a towers journal whose last, whole entry (a
  confirmed choice) has its newline byte turned to each other byte; and the same
  line cut at each of its bytes, as a power cut leaves it. Held when each damaged
  one is refused with its line, the fix and in words (json's own not among them),
  the file untouched, and each cut one reads as the entries before it (the whole
  entry when only its newline is missing) and takes the next entry after it.
- 15, garbage, floods and forgeries on the scanner link: random bytes and floods of
  frames out of sequence poured on a simulated board's wire, then frames with good
  checksums and nonsense bodies (load readings for other cells, snapshots of other
  switches, hellos of layouts no table has, changes of switches the board lacks,
  kinds nobody sends), drawn at random. Held when the link lives, asks the board
  again at most every 50 ms, counts each forgery and changes nothing for it, and
  reads the truth (a piece put down afterwards) after each pour.

Prints one line per class and ends with `faults_service: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_service.py [--rounds 3]
"""

from __future__ import annotations

import json
import random
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
from firmware.service import command_socket  # noqa: E402
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

NAMES = {1: "the end on a full disk", 6: "a command come late", 10: "files of every kind",
         14: "a damaged last journal line", 15: "garbage and forgeries on the link"}
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
                return bool(command_socket.send(state, {"command": "status"})["can"]["start"])
            except command_socket.ControlUnavailable:
                return False

        if not _until(ready, 30):
            return False
        running.send_signal(signal.SIGSTOP)
        try:
            command_socket.send(state, {"command": "start"}, timeout=3.0)
            return False  # a stopped table cannot have answered
        except command_socket.ControlUnavailable:
            pass
        finally:
            running.send_signal(signal.SIGCONT)
        dropped = _until(lambda: "dropped the start command" in log.read_text(), 20)
        return dropped and command_socket.send(state, {"command": "status"})["state"] == "setup"
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


TOWERS_START = {"t": "start", "game": "towers", "first": "A", "seed": 1,
                "options": {"hourglass_s": 60.0, "sudden_death": False}}
CHOOSE = {"t": "action", "n": 1, "action": {"a": "choose", "block": "G01"}}


def _damaged_last_line(where: Path) -> tuple[int, int]:
    """Class 14: (tried, held) over every byte in place of the last newline, every cut."""
    from engine.towers.game import TowersGame
    from firmware.towers.sets import load_block_set
    from firmware.towers.table import TowersTable

    first = json.dumps(TOWERS_START, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    line = json.dumps(CHOOSE, sort_keys=True, separators=(",", ":")).encode()
    game = TowersGame(load_block_set())
    tried = held = 0
    for byte in (b for b in range(256) if b != ord("\n")):
        state = where / f"byte{byte}"
        state.mkdir(parents=True)
        raw = first + line + bytes([byte])
        (state / "journal.jsonl").write_bytes(raw)
        tried += 1
        try:
            TowersTable(game, Journal(state)).start(0.0)
        except JournalError as exc:
            words = str(exc)
            held += ("line 2 is damaged" in words and "--new-game" in words
                     and "Expecting" not in words and (state / "journal.jsonl").read_bytes()
                     == raw) or byte in b" \t\r"  # a blank there ends the entry all the same
        else:  # read: only right when the entry was kept whole (a blank after it)
            held += byte in b" \t\r" and len(Journal(state).read().entries) == 2
    for cut in range(1, len(line) + 1):
        state = where / f"cut{cut}"
        state.mkdir(parents=True)
        (state / "journal.jsonl").write_bytes(first + line[:cut])
        tried += 1
        try:
            journal = Journal(state)
            read = journal.read().entries
            journal.append({"t": "pause"})
            after = Journal(state).read().entries
        except JournalError as exc:
            print(f"  lost: a cut after {cut} bytes refused: {exc}", file=sys.stderr)
            continue
        whole = cut == len(line)
        held += read == ((TOWERS_START, CHOOSE) if whole else (TOWERS_START,)) \
            and after == (*read, {"t": "pause"})
    return tried, held


def _link_faults(rng) -> tuple[int, int]:
    """Class 15: (tried, held) over pours of garbage and floods, and forged frames."""
    from hardware.link import RESYNC_EVERY_S, ScannerLink
    from hardware.scanner import obelisk_proto as proto
    from hardware.sim.table import SimTable

    tried = held = 0
    layout = {"towers": 2, "rods": 9, "levels": 9, "rows": 8, "cols": 8, "loads": 3,
              "leds": 0}
    table = SimTable(layout).start()
    try:
        with ScannerLink(table.port_path, retry_s=0.05) as link:
            if link.wait_for(lambda s: True, 5.0) is None:
                return 1, 0
            asks: list[float] = []
            send = link.send
            link.send = lambda kind, body=b"": (asks.append(time.monotonic())
                                                if kind == proto.SYNC else None,
                                                send(kind, body))[1]
            for pour in range(4):
                tried += 1
                blob = _garbage(rng, proto) if pour % 2 else _flood(rng, proto)
                asks.clear()
                began = time.monotonic()
                _pour(table, blob)
                took = time.monotonic() - began
                square = (rng.randrange(8), rng.randrange(8))
                table.put(square)
                truth = link.wait_for(lambda s: s.squares() == table.pieces
                                      and s.tower_cells(0) == table.cubes[0], 10.0)
                table.take(square)
                spaced = len([t for t in asks if t <= began + took]) <= 2 + took / RESYNC_EVERY_S
                held += truth is not None and link.alive and spaced
    finally:
        table.stop()
    for kind, body in _forgeries(rng, proto):
        tried += 1
        fed = ScannerLink("unused")
        fed.feed(proto.encode_frame(proto.HELLO, 0, proto.pack_hello("b", 2, 9, 9, 8, 8, 3, 0))
                 + proto.encode_frame(proto.SNAPSHOT, 1,
                                      proto.pack_snapshot([3], 226, [10, 20, 30])))
        before = fed.snapshot()
        fed.feed(proto.encode_frame(kind, 2, body))
        held += fed.snapshot() == before and fed.health.bad_frames == {"body": 1}
    return tried, held


def _pour(table, blob: bytes) -> None:
    """All of ``blob`` onto the wire towards the Pi, as fast as the line takes it."""
    import os
    import select

    port = table.board._port
    rest = memoryview(blob)
    while rest:
        select.select([], [port.master], [], 1.0)
        try:
            rest = rest[os.write(port.master, rest[:4096]):]
        except BlockingIOError:
            continue


def _garbage(rng, proto) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randrange(10_000, 60_000)))


def _flood(rng, proto) -> bytes:
    """Well-formed frames out of sequence, far faster than any board sends."""
    return b"".join(proto.encode_frame(proto.CHANGES, rng.randrange(256),
                                       proto.pack_changes([(rng.randrange(162), True)]))
                    for _ in range(rng.randrange(5_000, 20_000)))


def _forgeries(rng, proto) -> list[tuple[int, bytes]]:
    """Frames with good checksums and bodies no board of ours sends, drawn at random."""
    other_loads = [n for n in range(0, 40) if n != 3]
    forged = []
    for _ in range(40):
        pick = rng.randrange(7)
        if pick == 0:
            forged.append((proto.LOAD, proto.pack_loads([rng.randrange(-9, 9**6)
                                                         for _ in range(rng.choice(other_loads))])))
        elif pick == 1:
            forged.append((proto.SNAPSHOT, proto.pack_snapshot(
                [], rng.choice([225, 227, 300, 0, 4000]), [1, 2, 3])))
        elif pick == 2:
            forged.append((proto.SNAPSHOT, proto.pack_snapshot([], 226,
                                                               [0] * rng.choice(other_loads))))
        elif pick == 3:
            bad = rng.choice([(rng.choice([1, 3, 200]), 9, 9, 8, 8, 3),
                              (2, rng.choice([4, 7, 16]), 9, 8, 8, 3),
                              (2, 9, rng.choice([0, 10, 200]), 8, 8, 3),
                              (2, 9, 9, rng.choice([9, 40]), 8, 3), (2, 9, 9, 0, 8, 3),
                              (2, 9, 9, 8, 8, rng.choice([65, 255]))])
            forged.append((proto.HELLO, proto.pack_hello("forged", *bad, 0)))
        elif pick == 4:
            forged.append((proto.CHANGES, proto.pack_changes([(rng.randrange(226, 32000),
                                                               True)])))
        elif pick == 5:
            forged.append((rng.choice([0x00, 0x06, 0x20, 0x21, 0x7E, 0xFF]),
                           bytes(rng.randrange(256) for _ in range(rng.randrange(8)))))
        else:
            forged.append(rng.choice([(proto.STATUS, b"\x00" * rng.randrange(12)),
                                      (proto.PONG, b"\x01" * rng.choice([0, 1, 3, 9])),
                                      (proto.CHANGES, b"\x80" * rng.choice([1, 3, 5]))]))
    return forged


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
            for number, (tried, held) in ((14, _damaged_last_line(where / "14")),
                                          (15, _link_faults(random.Random(f"15:{n}")))):
                counts[number][0] += tried
                counts[number][1] += held
    return [{"class": k, "name": NAMES[k], "tried": t, "held": h, "lost": t - h}
            for k, (t, h) in counts.items()]


def main() -> None:
    bench_main("faults_service", __doc__, run)


if __name__ == "__main__":
    main()
