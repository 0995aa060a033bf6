"""Throws at the club's publisher and page what once broke them (issue 30), and counts what held.

Each round uses fresh real mosquitto brokers (``tests/support/broker.py``) and the
scenarios of ``tests/club/test_faults.py``, and tries three classes of fault:

- 5, bad outbox entry: every bad kind of file of the tests (a topic with + or #,
  a NUL, a lone surrogate, a topic over 65535 bytes, not JSON, 17 MB, a
  directory, a named pipe, a symbolic link) put in the outbox, each between two
  good messages. Held per bad file when it is moved to ``mqtt/rejected`` (not
  deleted, not left in the outbox) with one log line saying so; held once more
  when every good message, and one event taken after, reached the broker with
  both publisher threads alive. Then ``obelisk mqtt`` with one of its threads
  made to raise: held when it ends with status 1, one log line naming the
  thread, and no traceback.
- 8, bad input in words (the club's part): ``obelisk club --broker`` with an
  IPv6 address left open or followed by junk, port 0, 70000 or none, and a URL
  with CR, LF and an escape in it: held when the answer is a single
  ``obelisk: ...`` line without control characters, status 2, no traceback.
  Then a result, a status and an event with CR/LF/escapes sent through the
  broker: held when the page and the log show them cleaned.
- 10, files and ids (the club's part): mqtt.toml, the password file and the CA
  file made a named pipe, a directory, a link to /dev/zero or an 8 GiB sparse
  file, read in this process (all four kinds) and by ``obelisk mqtt`` and
  ``obelisk club`` (one kind a round, in turn): held when refused within 20 s in
  words that name the file (``obelisk mqtt`` takes an mqtt.toml that is no
  regular file for none, and says so naming it). Then the same game on two tables (and twice on
  one): held when each is published under an id of its own.

What was lost is said on stderr. Prints one line per class and ends with
`faults_club: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_club.py [--rounds 3]
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fault_tally import Tally, bench_main  # noqa: E402
from firmware.readers.club.config import ClubError, config_from, load_config  # noqa: E402
from tests.support.broker import Heard, Mosquitto  # noqa: E402
from tests.support.club import (  # noqa: E402
    BAD_ENTRIES,
    entry,
    patched_publisher,
    started_publisher,
)
from tests.support.files import HUNG, device, fifo, folder, huge, outcome_within  # noqa: E402
from tests.support.processes import OBELISK, until  # noqa: E402

FAULTS = "tests/club/test_faults.py"
NAMES = {5: "bad outbox entry", 8: "bad input in words", 10: "files and ids"}
KINDS = (fifo, folder, device, huge)
BAD_BROKERS = ("mqtt://[::1", "mqtt://[::1]x:1883", "mqtt://h:0", "mqtt://h:70000",
               "mqtt://h:", "mqtt://h\r\nobelisk: forged\x1b[2J:1883")
CONTROL = re.compile("[\x00-\x1f\x7f\u202e]")
TROUBLE = (AssertionError, OSError, ValueError, subprocess.TimeoutExpired)
"""A scenario that failed its checks or did not end in time: that try lost something."""
FILE_S = 20.0


class _Kept(logging.Handler):
    """The publisher's log lines, kept here rather than printed."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _broker(where: Path) -> Mosquitto:
    return Mosquitto(where).start()


# ---------------------------------------------------------------------- class 5


