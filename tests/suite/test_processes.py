"""The suite sees the processes a test starts on a pretend Pi too (``support.processes``).

``tools/pi-root.sh`` runs the suite under qemu-user with the Pi's model file under
QEMU_LD_PREFIX, and qemu looks every path up there first: a listing of /proc found only the
model, so no test saw the children of ``obelisk play`` and the reaper left them running.
Here the same emulation runs this machine's own Python, with a pretend Pi's proc/ of its own.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys

import pytest

from tests.support import ROOT
from tests.support.patience import longer

QEMU = shutil.which("qemu-x86_64-static") or shutil.which("qemu-x86_64")
MODEL = "Raspberry Pi 5 Model B Rev 1.0"

pytestmark = pytest.mark.processes

SEEN = f'''
import os, subprocess, sys
from hardware.pi_models import read_model
from tests.support.processes import children, processes
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
try:
    print(read_model() == {MODEL!r}, child.pid in children(os.getpid()),
          any(p.pid == os.getpid() for p in processes()))
finally:
    child.kill()
    child.wait()
'''


@pytest.mark.skipif(platform.machine() != "x86_64" or QEMU is None,
                    reason="needs qemu-user for x86_64 (Debian's qemu-user-static) to emulate "
                           "the pretend Pi's paths")
def test_the_children_of_a_test_are_seen_under_emulation_with_a_pretend_pi(tmp_path):
    model = tmp_path / "pi-model" / "proc" / "device-tree" / "model"
    model.parent.mkdir(parents=True)
    model.write_bytes(MODEL.encode() + b"\0")
    env = {**os.environ, "QEMU_LD_PREFIX": str(tmp_path / "pi-model")}
    done = subprocess.run([QEMU, sys.executable, "-c", SEEN], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=longer(120))
    assert done.returncode == 0, done.stderr
    model_read, child_seen, self_seen = done.stdout.split()
    assert model_read == "True", "the emulation did not show the pretend Pi's model"
    assert child_seen == "True", "a child of this process was not found in /proc"
    assert self_seen == "True", "this process was not found in /proc"
