"""Where a table publishes: its broker, its name, its credentials (``mqtt.toml``).

A club's broker is theirs; the table only needs to be told where it is. The
file is TOML, looked for as ``--config FILE``, else ``<state dir>/mqtt.toml``,
else ``/etc/obelisk/mqtt.toml``::

    broker = "mqtts://broker.club.lan"      # mqtt:// (port 1883) or mqtts:// (8883)
    table = "table-3"                       # lowercase letters, digits, - and _
    user = "table-3"                        # optional
    password_file = "/etc/obelisk/mqtt-password"   # optional, needs user
    ca_file = "/etc/obelisk/club-ca.pem"    # optional, mqtts only
    home_assistant = true                   # optional: Home Assistant discovery
    outbox_limit_mb = 20                    # optional: what may wait for the broker

Every mistake is refused by key, with what to write instead, before anything
connects: a table that silently publishes nowhere helps no one.
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from firmware.readers.club.outbox import LIMIT_MB
from firmware.readers.club.safe import FileRefused, clean, read_bounded
from firmware.readers.club.trouble import os_words, text_words, toml_place
from firmware.store.state_dir import StateDirError

NAME = "mqtt.toml"
SYSTEM = Path("/etc/obelisk") / NAME
PREFIX = "obelisk"
"""Every topic starts here: ``obelisk/<table>/...``."""
TABLE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
CONFIG_MAX = 64 * 1024
"""The most a configuration or a password file may hold, in bytes (a few lines each)."""
CA_MAX = 1024 * 1024
"""The most a certificate file may hold, in bytes (a system's whole bundle is a fifth)."""
KEYS = ("broker", "table", "user", "password_file", "ca_file", "home_assistant",
        "outbox_limit_mb")


class ClubError(StateDirError):
    """The club's publishing or page cannot go on; the message names the fix."""


@dataclass(frozen=True)
class Broker:
    """A broker's address, read from an ``mqtt://`` or ``mqtts://`` URL."""

    host: str
    port: int
    tls: bool

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


@dataclass(frozen=True)
class ClubConfig:
    """One table's publishing settings, checked."""

    broker: Broker
    table: str
    user: str | None = None
    password: str | None = None
    ca_file: str | None = None
    home_assistant: bool = False
    source: str = "-"
    outbox_limit_mb: float = LIMIT_MB

    def topic(self, *parts: str) -> str:
        """``obelisk/<table>/<parts>``: lowercase, no leading slash."""
        return "/".join((PREFIX, self.table, *parts))


def parse_broker(url: str, where: str = "broker") -> Broker:
    """A broker URL, or ClubError naming what is wrong with it: the scheme, the host (a name,
    an IPv4 address, or an IPv6 address in brackets) and the port (1 to 65535)."""
    example = "for example mqtt://192.168.1.20 or mqtts://broker.club.lan:8883"
    if not isinstance(url, str) or not url.strip():
        raise ClubError(f"{where}: give the club's broker as a URL, {example}")
    said = clean(url.strip(), 100)
    scheme, sep, rest = url.strip().partition("://")
    if not sep or scheme.lower() not in ("mqtt", "mqtts"):
        raise ClubError(f"{where} = {said!r}: a broker URL starts with mqtt:// or mqtts://, "
                        f"{example}")
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    netloc, tail = rest[:cut], rest[cut:]
    if "@" in netloc:
        login, _, after = netloc.rpartition("@")
        user, colon, _ = login.partition(":")
        part = "a user and password" if colon else f"the user {clean(user, 40)!r}"
        shown = f"{clean(scheme, 10)}://...@{clean(after, 60)}"  # never the password again
        raise ClubError(f"{where} = {shown!r}: only the host and port go in a broker URL, and "
                        f"{part} has no "
                        "place there: give them as user and password_file in mqtt.toml "
                        "(--user and --password-file on the command line)")
    if tail not in ("", "/"):
        raise ClubError(f"{where} = {said!r}: only the host and port go in a broker URL; "
                        f"{_tail_words(tail)}, " + example)
    host, port = _host_port(netloc, f"{where} = {said!r}", example)
    tls = scheme.lower() == "mqtts"
    return Broker(host, port or (8883 if tls else 1883), tls)


def _tail_words(tail: str) -> str:
    """What follows a broker URL's host and port, named, with what to do about it."""
    path, _, query = tail.partition("?")
    path, hash_, fragment = path.partition("#")
    if path not in ("", "/"):
        return f"the path {clean(path, 60)!r} has no place there: leave it out (MQTT has none)"
    if query or tail.startswith("?"):
        query = query.partition("#")[0]
        tls = " (for TLS write mqtts:// instead)" if "tls" in query.lower() or \
            "ssl" in query.lower() else ""
        return (f"the query {clean('?' + query, 60)!r} has no place there: leave it out"
                f"{tls}; mqtts:// and the settings of mqtt.toml say the rest")
    return f"the fragment {clean(hash_ + fragment, 60)!r} has no place there: leave it out"


HOST_LABEL = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?")


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def is_host(text: str) -> bool:
    """Whether ``text`` is an IP address or a host name (letters, digits, - and _ between
    dots, 63 at most each, 253 in all)."""
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        pass
    name = text.lower().rstrip(".")
    return 0 < len(name) <= 253 and all(HOST_LABEL.fullmatch(x) for x in name.split("."))


def _host_port(netloc: str, where: str, example: str) -> tuple[str, int | None]:
    """The host and the port (None: the scheme's own) of ``host[:port]``."""
    if netloc.startswith("["):
        host, port_text = _bracketed(netloc, where)
    else:
        if "]" in netloc or netloc.count(":") > 1:
            raise ClubError(f"{where}: " + _colons_words(netloc, example))
        host, colon, port_text = netloc.partition(":")
        port_text = port_text if colon else None
        if not host:
            raise ClubError(f"{where}: the broker's host is missing, {example}")
        host = host.lower().rstrip(".")
        if not is_host(host):
            raise ClubError(f"{where}: {clean(host, 60)!r} is not a host name or an address "
                            "(letters, digits and - between dots, up to 63 each), " + example)
    if port_text is None:
        return host, None
    if not (port_text.isascii() and port_text.isdigit() and 1 <= int(port_text) <= 65535):
        raise ClubError(f"{where}: the port must be a number from 1 to 65535, {example}")
    return host, int(port_text)


def _bracketed(netloc: str, where: str) -> tuple[str, str | None]:
    """The IPv6 address and the port's text (None: none) of ``[address][:port]``."""
    inside, closed, after = netloc[1:].partition("]")
    if not closed:
        raise ClubError(f"{where}: the IPv6 address opened with [ is not closed with ]: "
                        "write it as mqtt://[fd00::20]:1883")
    try:
        host = str(ipaddress.IPv6Address(inside))
    except ValueError:
        raise ClubError(f"{where}: {clean(inside, 60)!r} is not an IPv6 address: write "
                        "one in brackets, as mqtt://[fd00::20]:1883") from None
    if after and not after.startswith(":"):
        raise ClubError(f"{where}: only :port may come after the ] of an IPv6 address, "
                        "as mqtt://[fd00::20]:1883")
    return host, (after[1:] if after else None)


def _colons_words(netloc: str, example: str) -> str:
    """What is wrong with a host and port that hold a ] or more than one colon."""
    if "]" not in netloc and not _is_ipv6(netloc) and not _is_ipv6(netloc.rpartition(":")[0]):
        after = clean(netloc[netloc.index(":"):], 40)
        return (f"{after!r} follows the host, and only one :port may: "
                + example.replace("for example", "as"))
    return "an IPv6 address goes in brackets, as mqtt://[fd00::20]:1883"


def find_config(state_dir: Path, given: str | Path | None) -> Path:
    """The configuration file to read: the one named, else the state directory's, else
    /etc/obelisk's."""
    # something there that is no file (a folder, a pipe) is still the one meant: the reader
    # refuses it naming what it is, rather than "there is none"
    if given is not None:
        path = Path(given)
        if not (path.exists() or path.is_symlink()):
            raise ClubError(f"there is no configuration file {path}: write one (see `obelisk "
                            "mqtt --help`) or name another with --config")
        return path
    for path in (Path(state_dir) / NAME, SYSTEM):
        if path.exists() or path.is_symlink():
            return path
    raise ClubError(f"this table has no broker to publish to: write {Path(state_dir) / NAME} "
                    f"(or {SYSTEM}) with at least broker = \"mqtt://...\" and table = \"a name\"")


def load_config(path: str | Path) -> ClubConfig:
    """The checked settings of one file; ClubError naming the key and the fix."""
    path = Path(path)
    try:
        data = tomllib.loads(read_bounded(path, CONFIG_MAX).decode("utf-8"))
    except FileRefused as exc:
        raise ClubError(f"{path} is not read: {exc}; give the configuration file, a few "
                        "key = \"value\" lines") from None
    except OSError as exc:
        raise ClubError(f"cannot read {path}: {os_words(exc)}; check its permissions "
                        "(the publisher's user must read it)") from None
    except UnicodeDecodeError as exc:
        raise ClubError(f"{path}: {text_words(exc)}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ClubError(f"{path} is not valid TOML {toml_place(exc)}: write key = \"value\" "
                        "lines, each text in quotes closed on its own line, as "
                        "broker = \"mqtt://192.168.1.20\"") from None
    return config_from(data, str(path))


def config_from(data: dict, source: str = "-") -> ClubConfig:
    """The checked settings of a parsed file."""
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ClubError(f"{source}: {unknown[0]!r} is not a setting here; the settings are "
                        f"{', '.join(KEYS)}")
    broker = parse_broker(data.get("broker", ""), f"{source}: broker")
    table = data.get("table")
    if not isinstance(table, str) or not TABLE_NAME.fullmatch(table):
        raise ClubError(f"{source}: table = {table!r}: name the table with 1 to 40 lowercase "
                        "letters, digits, - or _ (it goes in the topics), for example "
                        "table = \"table-3\"")
    if table == "matches":
        raise ClubError(f"{source}: table = \"matches\" is taken by the remote matches' "
                        "topics (obelisk/matches/...): name the table otherwise, for example "
                        "table = \"table-3\"")
    user = _text(data, "user", source)
    password = None
    password_file = _text(data, "password_file", source)
    if password_file is not None:
        if user is None:
            raise ClubError(f"{source}: password_file is set but user is not: add user = "
                            "\"...\" (the name the broker knows this table by)")
        password = read_password(password_file, f"{source}: password_file = "
                                 f"{password_file!r}", "put the broker password in that file, "
                                 "readable by the publisher's user only")
    ca_file = _text(data, "ca_file", source)
    if ca_file is not None:
        if not broker.tls:
            raise ClubError(f"{source}: ca_file is for mqtts:// brokers: use mqtts:// or "
                            "remove ca_file")
        check_ca_file(ca_file, f"{source}: ca_file = {ca_file!r}")
    home = data.get("home_assistant", False)
    if not isinstance(home, bool):
        raise ClubError(f"{source}: home_assistant = {home!r}: write true or false")
    limit = data.get("outbox_limit_mb", LIMIT_MB)
    if (isinstance(limit, bool) or not isinstance(limit, int | float)
            or not 0.001 <= limit <= 100_000):
        raise ClubError(f"{source}: outbox_limit_mb = {limit!r}: give the megabytes that may "
                        f"wait for the broker as a number from 0.001 to 100000 (the default "
                        f"is {LIMIT_MB})")
    return ClubConfig(broker, table, user, password, ca_file, home, source, limit)


def read_password(path: str | Path, where: str, fix: str) -> str:
    """The password kept in ``path`` (its first line's text); ClubError starting with
    ``where`` if it cannot be read, is not text or is empty, ending with ``fix``."""
    try:
        password = read_bounded(path, CONFIG_MAX).decode("utf-8").strip()
    except FileRefused as exc:
        raise ClubError(f"{where} is not read ({exc}): {fix}") from None
    except OSError as exc:
        raise ClubError(f"{where} cannot be read ({os_words(exc)}): {fix}") from None
    except UnicodeDecodeError:
        raise ClubError(f"{where} is not text (not UTF-8): {fix}, as plain text") from None
    if not password:
        raise ClubError(f"{where} is empty: {fix}")
    return password


def check_ca_file(path: str, where: str) -> None:
    """ClubError starting with ``where`` unless ``path`` is a certificate-sized regular file:
    the TLS library reads it later, and would wait forever on a pipe."""
    try:
        read_bounded(path, CA_MAX)
    except FileNotFoundError:
        raise ClubError(f"{where} does not exist: give the certificate file of the club's "
                        "certificate authority") from None
    except FileRefused as exc:
        raise ClubError(f"{where} is not read ({exc}): give the certificate file of the "
                        "club's certificate authority") from None
    except OSError as exc:
        raise ClubError(f"{where} is not read ({os_words(exc)}): give the certificate file of "
                        "the club's certificate authority") from None


def _text(data: dict, key: str, source: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ClubError(f"{source}: {key} = {value!r}: write it as text in quotes, "
                        f"{key} = \"...\", or leave the line out")
    return value
