"""Throws at the club's publisher, page and match link what once broke them (issues 30 and
45), and counts what held.

Each round uses fresh real mosquitto brokers (``tests/support/broker.py``) and the
scenarios of ``tests/club/test_faults.py`` and ``tests/match/test_strangers.py``, and
tries six classes of fault:

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
- 17, a silent broker (issue 45): a TCP server that takes the connection and never
  answers, given to ``obelisk mqtt``, ``obelisk club`` and ``obelisk remote`` at once.
  Held per command when its log names the broker and the deadline within
  HANDSHAKE_S (10 s) and 30 s more, it tries again (a second connection), it still
  runs, and it printed no traceback.
- 18, words, not an exception's text (issue 45): ``obelisk club --broker`` with a
  path, a query, a fragment, a user, a user and password, or two ports; a secret
  word with a byte that is not UTF-8 (argument and environment); ``--user`` so;
  mqtt.toml not UTF-8, and not TOML; ``obelisk remote`` at a refused port and at a
  name no one knows; outbox files not UTF-8, cut short, without a payload, not an
  object. Held when the answer (one ``obelisk:`` line with status 2, or the log's
  line) names what is wrong and holds no codec, errno, exception name or traceback.
- 19, strangers on a match (issue 45): the scenarios of
  ``tests/match/test_strangers.py``, each as its test on a broker of its own: forged
  messages (no key, the wrong key, unsealed counts, an intruder's hello, a status
  set offline), every message sent again (and each action under later numbers), a
  32 MiB message live and retained, a stranger's hello first. Held when both
  journals end equal with only the players' moves, nothing forged or repeated
  reached a table, what was set aside was said, and the link grew by under 8 MiB.

What was lost is said on stderr. Prints one line per class and ends with
`faults_club: tried=N held=H lost=L`.

Run: .venv/bin/python bench/faults_club.py [--rounds 3]
"""

from __future__ import annotations

import json
import logging
import os
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
from firmware.readers.club.connect import HANDSHAKE_S  # noqa: E402
from firmware.readers.club.outbox import Outbox  # noqa: E402
from tests.support.broker import Heard, Mosquitto, Silent  # noqa: E402
from tests.support.club import (  # noqa: E402
    BAD_ENTRIES,
    entry,
    patched_publisher,
    started_publisher,
)
from tests.support.files import HUNG, device, fifo, folder, huge, outcome_within  # noqa: E402
from tests.support.processes import OBELISK, free_port, stop, until  # noqa: E402

FAULTS = "tests/club/test_faults.py"
NAMES = {5: "bad outbox entry", 8: "bad input in words", 10: "files and ids",
         17: "a silent broker", 18: "words, not exception text", 19: "strangers on a match"}
STRANGERS = "tests/match/test_strangers.py"
RAW = re.compile(r"codec|\[Errno|Errno -?\d|_ssl\.c|Traceback|\bstrerror\b|"
                 r"[A-Z][a-z]+Error\b|can't (?:en|de)code|surrogates not allowed")
"""An exception's own text (class 18): none may reach a person."""
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


def _passes(test: str, module: str = FAULTS) -> None:
    """One of the scenarios of ``tests/club/test_faults.py`` (or ``module``), run as its
    test: pytest in a process of its own, on its own broker (what failed is raised, to be
    counted lost)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{module}::{test}"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    if run.returncode != 0:
        raise AssertionError(run.stdout[-600:])


# ---------------------------------------------------------------------- class 17


def _silence(where: Path, tally: Tally) -> None:
    """Each reader of the club's broker against a broker that never answers, all at once."""
    where.mkdir(parents=True)
    servers = {name: Silent() for name in ("mqtt", "club", "remote")}
    (where / "mqtt.toml").write_text(f'broker = "{servers["mqtt"].url}"\ntable = "t1"\n')
    commands = {"mqtt": ["mqtt", "--state-dir", str(where)],
                "club": ["club", "--broker", servers["club"].url, "--port", "0", "--address",
                         "127.0.0.1"],
                "remote": ["remote", "--state-dir", str(where / "link"), "--broker",
                           servers["remote"].url, "--table", "ta"]}
    procs, logs = {}, {}
    try:
        for name, args in commands.items():
            logs[name] = where / f"{name}.log"
            with open(logs[name], "w") as out:
                procs[name] = subprocess.Popen([OBELISK, *args], stdout=out, stderr=out)
        for name, proc in procs.items():
            server, log = servers[name], logs[name]
            try:
                until(lambda log=log: "gave no MQTT answer" in log.read_text(),
                      HANDSHAKE_S + 30, f"obelisk {name} naming the silent broker")
                until(lambda server=server: server.accepted >= 2, 60,
                      f"obelisk {name} trying again")
            except AssertionError as exc:
                tally.check(17, False, f"obelisk {name}: {exc}; it said "
                            f"{log.read_text()[-200:]!r}")
                continue
            text = log.read_text()
            line = next(x for x in text.splitlines() if "gave no MQTT answer" in x)
            tally.check(17, proc.poll() is None and "Traceback" not in text
                        and f"within {HANDSHAKE_S:g} s" in line and str(server.port) in line,
                        f"obelisk {name}: {line[:200]}")
    finally:
        for proc in procs.values():
            stop(proc)
        for server in servers.values():
            server.close()


# ---------------------------------------------------------------------- class 18


BAD_URLS = {"mqtt://h/club": "the path '/club'", "mqtt://h?tls=1": "the query '?tls=1'",
            "mqtt://h#x": "the fragment '#x'", "mqtt://user@h": "the user 'user'",
            "mqtt://u:pw@h": "a user and password", "mqtt://h:1883:1": "only one :port"}


