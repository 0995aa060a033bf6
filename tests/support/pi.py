"""A machine made to look like a given Raspberry Pi, or like none, for one test.

The code reads the board's name where ``hardware.pi_models.model_file()`` says, and setup.sh
where ``MODEL_FILE_ENV`` says: pointing that at a file of our own makes this process and every
command it starts see the same machine, so a test of "off a Pi" passes on a real Pi too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.pi_models import MODEL_FILE_ENV


def pretend(monkeypatch: pytest.MonkeyPatch, folder: Path, model: str | None) -> Path:
    """From now until the test ends, the device tree names ``model`` (None: no Pi at all).
    Returns the file standing in for ``/proc/device-tree/model``."""
    path = folder / "device-tree-model"
    if model is None:
        path.unlink(missing_ok=True)
    else:
        path.write_bytes(model.encode() + b"\0")  # as the firmware writes it: NUL-ended
    monkeypatch.setenv(MODEL_FILE_ENV, str(path))
    return path
