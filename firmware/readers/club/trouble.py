"""What went wrong, in a person's terms: the system's errors, text that is not UTF-8, and what
the MQTT client says of a connection that ended.

An exception's own text ("[Errno 111] Connection refused", "'utf-8' codec can't
decode byte 0xff in position 29") is written for programmers, and in the
system's language rather than the table's; the club's code shows a person
these words instead, each naming what is wrong (``tests/club/test_words.py``
holds the club's source to it).
"""

from __future__ import annotations

import errno
import re
import socket

_OS = {
    errno.ENOENT: "it does not exist",
    errno.EACCES: "this user may not use it (its owner or permissions)",
    errno.EPERM: "this user may not use it (its owner or permissions)",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of its path is not a folder",
    errno.ELOOP: "its symbolic links go round in a circle",
    errno.ENAMETOOLONG: "its name is too long",
    errno.EIO: "the disk failed to read or write it (a failing SD card?)",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk is full",
    errno.EROFS: "its file system is read-only",
    errno.EMFILE: "this process has too many files open",
    errno.ENFILE: "the system has too many files open",
    errno.ENOMEM: "the machine is out of memory",
    errno.ECONNREFUSED: "nothing answers on that port there",
    errno.ECONNRESET: "the other end closed the connection",
    errno.ECONNABORTED: "the other end closed the connection",
    errno.EPIPE: "the other end closed the connection",
    errno.ETIMEDOUT: "no answer came in time",
    errno.EHOSTUNREACH: "there is no way to it on the network",
    errno.ENETUNREACH: "there is no way to it on the network",
    errno.EHOSTDOWN: "there is no way to it on the network",
    errno.ENETDOWN: "this machine's network is down",
    errno.EADDRNOTAVAIL: "that address is not one this machine can use",
    errno.EADDRINUSE: "another program uses that port",
}


def os_words(exc: BaseException) -> str:
    """What a failed system call means, in a few words (no error numbers, no English of the
    C library): what a person reads after "cannot read X: "."""
    if isinstance(exc, socket.gaierror):
        return _name_words(exc.errno)
    if isinstance(exc, TimeoutError) and getattr(exc, "errno", None) in (None, 0):
        return "no answer came in time"
    number = getattr(exc, "errno", None)
    if number in _OS:
        return _OS[number]
    if isinstance(number, int) and number in errno.errorcode:
        return f"the system refused it (error {errno.errorcode[number]})"
    return "the system refused it"


def _name_words(number: object) -> str:
    if number == socket.EAI_AGAIN:
        return "no name service answered (is this machine's network up?)"
    if number in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)):
        return "that name is not known to this machine's name service"
    return "that name could not be looked up"


def name_words(exc: socket.gaierror, host: str) -> str:
    """A host name that could not be looked up, in words naming it."""
    if exc.errno == socket.EAI_AGAIN:
        return (f"no name service answered for {host!r} (is this machine's network up?)")
    return f"the name {host!r} is not known to this machine's name service (DNS)"


def text_words(exc: UnicodeError, what: str = "it") -> str:
    """Bytes that are not UTF-8 text (or text UTF-8 cannot carry), in words naming where."""
    if isinstance(exc, UnicodeDecodeError):
        data = exc.object if isinstance(exc.object, bytes | bytearray) else b""
        line = data.count(b"\n", 0, exc.start) + 1
        return (f"{what} is not UTF-8 text (byte {exc.start + 1}, on line {line}, is "
                f"0x{data[exc.start]:02x}): save it as UTF-8")
    return (f"{what} holds a character that is no text (a byte that is not UTF-8, passed "
            "on by the terminal or the environment): type it again in plain letters")


_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)|\(at end of document\)")


def toml_place(exc: ValueError) -> str:
    """Where the TOML reader stopped: "at line 2, column 9" (or "at its end"), from its
    error (whose own words are the reader's, not a person's)."""
    found = _TOML_PLACE.search(str(exc))
    if found is None:
        return "somewhere"
    if found.group(1) is None:
        return "at its end"
    return f"at line {found.group(1)}, column {found.group(2)}"


_DISCONNECT = {
    0: "it closed the connection",
    4: "it closed the connection",
    128: "the connection was lost (the network, or the broker stopped)",
    129: "the broker could not make sense of what this table sent",
    130: "the broker's answer made no sense (is it an MQTT broker?)",
    131: "the broker refused something this table sent",
    135: "the broker no longer lets this user in",
    137: "the broker is too busy",
    139: "the broker is shutting down",
    141: "no word from the broker in time",
    142: "another client connected under this table's name",
    149: "a message was too large for the broker",
    151: "the broker's quota was used up",
    152: "the broker's administrator ended the connection",
    156: "the broker asked to be reached at another address",
    157: "the broker moved to another address",
    159: "this table connected too often",
}
_REFUSED = {
    1: "it does not speak this MQTT version",
    2: "it refused this table's client name",
    3: "it is not taking connections now",
    132: "it does not speak this MQTT version",
    133: "it refused this table's client name",
    136: "it is not taking connections now",
    137: "it is too busy",
    138: "it banned this client",
    149: "a message was too large for it",
    151: "its quota was used up",
    159: "this table connected too often",
}


def reason_words(reason: object) -> str:
    """What the MQTT client's reason for a connection that ended means."""
    value = getattr(reason, "value", reason)
    return _DISCONNECT.get(value, f"the connection ended (MQTT reason {value})") \
        if isinstance(value, int) else "the connection ended"


def refused_words(reason: object) -> str:
    """What the broker's refusal of a connection (other than the user or password) means."""
    value = getattr(reason, "value", reason)
    return _REFUSED.get(value, f"MQTT reason {value}") if isinstance(value, int) \
        else "for no reason it gave"
