"""The suite's patience: its waits for what it started, longer on a slow machine.

Under emulation (``tools/pi-root.sh`` runs the README's test command in an arm64 root
through qemu-user) every program runs 20 to 50 times slower than on the machine it
emulates on, and a wait sized for a laptop runs out though nothing is wrong.
``OBELISK_TEST_PATIENCE=N`` multiplies those waits by N: the waits on conditions
(``processes.until``, ``person.Follow.until``), a command's start and end (``play.Play``),
every timeout a test gives a subprocess, and pytest-timeout's limit on a whole test. Unset,
it is 1 and nothing changes; what a check asserts never changes.
"""

from __future__ import annotations

import functools
import os
import subprocess
import threading
from collections.abc import Callable
from typing import Any

ENV = "OBELISK_TEST_PATIENCE"


def factor() -> float:
    """How many times longer the suite waits (1 unless ``OBELISK_TEST_PATIENCE`` says)."""
    words = os.environ.get(ENV, "").strip()
    if not words:
        return 1.0
    try:
        value = float(words)
    except ValueError:
        value = 0.0
    if not 1 <= value <= 1000:
        raise ValueError(f"{ENV}={words!r}: give how many times longer the tests wait, a "
                         "number from 1 to 1000 (10 for an emulated Pi), or unset it")
    return value


def longer(seconds: float) -> float:
    """``seconds`` as long as the suite waits now."""
    return seconds * factor()


_inside = threading.local()  # a wait inside a stretched one (run -> communicate -> wait)


def _stretched(method: Callable[..., Any], at: int | None = None) -> Callable[..., Any]:
    """``method`` with its ``timeout`` (a keyword, or positional argument ``at`` where it
    may be given so) stretched, once however the calls nest."""

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        if getattr(_inside, "depth", 0) == 0:
            if kwargs.get("timeout") is not None:
                kwargs["timeout"] = longer(kwargs["timeout"])
            elif at is not None and len(args) > at and args[at] is not None:
                args = (*args[:at], longer(args[at]), *args[at + 1:])
        _inside.depth = getattr(_inside, "depth", 0) + 1
        try:
            return method(*args, **kwargs)
        finally:
            _inside.depth -= 1

    return call


def install() -> None:
    """Stretch every subprocess timeout of this run, when patience is asked for."""
    if factor() == 1 or getattr(subprocess.Popen.wait, "__wrapped__", None):
        return
    subprocess.run = _stretched(subprocess.run)  # (its timeout is a keyword only)
    subprocess.Popen.wait = _stretched(subprocess.Popen.wait, at=1)  # type: ignore[method-assign]
    subprocess.Popen.communicate = _stretched(  # type: ignore[method-assign]
        subprocess.Popen.communicate, at=2)


def stretch_test_limit(config: Any) -> None:
    """pytest-timeout's limit on a whole test (``--timeout``, or the ini's), as much longer
    as the waits inside it: an emulated run's tests were stopped at 300 s while their own
    waits, stretched, still ran."""
    if factor() == 1:
        return
    given = config.getoption("timeout", None)
    base = given if given is not None else config.getini("timeout")
    if base:
        config.option.timeout = float(base) * factor()
