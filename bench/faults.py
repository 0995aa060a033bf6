"""Plays demo games of every game while the table is abused, and checks nothing changed.

For each game and seed, one fault-free run gives the reference. Then the
same seed is played again while a fault injector, running next to the bots
on the simulated table, throws at it (each lasting well under the shortest
settle window, as noise does):

- bounce: a switch (or a load cell) flickers for 4 ms;
- hover: a hand's magnet over a free spot, or a hand resting on a pad;
- lift_back: a block, stone or pyramid lifted and put back;
- knock: a piece knocked onto the next spot and put back;
- corrupt: random bytes and truncated frames on the serial line;
- forge: frames with good checksums and nonsense bodies (load readings for other
  cells, snapshots of other switches, hellos of layouts no table has, changes of
  switches the board lacks, kinds nobody sends);
- flood: a burst far faster than the board sends: well-formed changes of the board's
  own switches, out of sequence, each a lie about the table until the link resyncs;
- unplug: the scanner board's cable pulled for 0.1-0.5 s and put back;
- kill: the whole process killed with SIGKILL at a random moment (in the
  middle of whatever it was doing, journal writes included) and started
  again on the same state directory.

Each faulted game's accepted actions (from its journal) and its last line,
the ``game_over`` event (outcome and final observation), are compared with
the reference: an action the reference does not have is a false placement,
one it lacks is a lost action, a different game_over a result mismatch. Prints a table per game and
fault kind, and ends with the line
`faults: games=N injected=K false_placements=F lost_actions=L result_mismatches=M
overran=O` (O: faults a busy machine left in place longer than the settle window; each
is a real move, so its game may differ from the reference: only a run with O=0 counts).

With ``--cpu-limit`` every game's process (its table, simulated board and
bots) runs on one core with a share of it, each game in a cgroup of its own
(``cpu_limit.py``); the line ends with the limit.

Run: .venv/bin/python bench/faults.py [--games 20] [--seed S] [--jobs 3] [--cpu-limit [PERCENT]]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cpu_limit import add_option, open_limit

GAMES = ("towers", "stones", "highrise", "maze")
SPEED = {"towers": 10.0, "stones": 20.0, "highrise": 20.0, "maze": 20.0}
KINDS = ("bounce", "hover", "lift_back", "knock", "corrupt", "forge", "flood", "unplug",
         "kill")
HERE = Path(__file__).resolve()


# ------------------------------------------------------------------ the child: one game


class Injector(threading.Thread):
    """Throws faults at the simulated table until the game is over."""

    def __init__(self, game: str, table, devices, rng: random.Random, log: Path,
                 speed: float) -> None:
        super().__init__(daemon=True, name="faults")
        self.game, self.table, self.devices, self.rng, self.log = game, table, devices, rng, log
        self.sim = devices.sim
        # Well inside the shortest window a reading may settle in (real s): a fault that
        # looks like a legal move and holds still longer than that is a move.
        self.brief = 0.5 * table.settler.quick_s / speed
        # Real seconds a fault may stand before it is a move: the board's debounce (its
        # scans) and then the shortest settle window.
        from hardware.scanner.scanner import DEBOUNCE_SCANS
        self.window = DEBOUNCE_SCANS * self.sim.board.step_s + table.settler.quick_s / speed

    def run(self) -> None:
        while self.table.state != "over":
            time.sleep(self.rng.uniform(0.2, 1.0))
            if self.table.state in ("setup", "over"):
                continue
            kind = self.rng.choice(KINDS[:-1])
            try:
                if getattr(self, "_" + kind)():
                    with self.log.open("a") as f:
                        f.write(kind + "\n")
            except (ValueError, KeyError, IndexError):
                continue  # nothing there to disturb this time

    def _transient(self, attr: str, change, seconds: float | None = None) -> bool:
        """Change one part of the physical truth for a moment, then put it back.

        The bots keep their hands off meanwhile (the simulated table's ``hand``
        lock): a bot that moved another piece in between used to leave this
        slip in place for good (its move was made on top of the slip), and the
        table rightly took the slip for a move.
        """
        with self.sim.hand:  # no bot moves a piece while this hand is on the table
            with self.table.lock:
                before = getattr(self.sim, attr)
                change()
                during = getattr(self.sim, attr)
            if during is before:
                return False
            began = time.monotonic()
            time.sleep(self.brief if seconds is None else seconds)
            with self.table.lock:
                if getattr(self.sim, attr) is during:
                    setattr(self.sim, attr, before)
                    if time.monotonic() - began >= self.window:
                        # a busy machine slept past the board's debounce and the window: the
                        # fault held still long enough to be a move, and the table may take it
                        with self.log.open("a") as f:
                            f.write("overran\n")
        return True

    # -------------------------------------------------------------- what a hand does

    def _bounce(self) -> bool:
        return self._disturb(seconds=0.004)

    def _hover(self) -> bool:
        return self._disturb(extra=True)

    def _lift_back(self) -> bool:
        return self._disturb(lift=True)

    def _knock(self) -> bool:
        return self._disturb(knock=True)

    def _disturb(self, seconds=None, extra=False, lift=False, knock=False) -> bool:
        sim, rng = self.sim, self.rng
        if self.game == "towers":
            tower = rng.randrange(2)
            cubes = sorted(sim.cubes[tower])
            if extra or not cubes:
                cell = (rng.randrange(3), rng.randrange(3), 8)
                return self._transient("hovering", lambda: sim.hover(tower, [cell]), seconds)
            top = max(cubes, key=lambda c: c[2])
            moved = [top] if knock or seconds else [c for c in cubes if c[2] == top[2]][:3]
            return self._transient("cubes", lambda: sim.lift(tower, moved), seconds)
        if self.game == "highrise":
            pads = len(sim.grams)
            pad = rng.randrange(pads)
            if knock:  # a small piece's weight pushed onto the next pad
                other = (pad + 1) % pads

                def push() -> None:
                    sim.weigh(pad, max(0.0, sim.grams[pad] - 1.7))
                    sim.weigh(other, sim.grams[other] + 1.7)

                return self._transient("grams", push, seconds)
            grams = 25.0 if extra else -3.1 if lift else 30.0
            return self._transient(
                "grams", lambda: sim.weigh(pad, max(0.0, sim.grams[pad] + grams)), seconds)
        # stones and maze: pieces on squares
        rows, cols = sim.layout["rows"], sim.layout["cols"]
        heights = dict(sim.stacks)
        free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in heights]
        if extra or not heights or (seconds and rng.random() < 0.5):
            square = rng.choice(free)
            return self._transient("stacks", lambda: sim.put(square), seconds)
        square = rng.choice(sorted(heights))
        height = heights[square]
        if knock:
            near = [(square[0] + dr, square[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
            spots = [s for s in near if s in free]
            if not spots:
                return False
            spot = rng.choice(spots)

            def knock_over() -> None:
                sim.take(square)
                sim.put(spot, height)

            return self._transient("stacks", knock_over, seconds)
        return self._transient("stacks", lambda: sim.take(square), seconds)

    def _corrupt(self) -> bool:
        from hardware.scanner import obelisk_proto as proto

        frame = proto.encode_frame(proto.CHANGES, self.rng.randrange(256),
                                   proto.pack_changes([(self.rng.randrange(200), True)]))
        cut = frame[: self.rng.randrange(2, len(frame) - 1)]  # truncated: never whole
        noise = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 64)))
        self.sim.inject(noise + cut + b"\x00")
        return True

    def _forge(self) -> bool:
        from hardware.scanner import obelisk_proto as proto

        rng, lay = self.rng, self.devices.link.snapshot()
        if lay is None:
            return False
        count, loads = lay.layout.switch_count, len(lay.loads)
        forged = [(proto.LOAD, proto.pack_loads([rng.randrange(10**6)] * (loads + 1))),
                  (proto.SNAPSHOT, proto.pack_snapshot([0, 1], count + 8, list(lay.loads))),
                  (proto.SNAPSHOT, proto.pack_snapshot([0, 1], count, [5] * (loads + 2))),
                  (proto.HELLO, proto.pack_hello("forged", 3, 7, 200, 40, 40, 255, 0)),
                  (proto.CHANGES, proto.pack_changes([(count + rng.randrange(100), True)])),
                  (0x7E, bytes(rng.randrange(256) for _ in range(6)))]
        kind, body = rng.choice(forged)
        self.sim.inject(b"\x00" + proto.encode_frame(kind, rng.randrange(256), body))
        return True

    def _flood(self) -> bool:
        from hardware.scanner import obelisk_proto as proto

        lay = self.devices.link.snapshot()
        if lay is None:
            return False
        count = lay.layout.switch_count
        burst = b"".join(proto.encode_frame(proto.CHANGES, self.rng.randrange(256),
                                            proto.pack_changes([(self.rng.randrange(count),
                                                                 self.rng.random() < 0.5)]))
                         for _ in range(self.rng.randrange(200, 2000)))
        for at in range(0, len(burst), 4096):
            self.sim.inject(burst[at:at + 4096])
        return True

    def _unplug(self) -> bool:
        self.sim.unplug()
        time.sleep(self.rng.uniform(0.1, 0.5))
        self.sim.plug()
        return True


def child(game: str, seed: int, state_dir: str, inject: bool) -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    from firmware.games import GAMES
    from firmware.sim.demo_runner import DemoSettings
    log = Path(state_dir) / "faults.log"
    rng = random.Random(f"{seed}:{os.getpid()}")

    def hook(table, devices) -> None:
        Injector(game, table, devices, rng, log, SPEED[game]).start()

    return GAMES[game].run_demo()(DemoSettings(seed=seed, as_json=True, speed=SPEED[game],
                                                state_dir=state_dir,
                                                hook=hook if inject else None))


# ------------------------------------------------------------------ the parent


def _command(game: str, seed: int, state_dir: Path, inject: bool) -> list[str]:
    return [sys.executable, str(HERE), "--child", game, str(seed), str(state_dir)] + \
        (["--inject"] if inject else [])


def _accepted(state_dir: Path) -> list:
    """The game's accepted actions as its journal holds them, takebacks applied."""
    sys.path.insert(0, str(HERE.parent.parent))
    from firmware.store.journal import Journal
    from firmware.store.seal import Sealer

    entries = Journal(state_dir).read().entries
    starts = [i for i, e in enumerate(entries) if e.get("t") == "start"]
    actions: list = []
    sealer = Sealer(state_dir)
    for entry in entries[starts[-1] + 1:] if starts else []:
        if entry.get("t") == "action":
            action = entry.get("action") or sealer.unseal(entry["sealed"])
            actions.append(json.dumps({k: v for k, v in action.items() if k != "reading"},
                                      sort_keys=True))
        elif entry.get("t") == "takeback":
            del actions[int(entry["to"]):]
    return actions


