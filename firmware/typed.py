"""The ``obelisk`` command as the person typed it, for the hints a command prints.

The README runs every command as ``.venv/bin/obelisk`` (nothing to activate first); a hint
that said plain ``obelisk`` would fail for a person who followed it. So a hint names the
command as this run was started: the path typed when it was typed with one, else
``obelisk`` (found on the PATH, or run as ``python -m firmware.cli``).
"""

from __future__ import annotations

import os
import sys


def obelisk(argv0: str | None = None) -> str:
    """How to type ``obelisk`` again, from the same directory (``argv0``: sys.argv[0])."""
    typed = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(typed) != "obelisk":
        return "obelisk"  # python -m firmware.cli, or a test's runner
    if not os.path.isabs(typed):
        return typed if os.sep in typed else "obelisk"
    found = os.path.realpath(typed)
    on_path = [os.path.realpath(os.path.join(d, "obelisk"))
               for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    if found in on_path:
        return "obelisk"
    try:  # a path under the directory the person is in reads shorter from there
        inside = os.path.relpath(typed)
    except ValueError:
        return typed
    return inside if not inside.startswith("..") else typed
