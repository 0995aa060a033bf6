"""Whether a request comes from this server's own page: the one check of Host, Origin and kind.

Every handler that takes a body (``safe.JsonHandler``: the session, the commands, the
hands) runs it in its ``prepare``, before a byte of the body is read or anything is done,
so no endpoint that changes the table can forget it or check it otherwise:

- the Host must name this server (the address the request came in on, this machine's
  name or ``NAME.local``, ``localhost`` on the loopback) with the port it came in on: a
  page of another site whose name was rebound to this table's address names its own
  (a 421, for a GET too);
- a POST, PUT, PATCH or DELETE that carries an Origin must carry this server's own (a
  browser sends one with every such request; ``null`` is no origin of ours): a 403;
- and it must be ``application/json``, which a form of another site cannot send without
  the browser asking this server first (and it never consents): a 415.
"""

from __future__ import annotations

import ipaddress
import socket

import tornado.web
from tornado.http1connection import HTTP1Connection

__all__ = ["FOREIGN_HOST", "FOREIGN_ORIGIN", "NOT_JSON", "foreign"]

FOREIGN_HOST = ("this table answers only at its own address: open the page at the address "
                "`obelisk web` printed")
FOREIGN_ORIGIN = ("this request did not come from the table's page: open the page at the "
                  "address `obelisk web` printed")
NOT_JSON = "send it as application/json, as the table's page does"
READING = ("GET", "HEAD", "OPTIONS")


def foreign(handler: tornado.web.RequestHandler) -> tuple[int, str] | None:
    """Why this request is refused as not from this server's own page: (status, words);
    None when it may go on."""
    request = handler.request
    if not our_host(handler):
        return 421, FOREIGN_HOST
    if request.method in READING:
        return None
    origin = request.headers.get("Origin")
    if origin is not None and origin.strip().lower() != \
            f"{request.protocol}://{request.host}".lower():
        return 403, FOREIGN_ORIGIN
    kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return 415, NOT_JSON
    return None


def our_host(handler: tornado.web.RequestHandler) -> bool:
    """Whether the Host named is this server: the address the request came in on (or this
    machine's name; localhost on the loopback), with the port it came in on."""
    request = handler.request
    connection = request.connection
    if not isinstance(connection, HTTP1Connection):
        return False  # no socket to ask (never for a request served here)
    try:
        here = connection.stream.socket.getsockname()
    except (AttributeError, OSError):  # (closed: its socket is None)
        return False
    name, _, port = split_host(request.host or "")
    default = "443" if request.protocol == "https" else "80"
    if (port or default) != str(here[1]):
        return False
    address = plain_address(str(here[0]))
    if name == address:
        return True
    names = {socket.gethostname().lower()}
    names |= {f"{n}.local" for n in names}
    if ipaddress.ip_address(address).is_loopback:
        names.add("localhost")
    return name in names


def split_host(host: str) -> tuple[str, str, str]:
    """(name, ":", port) of a Host header; an IPv6 address loses its brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        inside, _, rest = host[1:].partition("]")
        return plain_address(inside), ":" if rest else "", rest[1:]
    name, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
    return name, colon, port


def plain_address(address: str) -> str:
    """An address as a Host names it: an IPv4 address mapped into IPv6 as itself."""
    try:
        parsed = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    mapped = getattr(parsed, "ipv4_mapped", None)
    return str(mapped or parsed)