def _outbox(where: Path, tally: Tally) -> None:
    """Every bad kind of file, each between good messages, in one outbox."""
    box = where / "mqtt" / "outbox"
    box.mkdir(parents=True)
    bad, good, seq = {}, [], 1
    (box / f"{seq:012d}.json").write_bytes(entry("obelisk/t1/events", '{"n": 1}'))
    good.append('{"n": 1}')
    for kind, make in BAD_ENTRIES.items():
        seq += 1
        name = f"{seq:012d}.json"
        make(box / name)
        bad[name] = kind
        seq += 1
        good.append(json.dumps({"n": seq}))
        (box / f"{seq:012d}.json").write_bytes(entry("obelisk/t1/events", good[-1]))
    kept = _Kept()
    logger = logging.getLogger("obelisk.mqtt")
    logger.addHandler(kept)
    was, logger.propagate = logger.propagate, False
    broker = _broker(where / "broker")
    heard = publisher = None
    try:
        heard = Heard(broker)
        publisher = started_publisher(where, broker)
        until(lambda: sorted(heard.on("obelisk/t1/events")) == sorted(good), 30,
                 "every good message delivered")
        publisher.take({"event": "turn", "player": "A", "doing": "move"})
        until(lambda: len(heard.on("obelisk/t1/events")) == len(good) + 1, 30,
                 "one event more")
        alive = all(thread.is_alive() for thread in publisher._threads)
        tally.check(5, alive, "a publisher thread died among bad files")
    except TROUBLE as exc:
        tally.check(5, False, f"the good messages: {exc}")
    finally:
        if publisher is not None:
            publisher.stop()
        if heard is not None:
            heard.close()
        broker.stop()
        logger.removeHandler(kept)
        logger.propagate = was
    rejected = where / "mqtt" / "rejected"
    for name, kind in bad.items():
        moved = (rejected / name).is_symlink() or (rejected / name).exists()
        left = (box / name).is_symlink() or (box / name).exists()
        said = [line for line in kept.lines if name in line]
        tally.check(5, moved and not left and len(said) == 1 and "set aside" in said[0],
                    f"{kind}: moved={moved} left in the outbox={left} said={said}"[:300])


def _dying(where: Path, tally: Tally, round_no: int) -> None:
    """``obelisk mqtt`` with one of its two threads made to raise."""
    loop, thread = (("_results_loop", "mqtt-results"), ("_send_loop", "mqtt-send"))[round_no % 2]
    patch = f"def boom(self):\n    raise RuntimeError('injected')\np.Publisher.{loop} = boom\n"
    where.mkdir(parents=True)
    broker = _broker(where / "broker")
    try:
        run = subprocess.run(patched_publisher(where, broker.url, patch), capture_output=True,
                             text=True, timeout=30)
        lines = [x for x in run.stderr.splitlines() if thread in x]
        tally.check(5, run.returncode == 1 and "Traceback" not in run.stderr and len(lines) == 1
                    and "RuntimeError: injected" in lines[0],
                    f"{thread} died: status {run.returncode}, {run.stderr[-300:]!r}")
    except subprocess.TimeoutExpired:
        tally.check(5, False, f"{thread} died and the process did not end in 30 s")
    finally:
        broker.stop()


# ---------------------------------------------------------------------- class 8


