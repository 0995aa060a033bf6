"""``--cpu-limit``: run the table as on a slower machine, one core and a share of it.

A Raspberry Pi Zero 2 W runs this Python several times slower than the
development machine; the benches approximate it by pinning the table's
process to one core and giving it a quota of that core (25 %: four times
slower). The quota is counted over short periods (4 ms), so the process is
held back a little at a time, as a slower core would be, not frozen for
tens of milliseconds at a stretch.

Three ways, the first this machine allows:

- cgroup v2: a child cgroup with ``cpu.max``;
- cgroup v1: a child of the ``cpu`` hierarchy with ``cpu.cfs_quota_us``;
- neither writable: ``taskset``'s pinning plus a throttle that stops and
  continues the process (SIGSTOP/SIGCONT) every period.

Each needs root or a delegated cgroup for the first two, and pinning for
all; without any of them ``CpuLimitError`` says why. The child cgroup is
removed again on ``close()``. The simulated scanner board is hardware of its
own: a bench hands its process to ``exempt()``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

_made = iter(range(1_000_000))
PERIOD_US = 4000
"""The quota's period: short, so that the process waits a little often, not long rarely."""
ENV = "OBELISK_CPU_LIMIT"
"""How a limited process finds its limit (to exempt the simulated board it starts)."""


class CpuLimitError(RuntimeError):
    """No way to limit the CPU here, with why."""


def _cgroup2_root() -> Path | None:
    for line in Path("/proc/mounts").read_text().splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[2] == "cgroup2":
            return Path(fields[1])
    return None


