"""What a person reads of the club's code says what is wrong in their terms, never the text
of an exception (a codec's, the system's, the TLS library's, the MQTT client's).

The class is held two ways: each message a person meets is tried with the inputs that once
let such text out (a broker URL with a path, a file that is not UTF-8, a refused port, a
name no one knows), and the club's source is read for any place that shows an exception it
caught whose words are not the project's own (``test_no_club_message_shows_an_exceptions_text``).
"""

from __future__ import annotations

import ast
import errno
import re
import socket
import ssl

import pytest

from firmware.readers.club.config import ClubError, load_config, parse_broker
from firmware.readers.club.connect import unreachable_words
from firmware.readers.club.outbox import Outbox
from tests.support import ROOT

RAW = re.compile(r"codec|\[Errno|Errno -?\d|_ssl\.c|Traceback|\bstrerror\b|"
                 r"[A-Z][a-z]+Error\b|can't (?:en|de)code|surrogates not allowed")
"""What an exception's own text looks like: none of it may reach a person."""


# ---------------------------------------------------------------------- the broker's URL


@pytest.mark.parametrize(("url", "part", "fix"), [
    ("mqtt://h/x", "the path '/x'", "leave it out"),
    ("mqtt://h:1883/club/tables", "the path '/club/tables'", "leave it out"),
    ("mqtt://h?x=1", "the query '?x=1'", "leave it out"),
    ("mqtt://h:1883?tls=1", "the query '?tls=1'", "mqtts://"),
    ("mqtt://h#frag", "the fragment '#frag'", "leave it out"),
    ("mqtt://h//", "the path '//'", "leave it out"),
    ("mqtt://user@h", "the user 'user'", "user and password_file"),
    ("mqtt://u:secret@h", "a user and password", "user and password_file"),
    ("mqtt://h:1883:1", "':1883:1'", "one :port"),
])
def test_a_broker_urls_refusal_names_the_part_that_is_wrong(url, part, fix):
    with pytest.raises(ClubError) as refused:
        parse_broker(url)
    words = str(refused.value)
    assert part in words and fix in words, words
    assert "secret" not in words  # a password typed in the URL is not repeated back
    if "@" not in url:
        assert "user and password have keys" not in words, words


# ---------------------------------------------------------------------- files


def test_a_configuration_that_is_not_utf8_is_said_as_such(tmp_path):
    path = tmp_path / "mqtt.toml"
    path.write_bytes(b'broker = "mqtt://h"\ntable = "t\xff"\n')
    with pytest.raises(ClubError) as refused:
        load_config(path)
    words = str(refused.value)
    assert "not UTF-8 text" in words and "line 2" in words and not RAW.search(words), words


def test_a_configuration_that_is_not_toml_names_the_line(tmp_path):
    path = tmp_path / "mqtt.toml"
    path.write_text('broker = "mqtt://h\ntable = "t"\n')
    with pytest.raises(ClubError) as refused:
        load_config(path)
    words = str(refused.value)
    assert "is not valid TOML at line 1, column 19" in words and "key = \"value\"" in words
    assert "Illegal character" not in words, words  # the TOML reader's own words


@pytest.mark.parametrize(("data", "says"), [
    (b'{"topic": "obelisk/t1/events", "retain": false, "payload": "\xff"}', "not UTF-8 text"),
    (b'{"topic": "obelisk/t1/ev', "not a whole JSON object"),
    (b'{"topic": "obelisk/t1/events"}', "has no payload"),
    (b'[1, 2]', "not a message"),
])
def test_an_outbox_file_set_aside_is_said_in_words(tmp_path, caplog, data, says):
    box = tmp_path / "outbox"
    box.mkdir()
    (box / "000000000001.json").write_bytes(data)
    Outbox(box)
    [line] = [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()]
    assert says in line and not RAW.search(line), line


# ---------------------------------------------------------------------- reaching the broker


BROKER = parse_broker("mqtts://broker.club.lan:8883")


@pytest.mark.parametrize(("exc", "says"), [
    (ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"),
     "nothing answers on port 8883"),
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
     "the name 'broker.club.lan' is not known"),
    (socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"),
     "no name service answered"),
    (TimeoutError("timed out"), "no answer"),
    (OSError(errno.EHOSTUNREACH, "No route to host"), "no way to it on the network"),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), "no way to it on the network"),
    (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "closed the connection"),
    (ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1000)"),
     "did not speak TLS"),
    (None, "no answer"),
])
def test_a_broker_out_of_reach_is_said_in_a_persons_words(exc, says):
    words = unreachable_words(exc, BROKER, None, "broker in mqtt.toml", "ca_file in mqtt.toml")
    assert says in words and "broker in mqtt.toml" in words and not RAW.search(words), words


def test_a_certificate_not_vouched_for_is_said_in_words():
    exc = ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate "
                                          "verify failed: self-signed certificate (_ssl.c:1006)")
    exc.verify_code, exc.verify_message = 18, "self-signed certificate"
    words = unreachable_words(exc, BROKER, "/etc/obelisk/club-ca.pem", "broker", "ca_file")
    assert "not vouched for by '/etc/obelisk/club-ca.pem'" in words and not RAW.search(words)


# ---------------------------------------------------------------------- the class, in the source


AREA = [*sorted(path for path in (ROOT / "firmware" / "readers" / "club").glob("*.py")
               if path.name != "trouble.py"),
        *sorted(path for path in (ROOT / "firmware" / "match").glob("*.py")
                if path.name != "commands.py")]