def _in_words(args: list, names: str, env: dict | None = None) -> tuple[bool, str]:
    """Whether ``obelisk ARGS`` refused in one clean line naming ``names``, status 2."""
    try:
        run = subprocess.run([os.fsencode(OBELISK), *args], capture_output=True, text=True,
                             timeout=60, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, "no answer in 60 s"
    lines = run.stderr.splitlines()
    held = (run.returncode == 2 and len(lines) == 1 and lines[0].startswith("obelisk: ")
            and names in lines[0] and not RAW.search(run.stderr))
    return held, f"status {run.returncode}: {run.stderr[:240]!r}"


def _words_not_text(where: Path, tally: Tally) -> None:
    where.mkdir(parents=True)
    for url, part in BAD_URLS.items():
        held, said = _in_words([b"club", b"--broker", url.encode(), b"--port", b"0"], part)
        tally.check(18, held and ":pw@" not in said, f"--broker {url}: {said}")
    demo = [b"demo", b"stones", b"--remote", b"m", b"--seat", b"A", b"--state-dir",
            os.fsencode(where / "demo")]
    held, said = _in_words([*demo, b"--secret", b"tu\xfflip"], "the secret word")
    tally.check(18, held, f"--secret with a byte that is no UTF-8: {said}")
    env = {**{os.fsencode(k): os.fsencode(v) for k, v in os.environ.items()},
           b"OBELISK_MATCH_SECRET": b"tu\xfflip"}
    held, said = _in_words(demo, "the secret word", env)
    tally.check(18, held, f"OBELISK_MATCH_SECRET with a byte that is no UTF-8: {said}")
    held, said = _in_words([b"club", b"--broker", b"mqtt://127.0.0.1:1", b"--user", b"t\xff",
                            b"--port", b"0"], "--user")
    tally.check(18, held, f"--user with a byte that is no UTF-8: {said}")
    for kind, data in (("not UTF-8", b'broker = "mqtt://h"\ntable = "t\xff"\n'),
                       ("not TOML", b'broker = "mqtt://h\ntable = "t"\n')):
        state = where / kind.replace(" ", "-")
        state.mkdir()
        (state / "mqtt.toml").write_bytes(data)
        held, said = _in_words([b"mqtt", b"--state-dir", os.fsencode(state)],
                               str(state / "mqtt.toml"))
        tally.check(18, held, f"mqtt.toml {kind}: {said}")
    for n, (broker, says) in enumerate(((f"mqtt://127.0.0.1:{free_port()}",
                                         "nothing answers on port"),
                                        ("mqtt://no-such-host.invalid", "name"))):
        tally.check(18, *_link_says(where / f"link-{n}", broker, says))
    _outbox_words(where / "outbox", tally)


def _link_says(state: Path, broker: str, says: str) -> tuple[bool, str]:
    """Whether ``obelisk remote`` at ``broker`` says ``says`` in its log, in words."""
    log = state.parent / f"{state.name}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([OBELISK, "remote", "--state-dir", str(state), "--broker",
                                 broker, "--table", "ta"], stdout=out, stderr=out)
    try:
        until(lambda: "cannot reach the broker" in log.read_text(), 30,
              f"obelisk remote saying why it cannot reach {broker}")
    except AssertionError as exc:
        return False, f"{broker}: {exc}"
    finally:
        stop(proc)
    text = log.read_text()
    line = next(x for x in text.splitlines() if "cannot reach the broker" in x)
    return says in line and not RAW.search(text), f"{broker}: {line[:200]}"


def _outbox_words(box: Path, tally: Tally) -> None:
    box.mkdir(parents=True)
    files = {"not UTF-8": b'{"topic": "obelisk/t1/events", "retain": false, "payload": "\xff"}',
             "cut short": b'{"topic": "obelisk/t1/ev', "no payload": b'{"topic": "o/t1/e"}',
             "not an object": b"[1, 2]"}
    names = {}
    for n, (kind, data) in enumerate(files.items(), start=1):
        (box / f"{n:012d}.json").write_bytes(data)
        names[f"{n:012d}.json"] = kind
    kept = _Kept()
    logger = logging.getLogger("obelisk.mqtt")
    logger.addHandler(kept)
    was, logger.propagate = logger.propagate, False
    try:
        Outbox(box)
    finally:
        logger.removeHandler(kept)
        logger.propagate = was
    for name, kind in names.items():
        said = [line for line in kept.lines if name in line]
        tally.check(18, len(said) == 1 and "set aside" in said[0] and not RAW.search(said[0]),
                    f"outbox file {kind}: {said}"[:300])


# ---------------------------------------------------------------------- class 19


def _strangers(tally: Tally) -> None:
    for what, test in (
            ("forged messages", "test_forged_messages_from_a_third_client_change_nothing_and_"
                                "are_said"),
            ("messages sent again", "test_messages_a_third_client_sends_again_change_nothing"),
            ("a giant message", "test_a_giant_message_on_a_matchs_topics_costs_the_link_no_"
                                "memory"),
            ("a stranger's hello first", "test_a_stranger_claiming_the_other_seat_first_does_"
                                         "not_take_it")):
        tally.scenario(19, what, lambda test=test: _passes(test, STRANGERS))


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
            _silence(where / "silence", tally)
            _words_not_text(where / "words-not-text", tally)
            _strangers(tally)
    for note in tally.notes[:20]:
        print("  lost:", note[:300], file=sys.stderr)
    return tally.rows()


def main() -> None:
    bench_main("faults_club", __doc__, run)


if __name__ == "__main__":
    main()