def _one_line(args: list[str], timeout: float = 30, names: Path | None = None
              ) -> tuple[bool, str]:
    """Whether ``obelisk ...`` refused in one clean ``obelisk:`` line with status 2 (naming
    the file ``names``, if given)."""
    try:
        run = subprocess.run([OBELISK, *args], capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, f"no answer in {timeout:.0f} s"
    lines = run.stderr.splitlines()
    held = (run.returncode == 2 and "Traceback" not in run.stderr and len(lines) == 1
            and lines[0].startswith("obelisk: ") and not CONTROL.search(lines[0])
            and (names is None or str(names) in lines[0]))
    return held, f"status {run.returncode}: {run.stderr[:240]!r}"


def _words(where: Path, tally: Tally) -> None:
    for url in BAD_BROKERS:
        held, said = _one_line(["club", "--broker", url, "--port", "0", "--address",
                                "127.0.0.1"])
        tally.check(8, held, f"--broker {url!r}: {said}")
    for what, test in (
            ("a result with control characters on the page",
             "test_a_result_with_control_characters_reaches_the_page_cleaned"),
            ("a status and an event with control characters",
             "test_the_club_page_cleans_a_tables_status_and_events"),
            ("a log line with CR/LF", "test_log_lines_from_the_club_are_one_line_each")):
        tally.scenario(8, what, lambda test=test: _passes(test))


# ---------------------------------------------------------------------- class 10


def _refused_here(read, path: Path) -> tuple[bool, str]:
    """Whether ``read()`` raises a ClubError naming ``path`` within FILE_S (on a thread of
    its own: a read that hangs is left there and counted lost)."""
    got = outcome_within(read, FILE_S)
    if got is HUNG:
        return False, f"still reading after {FILE_S:.0f} s"
    return isinstance(got, ClubError) and str(path) in str(got), repr(got)[:200]


def _files(where: Path, tally: Tally, round_no: int) -> None:
    for make in KINDS:
        kind = make.__name__
        place = where / kind
        place.mkdir(parents=True)
        target = place / "mqtt.toml"
        make(target)
        held, said = _refused_here(lambda target=target: load_config(target), target)
        tally.check(10, held, f"mqtt.toml as {kind}: {said}")
        secret = place / "secret"
        make(secret)
        for key, extra in (("password_file", {"user": "u"}), ("ca_file", {})):
            data = {"broker": "mqtts://h", "table": "t", key: str(secret), **extra}
            held, said = _refused_here(lambda data=data: config_from(data), secret)
            tally.check(10, held, f"{key} as {kind}: {said}")
    # the commands, one kind of file a round in turn
    make = KINDS[round_no % len(KINDS)]
    kind = make.__name__
    state = where / "commands"
    state.mkdir()
    make(state / "mqtt.toml")
    held, said = _one_line(["mqtt", "--state-dir", str(state)], FILE_S, state / "mqtt.toml")
    tally.check(10, held, f"obelisk mqtt with mqtt.toml as {kind}: {said}")
    secret = where / "commands-secret"
    make(secret)
    for key, extra in (("password_file", 'user = "u"\n'), ("ca_file", "")):
        other = where / f"commands-{key}"
        other.mkdir()
        (other / "mqtt.toml").write_text(f'broker = "mqtts://h"\ntable = "t"\n{extra}'
                                         f'{key} = "{secret}"\n')
        held, said = _one_line(["mqtt", "--state-dir", str(other)], FILE_S, secret)
        tally.check(10, held, f"obelisk mqtt with {key} as {kind}: {said}")
    for flag, extra in (("--password-file", ["--user", "u"]), ("--ca-file", [])):
        held, said = _one_line(["club", "--broker", "mqtts://127.0.0.1:1", *extra, flag,
                                str(secret), "--port", "0", "--address", "127.0.0.1"], FILE_S,
                               secret)
        tally.check(10, held, f"obelisk club {flag} as {kind}: {said}")


def _ids(where: Path, tally: Tally) -> None:
    tally.scenario(10, "the same game on two tables, each its own id", lambda: _passes(
        "test_every_game_is_published_under_an_id_no_other_game_shares"))


def _passes(test: str) -> None:
    """One of the scenarios of ``tests/club/test_faults.py``, run as its test: pytest in a
    process of its own, on its own broker (what failed is raised, to be counted lost)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{FAULTS}::{test}"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    if run.returncode != 0:
        raise AssertionError(run.stdout[-600:])


def run(rounds: int) -> list[dict]:
    """Each class tried ``rounds`` times, on fresh brokers and folders: per class, what was
    tried, what held and what was lost."""
    tally = Tally(NAMES)
    with tempfile.TemporaryDirectory(prefix="faults-club-") as top:
        for n in range(rounds):
            where = Path(top) / f"round{n}"
            _outbox(where / "outbox", tally)
            _dying(where / "dying", tally, n)
            _words(where / "words", tally)
            _files(where / "files", tally, n)
            _ids(where / "ids", tally)
    for note in tally.notes[:20]:
        print("  lost:", note[:300], file=sys.stderr)
    return tally.rows()


def main() -> None:
    bench_main("faults_club", __doc__, run)


if __name__ == "__main__":
    main()