class CpuLimit:
    """Processes started with ``popen`` (or moved in with ``enter``) share ``percent`` of one
    core. Use as a context manager, or ``close()`` it."""

    def __init__(self, percent: float, *, core: int | None = None, how: str = "",
                 group: str = "", owner: bool = True) -> None:
        if not 1 <= percent <= 100:
            raise CpuLimitError(f"a CPU limit is 1 to 100 % of one core, not {percent:g}")
        self.percent = percent
        self.core = min(os.sched_getaffinity(0)) if core is None else core
        self.how, self.group, self._owner = how, group, owner
        self._stopped: list[int] = []  # the throttle's processes
        self._signalling = threading.Lock()  # the throttle's signals and exempt() take turns
        self._throttle: threading.Thread | None = None
        self._closing = threading.Event()
        if not how:
            self._create()

    # ------------------------------------------------------------------ making it

    def _create(self) -> None:
        quota = max(1000, int(PERIOD_US * self.percent / 100))
        period = max(PERIOD_US, int(quota * 100 / self.percent))
        name = f"obelisk-bench-{os.getpid()}-{next(_made)}"
        tried = []
        root = _cgroup2_root()
        if root is not None:
            try:
                if "cpu" not in (root / "cgroup.controllers").read_text().split():
                    raise OSError("its cpu controller is not available")
                (root / "cgroup.subtree_control").write_text("+cpu")
                group = root / name
                group.mkdir()
                (group / "cpu.max").write_text(f"{quota} {period}")
                self.how, self.group = "cgroup v2 cpu.max", str(group)
                return
            except OSError as exc:
                tried.append(f"cgroup v2 at {root}: {exc.strerror or exc}")
        v1 = Path("/sys/fs/cgroup/cpu")
        if (v1 / "cpu.cfs_quota_us").exists():
            group = v1 / name
            try:
                group.mkdir()
                (group / "cpu.cfs_period_us").write_text(str(period))
                (group / "cpu.cfs_quota_us").write_text(str(quota))
                self.how, self.group = "cgroup v1 cpu.cfs_quota_us", str(group)
                return
            except OSError as exc:
                tried.append(f"cgroup v1 at {v1}: {exc.strerror or exc}")
                if group.exists():
                    group.rmdir()
        else:
            tried.append("no cgroup v1 cpu hierarchy")
        if not hasattr(os, "sched_setaffinity"):
            raise CpuLimitError("cannot limit the CPU here: no writable cgroup ("
                                + "; ".join(tried) + ") and no way to pin a process to a core")
        self.how = "taskset and a SIGSTOP/SIGCONT throttle"

    @classmethod
    def from_env(cls) -> CpuLimit | None:
        """The limit this process runs under (set by ``popen``), or None."""
        text = os.environ.get(ENV)
        if not text:
            return None
        data = json.loads(text)
        return cls(data["percent"], core=data["core"], how=data["how"], group=data["group"],
                   owner=False)

    def note(self) -> str:
        """For a summary line: ``cpu_limit=25%`` and how."""
        return f"cpu_limit={self.percent:g}% (one core, {self.how})"

    # ------------------------------------------------------------------ using it

    def popen(self, command: list[str], **kwargs) -> subprocess.Popen:
        """Start ``command`` inside the limit, from its first instruction."""
        env = dict(kwargs.pop("env", None) or os.environ)
        env[ENV] = json.dumps({"percent": self.percent, "core": self.core, "how": self.how,
                               "group": self.group})
        pin = ["taskset", "-c", str(self.core)]
        if self.group:  # the shell joins the cgroup, then becomes the command
            command = ["sh", "-c", f'echo $$ > {self.group}/cgroup.procs && exec "$@"', "sh",
                       *pin, *command]
        else:
            command = [*pin, *command]
        proc = subprocess.Popen(command, env=env, **kwargs)
        if not self.group:
            self._throttled(proc.pid)
        return proc

    def run(self, command: list[str], **kwargs) -> subprocess.CompletedProcess:
        """``subprocess.run`` inside the limit."""
        timeout = kwargs.pop("timeout", None)
        if kwargs.pop("capture_output", False):
            kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with self.popen(command, **kwargs) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
            except BaseException:
                proc.kill()
                raise
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def exempt(self, pid: int) -> None:
        """Take a process back out (the simulated board): every core, no quota."""
        os.sched_setaffinity(pid, range(os.cpu_count() or 1))
        if self.group:
            Path(self.group).parent.joinpath("cgroup.procs").write_text(str(pid))
        else:
            with self._signalling:  # not stopped again once out
                if pid in self._stopped:
                    self._stopped.remove(pid)
                    self._continue(pid)  # it may be in the stopped part of its period

    def _throttled(self, pid: int) -> None:
        self._stopped.append(pid)
        if self._throttle is None:
            self._throttle = threading.Thread(target=self._duty, daemon=True,
                                              name="cpu-throttle")
            self._throttle.start()

    def _duty(self) -> None:
        """Let the processes run ``percent`` of each period, stopped for the rest."""
        on = PERIOD_US * self.percent / 100 / 1e6
        off = PERIOD_US / 1e6 - on
        while not self._closing.is_set():
            self._signal(signal.SIGCONT)
            time.sleep(on)
            if off > 0:
                self._signal(signal.SIGSTOP)
                time.sleep(off)
        self._signal(signal.SIGCONT)

    def _signal(self, sig: int) -> None:
        with self._signalling:
            for pid in list(self._stopped):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    self._stopped.remove(pid)

    @staticmethod
    def _continue(pid: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)

    # ------------------------------------------------------------------ ending it

    def close(self) -> None:
        """Stop throttling; remove the cgroup (what is still in it goes back to its parent)."""
        self._closing.set()
        if self._throttle is not None:
            self._throttle.join(timeout=2)
            with self._signalling:  # none left stopped, however the thread ended
                for pid in self._stopped:
                    self._continue(pid)
        if not (self.group and self._owner):
            return
        group = Path(self.group)
        for _ in range(50):
            try:
                for pid in (group / "cgroup.procs").read_text().split():
                    group.parent.joinpath("cgroup.procs").write_text(pid)
                group.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)  # a process still leaving
        print(f"cpu-limit: could not remove {group}; remove it with: rmdir {group}")

    def __enter__(self) -> CpuLimit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def add_option(parser) -> None:
    """The ``--cpu-limit [PERCENT]`` option a timing bench takes."""
    parser.add_argument("--cpu-limit", type=float, nargs="?", const=25.0, default=None,
                        metavar="PERCENT",
                        help="run the table on one core with this share of it (default 25: "
                        "about a Raspberry Pi Zero 2 W); the simulated board keeps its own")


def open_limit(percent: float | None) -> CpuLimit | None:
    """The limit asked for, or None; a clear message and exit when there is no way."""
    if percent is None:
        return None
    try:
        return CpuLimit(percent)
    except CpuLimitError as exc:
        raise SystemExit(f"--cpu-limit: {exc}") from None
