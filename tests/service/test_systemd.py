"""The service under systemd: the unit's hardening, readiness and the watchdog."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.pi_models import pi_model, render_unit
from tests.support import ROOT

UNIT = ROOT / "systemd" / "obelisk.service"


def test_the_unit_is_a_watched_notify_service_without_root():
    text = UNIT.read_text("utf-8")
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StateDirectory=obelisk",
                 "NoNewPrivileges=yes", "CapabilityBoundingSet=\n", "User=@USER@"):
        assert line in text, line
    assert "User=root" not in text


def test_the_scanner_boards_serial_driver_is_loaded_before_the_table_starts():
    """DeviceAllow=char-ttyACM holds only if /proc/devices lists ttyACM as the unit starts
    (systemd.resource-control): else the board is refused until the table starts again."""
    unit = UNIT.read_text("utf-8").split("[Service]")[0]
    assert "Wants=modprobe@cdc_acm.service\n" in unit
    after = [line for line in unit.splitlines() if line.startswith("After=")]
    assert any("modprobe@cdc_acm.service" in line.split("=", 1)[1].split() for line in after)


@pytest.mark.processes
@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed on this machine")
@pytest.mark.parametrize("name", ["obelisk.service", "obelisk-web.service",
                                  "obelisk-mqtt.service", "obelisk-remote.service"])
def test_the_unit_scores_2_or_better(tmp_path, name):
    """The table service, and the page's unit (network, no devices)."""
    unit = tmp_path / name
    unit.write_text(render_unit((UNIT.parent / name).read_text("utf-8"), root="/opt/obelisk",
                                user="pi", model=pi_model("Raspberry Pi 5 Model B Rev 1.0")),
                    "utf-8")
    run = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                         capture_output=True, text=True)
    line = next(x for x in run.stdout.splitlines() if "Overall exposure level" in x)
    score = float(line.split(":")[1].split()[0])
    assert score <= 2.0, line


@pytest.mark.processes
@pytest.mark.parametrize(("stop", "status"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_obelisk_run_tells_systemd_it_is_ready_and_pats_the_watchdog(tmp_path, stop, status):
    """Ready, patting the watchdog, and a clean stop: 0 for systemd's, 130 for Ctrl-C."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(20)
    env = {**os.environ, "NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000"}
    obelisk = Path(sys.executable).parent / "obelisk"
    service = subprocess.Popen([str(obelisk), "run", "--profile", "sim", "--state-dir",
                                str(tmp_path / "state")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        messages = [sock.recv(100).decode() for _ in range(3)]
        assert messages[0] == "READY=1"
        assert messages[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
        service.send_signal(stop)
        assert service.wait(timeout=20) == status
        assert sock.recv(100).decode() == "STOPPING=1"
    finally:
        if service.poll() is None:
            service.kill()
        sock.close()
    assert (tmp_path / "state").is_dir()


def test_the_docs_show_the_machine_as_it_is():
    from firmware.towers.table import state_diagram

    page = (ROOT / "docs" / "state-machine.md").read_text("utf-8")
    assert f"```mermaid\n{state_diagram()}```" in page


def test_the_table_keeps_no_network_and_the_page_no_devices():
    table = UNIT.read_text("utf-8")
    page = (UNIT.parent / "obelisk-web.service").read_text("utf-8")
    assert "PrivateNetwork=yes" in table and "RestrictAddressFamilies=AF_UNIX\n" in table
    assert "PrivateDevices=yes" in page and "DeviceAllow" not in page
    assert "PrivateNetwork" not in page and "obelisk web" in page


@pytest.mark.parametrize("name", ["obelisk.service", "obelisk-web.service",
                                  "obelisk-mqtt.service", "obelisk-remote.service"])
def test_each_unit_sets_its_own_file_limit(name):
    """A unit without one runs with whatever the machine gives; the page's bounds its
    connections below its own."""
    text = (UNIT.parent / name).read_text("utf-8")
    limits = [line for line in text.splitlines() if line.startswith("LimitNOFILE=")]
    assert len(limits) == 1 and int(limits[0].split("=")[1]) >= 256, name


def test_the_page_may_write_its_count_of_wrong_pins_and_nothing_else():
    page = (UNIT.parent / "obelisk-web.service").read_text("utf-8")
    assert "StateDirectory=obelisk/web\n" in page and "ProtectSystem=strict" in page
