"""A listening Unix socket for the table's owner and group: the one way every local socket
opens (the event stream, the command socket, the simulated hands')."""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path


def listen(path: Path, backlog: int) -> socket.socket:
    """Listen on ``path``, readable and writable by its owner and group only (the page runs
    in the table's group). A socket file already there is a stale one of a stopped process
    (the caller holds the state directory's lock): it is replaced. OSError as the kernel
    says it, with nothing left open."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        os.chmod(path, 0o660)
        server.listen(backlog)
    except OSError:
        server.close()
        raise
    return server
