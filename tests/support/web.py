"""``obelisk web`` for a state directory, on a port of its own."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

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
