"""How much the scanner link can carry and how fast the Pi parses it.

Prints:
- frames parsed per second by the bare frame reader, and by the whole link
  (parsing plus updating the sensor state), on a realistic mix of frames;
- bytes in one full snapshot of the reference table, against what the link
  carries per second at its baud;
- sim-to-Pi latency: from a cube appearing on the simulated table to the
  host's snapshot showing it (real scanner code, real pseudo-terminal).

Run: .venv/bin/python bench/scanner_link.py [--frames N] [--moves N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hardware.link import ScannerLink
from hardware.scanner import obelisk_proto as proto
from hardware.sim.table import SimTable

REFERENCE = {"towers": 2, "rods": 9, "levels": 9, "rows": 8, "cols": 8, "loads": 9, "leds": 64}
SWITCHES = 2 * 81 + 64


def _stream(n: int, rng: random.Random) -> bytes:
    frames = [proto.encode_frame(proto.HELLO, 0, proto.pack_hello("bench", 2, 9, 9, 8, 8, 9, 64))]
    for seq in range(1, n):
        roll = rng.random()
        if roll < 0.6:
            body = proto.pack_changes([(rng.randrange(SWITCHES), rng.random() < 0.5)
                                       for _ in range(rng.randrange(1, 6))])
            frames.append(proto.encode_frame(proto.CHANGES, seq, body))
        elif roll < 0.9:
            loads = [rng.randrange(-5000, 500_000) for _ in range(9)]
            frames.append(proto.encode_frame(proto.LOAD, seq, proto.pack_loads(loads)))
        else:
            closed = rng.sample(range(SWITCHES), 40)
            frames.append(proto.encode_frame(proto.SNAPSHOT, seq,
                                             proto.pack_snapshot(closed, SWITCHES, [0] * 9)))
    return b"".join(frames)


def parse_rates(n: int) -> tuple[float, float, float]:
    data = _stream(n, random.Random(1))
    start = time.perf_counter()
    got = len(proto.FrameReader().feed(data))
    reader_rate = got / (time.perf_counter() - start)
    link = ScannerLink("unused")  # never started: fed directly
    start = time.perf_counter()
    for i in range(0, len(data), 64):  # as the serial port hands it over
        link.feed(data[i:i + 64])
    link_rate = link.reader.frames / (time.perf_counter() - start)
    return reader_rate, link_rate, len(data) / n


def snapshot_size() -> int:
    closed = list(range(0, SWITCHES, 3))
    return len(proto.encode_frame(proto.SNAPSHOT, 0,
                                  proto.pack_snapshot(closed, SWITCHES, [123456] * 9)))


def latency_ms(moves: int) -> list[float]:
    results = []
    rng = random.Random(3)
    with SimTable(REFERENCE) as table, ScannerLink(table.port_path) as link:
        link.wait_for(lambda s: True, 3.0)
        for _ in range(moves):
            cell = (rng.randrange(3), rng.randrange(3), rng.randrange(9))
            present = cell in table.cubes[0]
            start = time.perf_counter()
            (table.lift if present else table.place)(0, {cell})
            link.wait_for(lambda s, c=cell, p=present: (c in s.tower_cells(0)) != p, 2.0)
            results.append((time.perf_counter() - start) * 1000)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--baud", type=int, default=115_200)
    args = parser.parse_args()
    reader_rate, link_rate, mean_bytes = parse_rates(args.frames)
    print(f"parse: {reader_rate:,.0f} frames/s (frame reader), {link_rate:,.0f} frames/s "
          f"(whole link, state updated); mean frame {mean_bytes:.1f} bytes")
    size = snapshot_size()
    per_second = args.baud / 10  # 8N1: ten bits on the wire per byte
    print(f"snapshot: {size} bytes for 2 towers x 81 switches + 64 squares + 9 load cells; "
          f"the link carries {per_second:,.0f} bytes/s at {args.baud} baud = "
          f"{per_second / size:,.0f} full snapshots/s (USB CDC itself runs far faster)")
    lat = sorted(latency_ms(args.moves))
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"sim->host latency over {len(lat)} moves: p50={statistics.median(lat):.1f} ms "
          f"p99={p99:.1f} ms (3-scan debounce at a 5 ms scan step included)")


if __name__ == "__main__":
    main()