def _last_line(text: str) -> dict | None:
    lines = [line for line in text.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def play(game: str, seed: int, rng: random.Random, cpu_limit: float | None = None) -> dict:
    """One game fault-free, then faulted (killed once or twice); under ``cpu_limit`` (% of
    one core) the reference and the faulted runs alike."""
    limit = open_limit(cpu_limit)
    try:
        return _play(game, seed, rng, limit)
    finally:
        if limit is not None:
            limit.close()


def _play(game: str, seed: int, rng: random.Random, limit) -> dict:
    run = limit.run if limit is not None else subprocess.run
    popen = limit.popen if limit is not None else subprocess.Popen
    base_dir = Path(tempfile.mkdtemp(prefix=f"faults-{game}-{seed}-ref-"))
    start = time.monotonic()
    ref = run(_command(game, seed, base_dir, False), capture_output=True, text=True,
              timeout=1800)
    took = time.monotonic() - start
    reference = _last_line(ref.stdout)
    fault_dir = Path(tempfile.mkdtemp(prefix=f"faults-{game}-{seed}-"))
    kills = 0
    for _ in range(rng.randint(1, 2)):  # killed once or twice, then left to finish
        proc = popen(_command(game, seed, fault_dir, True), stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
        time.sleep(rng.uniform(1.0, max(1.5, 0.7 * took)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.communicate()
    final = run(_command(game, seed, fault_dir, True), capture_output=True, text=True,
                timeout=1800)
    result = _last_line(final.stdout)
    (fault_dir / "final.err").write_text(final.stderr)  # kept for a post-mortem
    want, got = _accepted(base_dir), _accepted(fault_dir)
    same = 0
    while same < min(len(want), len(got)) and want[same] == got[same]:
        same += 1
    log = fault_dir / "faults.log"
    injected = Counter(log.read_text().split()) if log.exists() else Counter()
    injected["kill"] += kills
    overran = injected.pop("overran", 0)
    return {"game": game, "seed": seed, "injected": injected, "overran": overran,
            "false": len(got) - same, "lost": len(want) - same,
            "mismatch": int(result != reference or reference is None
                            or reference.get("event") != "game_over"),
            "detail": "" if result == reference else
            f"exit {final.returncode}, {final.stderr.strip()[-300:]!r}; got {_words(result)}; "
            f"expected {_words(reference)}; state in {fault_dir}"}


def _words(last: dict | None) -> str:
    """A game_over line as its outcome reads (the whole line if it is something else)."""
    if last is None:
        return "no output"
    if last.get("event") == "game_over":
        return repr(last["outcome"]["words"])
    return json.dumps(last)[:200]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--only", choices=GAMES, action="append",
                        help="play only this game (again for more)")
    parser.add_argument("--child", nargs=3, metavar=("GAME", "SEED", "DIR"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--inject", action="store_true", help=argparse.SUPPRESS)
    add_option(parser)
    args = parser.parse_args()
    if args.child:
        sys.exit(child(args.child[0], int(args.child[1]), args.child[2], args.inject))
    games = tuple(args.only or GAMES)
    runs = [(g, args.seed + k) for g in games for k in range(args.games)]
    rngs = {run: random.Random(f"{args.seed}:{run}") for run in runs}
    if args.cpu_limit is not None:
        open_limit(args.cpu_limit).close()  # a clear message now if there is no way
        print(f"each game runs on one core with {args.cpu_limit:g}% of it", flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda run: play(run[0], run[1], rngs[run], args.cpu_limit),
                                runs))
    print(f"{'game':<9} {'games':>5} " + " ".join(f"{k:>9}" for k in KINDS)
          + "  false  lost  mismatch")
    for game in games:
        mine = [r for r in results if r["game"] == game]
        counts = sum((r["injected"] for r in mine), Counter())
        print(f"{game:<9} {len(mine):>5} " + " ".join(f"{counts[k]:>9}" for k in KINDS)
              + f"  {sum(r['false'] for r in mine):>5} {sum(r['lost'] for r in mine):>5} "
              f"{sum(r['mismatch'] for r in mine):>9}")
    for r in results:
        if r["false"] or r["lost"] or r["mismatch"]:
            print(f"  {r['game']} seed {r['seed']}: false {r['false']}, lost {r['lost']}, "
                  f"faults that overran the window {r['overran']}, {r['detail'][:400]}")
    overran = sum(r["overran"] for r in results)
    if overran:
        print(f"  {overran} fault(s) lasted longer than the settle window (the machine was "
              "too busy to put them back in time): those were real moves, and a game with "
              "one may differ from its reference; run on a quiet machine")
    injected = sum(sum(r["injected"].values()) for r in results)
    print(f"faults: games={len(results)} injected={injected} "
          f"false_placements={sum(r['false'] for r in results)} "
          f"lost_actions={sum(r['lost'] for r in results)} "
          f"result_mismatches={sum(r['mismatch'] for r in results)} overran={overran}"
          + (f" cpu_limit={args.cpu_limit:g}%" if args.cpu_limit is not None else ""))


if __name__ == "__main__":
    main()
