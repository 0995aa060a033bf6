"""The page's server for a state directory: ``obelisk web`` on a port of its own, or its
controls served in this process on a clock the test moves."""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from tests.support.patience import longer
from tests.support.processes import OBELISK, free_port, stop


class Web:
    """``obelisk web`` for a state directory, on a port of its own."""

    def __init__(self, state_dir: Path, port: int | None = None, args: tuple[str, ...] = (),
                 stderr: Path | None = None, files: int | None = None) -> None:
        """``args``: more options; ``stderr``: a file that keeps what it prints there;
        ``files``: its file limit (as a unit's ``LimitNOFILE=`` sets it)."""
        self.state_dir = state_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args, self.stderr, self.files = args, stderr, files
        self.process: subprocess.Popen | None = None

    def start(self) -> Web:
        limit = None
        if self.files is not None:
            import resource

            def limit() -> None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

        with open(self.stderr or os.devnull, "ab") as err:
            self.process = subprocess.Popen(
                [OBELISK, "web", "--address", "127.0.0.1", "--port", str(self.port),
                 "--state-dir", str(self.state_dir), *self.args],
                stdout=subprocess.PIPE, stderr=err, text=True, preexec_fn=limit)
        said = self.process.stdout.readline()  # printed once it listens
        assert self.url + "/" in said, f"obelisk web did not start: {said!r}"
        return self

    def stop(self) -> None:
        stop(self.process)


class PageInProcess:
    """The controls' routes (PIN and commands) served in a thread of this process, on a
    clock the test moves: a wrong PIN's wait is then what the test says, however slowly
    the machine answers (an emulated Pi takes seconds between two requests)."""

    def __init__(self, state: Path, clock: Callable[[], float]) -> None:
        import tornado.netutil

        self.state, self.clock = state, clock
        self.sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        self.port = self.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ready = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        import tornado.httpserver
        import tornado.web

        from firmware.readers.web import controls

        server = tornado.httpserver.HTTPServer(
            tornado.web.Application(controls.routes(
                self.state, controls.Sessions(self.state, self.clock, steady=self.clock))))
        server.add_sockets(self.sockets)
        self.loop, self.done = asyncio.get_running_loop(), asyncio.Event()
        self.ready.set()
        await self.done.wait()
        server.stop()

    def __enter__(self) -> PageInProcess:
        self.thread.start()
        assert self.ready.wait(longer(20)), "the page in this process did not start"
        return self

    def __exit__(self, *_: object) -> None:
        self.loop.call_soon_threadsafe(self.done.set)
        self.thread.join(longer(20))
