"""The simulated scanner board in a process of its own, for benchmarks.

On a real table the scanner board is separate hardware; running its
simulated twin in the benchmark's own process would bill its scanning to
the service (and make the two share one interpreter lock). Here it runs in a
child process behind its pseudo-terminal, and takes new board positions
through a pipe.
"""

from __future__ import annotations

import multiprocessing
import tempfile
from pathlib import Path

from hardware.profile import Profile, board_layout, load_profile, parse_profile
from hardware.sim.table import SimTable

PROFILE = """name = "bench"
[scanner]
port = "{port}"
towers = 2
board = "8x8"
load_cells = 9
[buttons]
pin_factory = "mock"
[[leds.chain]]
output = "sim"
parts = ["ring A 16", "ring B 16", "tower A", "tower B", "zone 2"]
[[leds.chain]]
output = "scanner"
parts = ["board"]
"""


def _serve(conn, link_dir: str) -> None:
    with SimTable(board_layout(load_profile("sim")), link_dir=link_dir) as sim:
        conn.send(sim.port_path)
        while (stacks := conn.recv()) is not None:
            sim.stacks = stacks


class BoardProcess:
    """A simulated board in a child process; ``profile()`` describes a table using it."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="obelisk-bench-"))
        self._conn, child = multiprocessing.Pipe()
        self._proc = multiprocessing.Process(target=_serve, args=(child, str(self.dir)),
                                             daemon=True)
        self._proc.start()
        self.port_path = self._conn.recv()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def profile_text(self) -> str:
        return PROFILE.format(port=self.port_path)

    def profile(self) -> Profile:
        return parse_profile(self.profile_text(), "bench")

    def set_stacks(self, stacks: frozenset) -> None:
        """Board squares now hold these stacks: ((row, col), height) pairs."""
        self._conn.send(stacks)

    def close(self) -> None:
        self._conn.send(None)
        self._proc.join(timeout=5)
