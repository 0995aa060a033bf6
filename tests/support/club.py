"""A club's side of a test: demos whose games are published, the publisher as a process,
and the outbox entries that must be set aside."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

from firmware.readers.club.config import (
    config_from,
)
from firmware.readers.club.publisher import Publisher
from tests.support.broker import Mosquitto
from tests.support.files import fifo
from tests.support.processes import OBELISK, until

SHORT = ["stones", "--speed", "100", "--ply-limit", "12"]


def run_demo(state: Path, *game: str, seed: int = 1, wait: bool = True) -> subprocess.Popen:
    proc = subprocess.Popen([OBELISK, "demo", *(game or SHORT), "--json", "--seed", str(seed),
                             "--state-dir", str(state)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    if wait:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        proc.lines = [json.loads(line) for line in out.splitlines()]
    return proc


def start_publisher(state: Path, broker: Mosquitto, table: str = "t1", *more: str,
                    **extra: str) -> subprocess.Popen:
    """``obelisk mqtt`` on ``state``, its mqtt.toml written for ``broker`` (``more``: lines
    of it as they are; ``extra``: keys with text values); its log kept."""
    lines = [f'broker = "{broker.url}"', f'table = "{table}"', *more]
    lines += [f'{key} = "{value}"' for key, value in extra.items()]
    (state / "mqtt.toml").write_text("\n".join(lines) + "\n")
    log = open(state / "publisher.log", "w")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen([OBELISK, "mqtt", "--state-dir", str(state)], stderr=log,
                            stdout=log)
    log.close()
    return proc


def ended(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
    return proc.wait(30)


def games_listed(state: Path) -> list[str]:
    listed = subprocess.run([OBELISK, "games", "--state-dir", str(state)], capture_output=True,
                            text=True, check=True)
    return [line.split()[0] for line in listed.stdout.splitlines()]


def entry(topic: str, payload: str = "{}") -> bytes:
    return json.dumps({"topic": topic, "retain": False, "keep": False,
                       "payload": payload}).encode()


BAD_ENTRIES = {
    "a wildcard +": lambda path: path.write_bytes(entry("obelisk/t1/events/a+b")),
    "a wildcard #": lambda path: path.write_bytes(entry("obelisk/t1/#")),
    "a NUL": lambda path: path.write_bytes(entry("obelisk/t1/a\x00b")),
    "a lone surrogate": lambda path: path.write_bytes(entry("obelisk/t1/\ud800")),
    "a topic too long": lambda path: path.write_bytes(entry("obelisk/" + "x" * 70_000)),
    "not JSON": lambda path: path.write_bytes(b'{"topic": "obelisk/t1/ev'),
    "too big": lambda path: path.write_bytes(entry("obelisk/t1/events", "x" * 17_000_000)),
    "a directory": lambda path: path.mkdir(),
    "a named pipe": fifo,
    "a symbolic link": lambda path: path.symlink_to("/etc/hostname"),
}


def started_publisher(state: Path, broker: Mosquitto) -> Publisher:
    """A publisher made and started on a thread: a file that hangs its reader fails the
    test instead of hanging it."""
    made: list[Publisher] = []
    thread = threading.Thread(target=lambda: made.append(Publisher(
        config_from({"broker": broker.url, "table": "t1"}), state)), daemon=True)
    thread.start()
    until(lambda: made, 20, "the publisher reading its outbox")
    made[0].start()
    return made[0]


def patched_publisher(state: Path, broker_url: str, patch: str) -> list[str]:
    """``obelisk mqtt`` in a Python whose publisher was changed by ``patch`` first."""
    (state / "mqtt.toml").write_text(f'broker = "{broker_url}"\ntable = "t1"\n')
    code = ("import sys\nfrom firmware.readers.club import publisher as p\n" + patch +
            f"\nfrom firmware.cli import main\nsys.exit(main(['mqtt', '--state-dir', "
            f"{str(state)!r}]))\n")
    return [sys.executable, "-c", code]
