"""The ``obelisk`` command: one entry point for everything a person runs.

Errors meant for people (a bad file, a busy state directory, a full disk, a
journal that belongs to another game) end with one ``obelisk: ...`` line and
exit status 2, which the systemd unit does not restart on: a person has to
act. Ctrl-C ends any command quietly with status 130, and a reader that goes
away (``obelisk diag | head``) ends it quietly too. No traceback reaches a
person.
"""

from __future__ import annotations

import os
import signal
import sys

# When this module is the program (``obelisk``, ``python -m firmware.cli``), Ctrl-C or a stop
# ends it at once and quietly until main() takes over, even during the imports below:
# nothing is open yet (an exception raised here could be swallowed by the import machinery
# and leave the command running). Imported by other code, it leaves that code's signals be.
if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "obelisk":
    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

import argparse
from collections.abc import Sequence

from engine.errors import ObeliskError
from firmware.cli_commands import EXIT_PERSON
from firmware.cli_parser import parser_for
from firmware.service.stream import StreamError
from firmware.store.state_dir import StateDirError
from hardware.leds import LedError
from hardware.profile import ProfileError


def _quiet_stdout() -> None:
    """Our reader has gone: let the interpreter's last flush go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``obelisk`` command; errors meant for people end with exit status 2."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        args = parser_for(argv).parse_args(argv)
        return args.run(args)
    except (ObeliskError, ProfileError, LedError, StateDirError, StreamError,
            argparse.ArgumentTypeError) as exc:  # StreamError: the page's too (a port taken)
        print(f"obelisk: {exc}", file=sys.stderr)
        return EXIT_PERSON
    except KeyboardInterrupt:
        print("obelisk: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


if __name__ == "__main__":
    sys.exit(main())
