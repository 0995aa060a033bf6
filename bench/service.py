"""What the table service costs while it runs: CPU idle and animating, memory, start-up.

The simulated scanner board runs in a process of its own behind a real
pseudo-terminal; the service runs as systemd would start it, in its own
process (`obelisk run --profile <file>`), so only the service is measured:

- ready_s: from starting the process to its READY=1 on $NOTIFY_SOCKET;
- idle_cpu_pct: one core's share while the table waits in setup;
- hourglass_cpu_pct: the same during a turn, the hourglass running (its ring
  loses a pixel every few seconds, and the service sleeps in between);
- rss_mb: the service's resident memory at the end.

Ends with `service: idle_cpu_pct=X hourglass_cpu_pct=Y rss_mb=Z ready_s=W`.
Targets: idle <= 0.3 %, hourglass <= 1 %, rss <= 35 MB, ready <= 0.3 s. CPU is
counted in clock ticks (10 ms), so measure long enough: the default is 30 s.
With ``--cpu-limit`` the service runs on one core with a share of it (about a
Pi Zero 2 W; see ``cpu_limit.py``), and the summary line ends with the limit.

Run: .venv/bin/python bench/service.py [--seconds 30] [--cpu-limit [PERCENT]]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from cpu_limit import CpuLimit, add_option, open_limit
from sim_board import BoardProcess

from engine.record import options_to_dict
from engine.towers.game import TowersOptions

OBELISK = Path(sys.executable).parent / "obelisk"


def _not_compiled() -> list[Path]:
    """The project's modules with no up-to-date bytecode: the service compiles them at each
    start (under systemd the checkout is read-only to it, so it cannot keep the result)."""
    root = Path(__file__).resolve().parent.parent
    stale = []
    for source in (p for d in ("engine", "firmware", "hardware") for p in (root / d).rglob("*.py")):
        cached = Path(importlib.util.cache_from_source(str(source)))
        if not cached.exists() or cached.stat().st_mtime < source.stat().st_mtime:
            stale.append(source)
    return stale


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _run(profile: Path, state_dir: Path, seconds: float,
         limit: CpuLimit | None) -> tuple[float, float, float]:
    """Start the service, time its READY, measure its CPU over ``seconds``."""
    sock_path = state_dir / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(10)
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path))
    start = time.monotonic()
    start_it = limit.popen if limit is not None else subprocess.Popen
    proc = start_it([str(OBELISK), "run", "--profile", str(profile), "--state-dir",
                     str(state_dir)], env=env, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
    try:
        while b"READY=1" not in sock.recv(4096):
            pass
        ready_s = time.monotonic() - start
        time.sleep(1.0)  # let it settle into its steady state
        cpu0, t0 = _cpu_s(proc.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, t1 = _cpu_s(proc.pid), time.monotonic()
        rss = _rss_mb(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        sock.close()
    return ready_s, 100 * (cpu1 - cpu0) / (t1 - t0), rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    add_option(parser)
    args = parser.parse_args()
    stale = _not_compiled()
    if stale:
        print(f"note: {len(stale)} of the project's modules have no up-to-date bytecode, so "
              "ready_s includes compiling them; `python -m compileall -q engine firmware "
              "hardware` does it once, as an install should")
    limit = open_limit(args.cpu_limit)
    if limit is not None:
        print(f"the service runs under {limit.note()}")
    board = BoardProcess()
    work = board.dir
    try:
        profile = work / "bench.toml"
        profile.write_text(board.profile_text())
        idle_dir, turn_dir = work / "idle", work / "turn"
        idle_dir.mkdir()
        turn_dir.mkdir()
        # A game already under way: the service resumes it with the hourglass running.
        start = {"t": "start", "game": "towers", "first": "A", "seed": 1, "set": "default",
                 "options": options_to_dict(TowersOptions(hourglass_s=60.0))}
        (turn_dir / "journal.jsonl").write_text(json.dumps(start) + "\n")
        ready_s, idle, rss_idle = _run(profile, idle_dir, args.seconds, limit)
        print(f"idle (setup, waiting): ready {ready_s:.2f} s, cpu {idle:.2f} %, "
              f"rss {rss_idle:.1f} MB")
        ready2, turn, rss_turn = _run(profile, turn_dir, args.seconds, limit)
        print(f"turn (hourglass running): ready {ready2:.2f} s, cpu {turn:.2f} %, "
              f"rss {rss_turn:.1f} MB")
    finally:
        board.close()
        if limit is not None:
            limit.close()
    under = f" cpu_limit={limit.percent:g}%" if limit is not None else ""
    print(f"service: idle_cpu_pct={idle:.2f} hourglass_cpu_pct={turn:.2f} "
          f"rss_mb={max(rss_idle, rss_turn):.1f} ready_s={max(ready_s, ready2):.2f}{under}")


if __name__ == "__main__":
    main()