"""The club's code and the match's (``trouble.py`` is where an exception becomes words:
it reads their text to find a place in it, and shows none; the match's ``commands.py`` is
the service's handlers, which this never read: it was ``firmware/service/``'s)."""
OWN_WORDS = {"ClubError", "FileRefused", "HistoryError", "JournalError", "ControlUnavailable",
             "SealError", "ObeliskError", "MatchError", "AskRefused", "StateDirError",
             "CommandRefused"}
"""Exceptions the project raises with its own words for a person: their text may be shown."""
TRANSLATORS = {"disk_advice", "unreachable_words", "os_words", "text_words", "name_words",
               "toml_place", "reason_words", "refusal_words", "refused_words", "isinstance"}
"""What turns an exception into a person's words (or only asks what it is)."""
LOOKED_AT = {"errno", "verify_code", "start", "lineno", "colno", "pos", "is_failure", "value"}
"""An exception's parts that say where or which, never its text."""


def _exception_names(tree: ast.AST) -> list[tuple[str, str, list[ast.AST]]]:
    """(function, the name an exception is bound to, the code that sees it) for every
    ``except ... as name`` whose exceptions are not all the project's own, every function
    parameter typed as an exception, and every ``reason`` paho hands a callback."""
    found, seen = [], set()
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for func in sorted(functions, key=lambda f: -f.lineno):  # the innermost first
        for node in ast.walk(func):
            if isinstance(node, ast.ExceptHandler) and node.name and id(node) not in seen:
                seen.add(id(node))
                caught = {n.id if isinstance(n, ast.Name) else n.attr
                          for n in ast.walk(node.type) if isinstance(n, ast.Name | ast.Attribute)}
                if not caught - {"command_socket", "ssl", "tomllib", "socket"} <= OWN_WORDS:
                    found.append((func.name, node.name, node.body))
        for arg in func.args.args:
            hint = ast.unparse(arg.annotation) if arg.annotation else ""
            if "Exception" in hint or "Error" in hint or arg.arg == "reason":
                found.append((func.name, arg.arg, func.body))  # (``reason``: paho's, given
                # to a callback when the broker refused or the connection ended)
    return found


def _shown(body: list[ast.AST], name: str) -> list[str]:
    """Each use of ``name`` in ``body`` that may put its text before a person."""
    parents = {child: node for stmt in body for node in ast.walk(stmt)
               for child in ast.iter_child_nodes(node)}
    bad = []
    for stmt in body:
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and parent.attr in LOOKED_AT:
                continue
            if isinstance(parent, ast.Call) and node in parent.args and \
                    ast.unparse(parent.func).split(".")[-1] in TRANSLATORS:
                continue
            if isinstance(parent, ast.Compare):
                continue  # only asked (``exc is None``)
            if isinstance(parent, ast.Call) and ast.unparse(parent.func) == "getattr" and \
                    len(parent.args) > 1 and getattr(parent.args[1], "value", "") in LOOKED_AT:
                continue
            bad.append(f"{ast.unparse(parent) if parent is not None else name}"[:90])
    return bad


def test_no_club_message_shows_an_exceptions_text():
    shown = []
    for path in AREA:
        for func, name, body in _exception_names(ast.parse(path.read_text())):
            shown += [f"{path.relative_to(ROOT)}:{func}: {use}" for use in _shown(body, name)]
    assert not shown, "an exception's own text reaches a person:\n" + "\n".join(shown)


def test_the_source_check_sees_an_exceptions_text():
    tree = ast.parse("def f(path):\n    try:\n        open(path)\n    except OSError as exc:\n"
                     "        raise ClubError(f'cannot read {path}: {exc.strerror or exc}')\n"
                     "def g(exc: BaseException):\n    return f'x {exc.errno} {str(exc)}'\n")
    uses = [use for _, name, body in _exception_names(tree) for use in _shown(body, name)]
    assert sorted(uses) == ["exc.strerror", "exc.strerror or exc", "str(exc)"], uses
    fine = ast.parse("def f():\n    try:\n        g()\n    except ClubError as exc:\n"
                     "        say(f'{exc}')\n    except OSError as exc:\n"
                     "        say(os_words(exc))\n")
    assert [u for _, n, b in _exception_names(fine) for u in _shown(b, n)] == []


def test_what_paho_says_of_a_lost_broker_is_said_in_words():
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    from firmware.readers.club.trouble import reason_words

    for code, says in ((128, "the connection was lost"), (141, "no word from the broker"),
                       (142, "another client connected under this table's name"),
                       (139, "the broker is shutting down")):
        words = reason_words(ReasonCode(PacketTypes.DISCONNECT, identifier=code))
        assert says in words and not RAW.search(words), words


@pytest.mark.processes
def test_a_user_name_that_is_no_text_is_refused_in_one_line(tmp_path):
    """A byte that is not UTF-8 in ``--user`` (a lone surrogate to Python): one line naming
    the flag, never the codec's words (it was a traceback)."""
    import os
    import subprocess

    from tests.support.processes import OBELISK

    run = subprocess.run([os.fsencode(OBELISK), b"club", b"--broker", b"mqtt://127.0.0.1:1",
                          b"--user", b"t\xffble", b"--port", b"0", b"--address", b"127.0.0.1"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    [line] = run.stderr.splitlines()
    assert line.startswith("obelisk: --user") and "type it again" in line, line
    assert not RAW.search(line), line
