"""A Raspberry Pi with the table installed but nothing wired up yet: no GPIO chip the
buttons can claim, no LED device, no scanner board. The service still starts, tells
systemd it is ready, and says in its log and on the page what is missing and what to do.

The machine is made to look like a Pi 4 by pointing ``hardware.pi_models.MODEL_FILE`` at
a device-tree model string, in the service's own process (nothing else is faked: the real
reference profile, lgpio and Blinka as this machine has them, no scanner on USB).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.service.stream import StreamError, read_events
from tests.support.browser import PHONE, chromium
from tests.support.processes import on_a_pi, until
from tests.support.web import Web

# On a real Pi the table may well be wired up (or its service holds the pins): what an
# unwired one does is shown here on any other machine.
pytestmark = [pytest.mark.processes,
              pytest.mark.skipif(on_a_pi(), reason="this machine is a real Raspberry Pi, maybe "
                                 "wired up; the unwired Pi is played on other machines")]

AS_A_PI = ("import pathlib, sys\n"
           "import hardware.pi_models as pi\n"
           "pi.MODEL_FILE = pathlib.Path(sys.argv[1])\n"
           "from firmware.cli import main\n"
           "sys.exit(main(sys.argv[2:]))\n")


@pytest.fixture
def unwired(tmp_path):
    """``obelisk run --profile reference`` as systemd starts it, on a Pi 4 with nothing
    wired; yields (process, state directory, what systemd heard)."""
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\0")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(60)
    state = tmp_path / "state"
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "4000000"}
    service = subprocess.Popen(
        [sys.executable, "-c", AS_A_PI, str(model), "run", "--profile", "reference",
         "--state-dir", str(state)], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        heard = notify.recv(100).decode()
        yield service, state, heard
    finally:
        if service.poll() is None:
            service.send_signal(signal.SIGTERM)
            try:
                service.wait(20)
            except subprocess.TimeoutExpired:
                service.kill()
        notify.close()


def _missing(state: Path, want: set[str], timeout: float = 30) -> dict[str, str]:
    """What the table's stream says is missing, once it names every device in ``want``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            for event in read_events(state, timeout=timeout):
                if event["event"] == "devices":
                    said = {m["device"]: m["words"] for m in event["missing"]}
                    if want <= said.keys():
                        return said
        except (StreamError, OSError):
            time.sleep(0.05)  # the stream is not open yet, or the table restarted it
    raise AssertionError(f"the stream never named {sorted(want)} as missing")


def test_a_pi_not_wired_up_yet_is_ready_and_says_what_is_missing(unwired):
    service, state, heard = unwired
    assert heard == "READY=1", service.stderr.read() if service.poll() is not None else heard
    said = _missing(state, {"buttons", "LEDs", "scanner board"})
    assert "./setup.sh" in said["buttons"] or "gpio" in said["buttons"], said["buttons"]
    assert "LEDs on D10 cannot start" in said["LEDs"]
    assert any(fix in said["LEDs"] for fix in ("./setup.sh", "reboot", "wiring")), said["LEDs"]
    assert "/dev/serial/by-id/usb-Raspberry_Pi_Pico_obelisk-if02" in said["scanner board"]
    assert "(no such port: the board is not plugged in, or the profile names another port); " \
        "check the USB cable" in said["scanner board"]
    assert "Errno" not in said["scanner board"]
    service.send_signal(signal.SIGTERM)
    assert service.wait(20) == 0  # a clean stop: systemd would not restart it
    log = service.stderr.read()
    assert "Traceback" not in log
    for device in ("buttons", "LEDs", "scanner board"):
        assert f"the table cannot use its {device}" in log or f"its {device}:" in log, log


def test_the_page_shows_what_the_table_is_missing(unwired):
    _, state, heard = unwired
    assert heard == "READY=1"
    _missing(state, {"buttons", "LEDs", "scanner board"})
    executable = chromium()  # first: it skips where Playwright is missing (a Pi)
    from playwright.sync_api import sync_playwright

    web = Web(state).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable)
            page = browser.new_page(viewport=PHONE)
            page.goto(web.url + "/")
            until(lambda: page.locator("#devices").is_visible(), 20, "the devices banner")
            items = page.locator("#devices-list li").all_inner_texts()
            browser.close()
    finally:
        web.stop()
    devices = sorted(item.split(":")[0] for item in items)
    assert devices == ["LEDs", "buttons", "scanner board"], items
    assert any("USB cable" in item for item in items)
