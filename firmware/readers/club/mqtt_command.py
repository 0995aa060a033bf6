"""``obelisk mqtt`` as a process: one ``Publisher`` for the table, until SIGTERM or Ctrl-C.

Only one publisher may follow a table (a lock in ``<state dir>/mqtt``). A
thread of the publisher that dies ends the process (status 1, one log line)
so that systemd starts it again, and systemd's watchdog is told all is well
only while every part goes round.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from engine.core import counted
from firmware.readers.club.config import ClubConfig, ClubError
from firmware.readers.club.publisher import BEAT_S, Publisher
from firmware.readers.club.safe import CleanFormatter, clean
from firmware.store.state_dir import disk_advice

log = logging.getLogger("obelisk.mqtt")


def lock_home(home: Path, command: str = "obelisk mqtt", unit: str = "obelisk-mqtt") -> int:
    """One ``command`` per table: an flock on ``<home>/lock`` (the kernel drops it on exit)."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        fd = os.open(home / "lock", os.O_RDWR | os.O_CREAT, 0o640)
    except OSError as exc:
        raise ClubError(f"cannot use {home}: {disk_advice(exc, home / 'lock')}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ClubError(f"another {command} already runs for this table ({home} is in use): "
                        f"stop it first (on the Pi: sudo systemctl stop {unit})") from None
    return fd


def run(state_dir: str | Path, config: ClubConfig,
        ready: Callable[[Publisher], None] | None = None) -> int:
    """Publish the table on ``state_dir`` until SIGTERM or Ctrl-C: 0 then; 1 if one of its
    threads died (systemd starts it again)."""
    from firmware.readers.web.follow import Follower
    from firmware.service.notify import sd_notify, watchdog_period_s

    handler = logging.StreamHandler()
    handler.setFormatter(CleanFormatter("obelisk mqtt: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("obelisk.web").setLevel(logging.WARNING)
    state_dir = Path(state_dir)
    lock = lock_home(state_dir / "mqtt")
    publisher = Publisher(config, state_dir)
    status = 0
    hook = threading.excepthook

    async def main() -> None:
        nonlocal status
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)

        def fail(words: str) -> None:
            nonlocal status
            if status == 0:
                status = 1
                log.error("%s: the publisher exits (status 1) so that systemd starts it again",
                          words)
            stop.set()

        def died(args: threading.ExceptHookArgs) -> None:
            name = args.thread.name if args.thread is not None else "?"
            words = (f"the publisher's thread {name} stopped ({args.exc_type.__name__}: "
                     f"{clean(args.exc_value, 200)})")
            loop.call_soon_threadsafe(fail, words)

        threading.excepthook = died
        follower = Follower(state_dir)
        follower.listeners.append(publisher.take)
        publisher.start()
        follower.start()
        sd_notify("READY=1")
        if ready is not None:
            ready(publisher)
        watch = loop.create_task(_watch(publisher, follower, fail, sd_notify,
                                        watchdog_period_s()))
        await stop.wait()
        watch.cancel()

    try:
        asyncio.run(main())
    finally:
        threading.excepthook = hook
        sd_notify("STOPPING=1")
        publisher.stop()
        os.close(lock)
    log.info("stopped after %s this run (numbered 1 to %d); %s in the outbox for next "
             "time", counted(publisher.count, "event"), publisher.count,
             counted(len(publisher.outbox), "message"))
    return status


async def _watch(publisher: Publisher, follower, fail: Callable[[str], None],
                 notify: Callable[[str], bool], period: float | None) -> None:
    """Feed systemd's watchdog while every part works; say once what does not."""
    said = None
    while True:
        task = getattr(follower, "_task", None)
        if task is not None and task.done():
            why = task.exception() if not task.cancelled() else "cancelled"
            fail(f"the reader of the table's events stopped ({clean(why, 200)})")
            return
        dead = publisher.dead()
        if dead is not None:  # the thread's own hook may have said why already
            await asyncio.sleep(0)
            fail(dead)
            return
        trouble = publisher.stuck()
        if trouble is None:
            said = None
            if period is not None:
                notify("WATCHDOG=1")
        elif trouble != said:
            said = trouble
            then = ("systemd's watchdog is no longer told all is well, and restarts the "
                    "publisher" if period is not None else
                    "restart the publisher (sudo systemctl restart obelisk-mqtt)")
            log.error("%s: %s", trouble, then)
        await asyncio.sleep(period if period is not None else BEAT_S)
