"""Start-up: READY=1 as soon as the table can read the board; the page's sockets just after.

The service tells systemd it is ready before it opens the command socket,
makes the PIN and opens the simulated buttons' socket (those come in the
loop's first turn). A command sent in between gets a clear answer: the
table is starting.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from firmware.run import run_service
from firmware.service import command_socket, notify, pin
from firmware.service.command_socket import ControlUnavailable, send
from firmware.sim import fingers

WAIT_S = 30.0


def _until(check, seconds: float = WAIT_S):
    deadline = time.monotonic() + seconds
    while not (got := check()):
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.02)
    return got


def test_ready_comes_before_the_pages_sockets_and_a_command_meanwhile_hears_it_is_starting(
        tmp_path, monkeypatch):
    state = tmp_path / "state"
    at_ready: dict = {}
    after: dict = {}

    def tell(message: str) -> bool:
        if message == "READY=1":
            at_ready["files"] = {name: (state / name).exists()
                                 for name in (command_socket.SOCKET, fingers.SOCKET, pin.PIN_FILE)}
            try:
                send(state, {"command": "status"}, timeout=5)
            except ControlUnavailable as exc:
                at_ready["answer"] = str(exc)
            threading.Thread(target=then_stop, daemon=True).start()
        return True

    def then_stop() -> None:
        try:
            _until(lambda: (state / command_socket.SOCKET).exists())
            after["status"] = send(state, {"command": "status"})
            after["files"] = {name: (state / name).exists()
                              for name in (fingers.SOCKET, pin.PIN_FILE)}
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # the service's own stop, as systemd's

    monkeypatch.setattr(notify, "sd_notify", tell)
    old = signal.getsignal(signal.SIGTERM)
    try:
        assert run_service("sim", str(state)) == 0
    finally:
        signal.signal(signal.SIGTERM, old)
    assert at_ready["files"] == {command_socket.SOCKET: False, fingers.SOCKET: False,
                                 pin.PIN_FILE: False}
    assert at_ready["answer"] == ("the table is starting and opens its commands in a moment: "
                                  "try again")
    assert after["status"]["ok"] is True and after["status"]["state"] == "setup"
    assert after["files"] == {fingers.SOCKET: True, pin.PIN_FILE: True}
    assert not (state / command_socket.SOCKET).exists()  # closed with the service


@pytest.mark.processes
def test_no_service_running_is_told_apart_from_one_starting(tmp_path):
    with pytest.raises(ControlUnavailable, match="no table is running"):
        send(tmp_path, {"command": "status"})
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (tmp_path / "lock").write_text(f"process {gone} (obelisk run --state-dir x)\n")
    with pytest.raises(ControlUnavailable, match="no table is running"):  # that one stopped
        send(tmp_path, {"command": "status"})
    (tmp_path / "lock").write_text(f"process {os.getpid()} (obelisk demo towers)\n")
    with pytest.raises(ControlUnavailable, match="no table is running"):  # a demo's lock
        send(tmp_path, {"command": "status"})
    (tmp_path / "lock").write_text(f"process {os.getpid()} (obelisk run)\n")
    with pytest.raises(ControlUnavailable, match="the table is starting"):
        send(tmp_path, {"command": "status"})


@pytest.mark.parametrize("argv", [
    ["run"],
    ["run", "--profile", "sim", "--state-dir", "/tmp/x", "--game", "stones", "--size", "5x5"],
    ["run", "--game", "towers", "--hourglass", "90", "--solo", "B", "--level", "3",
     "--new-game"],
])
def test_obelisk_run_reads_its_arguments_as_the_whole_parser_does(argv, capsys):
    from firmware.cli_parser import build_parser, parser_for

    assert vars(parser_for(argv).parse_args(argv)) == vars(build_parser().parse_args(argv))
    for parser in (parser_for(argv), build_parser()):
        with pytest.raises(SystemExit):
            parser.parse_args(["run", "--help"])
    whole_help, run_help = capsys.readouterr().out.split("usage: ")[1:][::-1]
    assert run_help == whole_help
