"""Telling systemd how the service stands: ready, alive (the watchdog's pat), stopping.

``obelisk run`` and ``obelisk mqtt`` are ``Type=notify`` units with a watchdog: each says
READY=1 once it can do its work and pats the watchdog at half the interval systemd asked
for, so a process that hangs is started again. Outside systemd nothing is sent.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger("firmware.service.loop")  # the loop's log, as ever


def sd_notify(message: str) -> bool:
    """Tell systemd something (READY=1, WATCHDOG=1); False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(message.encode(), address)
        return True
    except OSError as exc:
        log.warning("could not notify systemd: %s", exc)
        return False


def watchdog_period_s() -> float | None:
    """Half the watchdog interval systemd asked for, or None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    return int(usec) / 2_000_000 if usec and usec.isdigit() else None
