"""The one local socket server: a path held by a live server is refused, a stale one is
replaced, lines are framed, and a stop leaves no thread and no file behind."""

from __future__ import annotations

import os
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from hardware.local_socket import LocalServer, SocketTaken, listen, read_lines
from tests.support.processes import until

WAIT_S = 20.0


def _echo(conn: socket.socket) -> None:
    for line in read_lines(conn, 16):
        if len(line) > 16:
            conn.sendall(b"too long\n")
            return
        conn.sendall(line.upper())


def _threads(name: str) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(f"{name}-")]


def _ask(path: Path, data: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(WAIT_S)
        conn.connect(str(path))
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: conn.recv(4096), b""))


def test_each_line_is_answered_in_turn_however_it_is_cut_and_a_long_one_ends_it(tmp_path):
    with LocalServer(tmp_path / "echo.sock", _echo, name="echo") as server:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(WAIT_S)
            conn.connect(str(server.path))
            conn.sendall(b"he")
            conn.sendall(b"llo\nwor")
            conn.sendall(b"ld\n")
            with conn.makefile("rb") as lines:
                assert lines.readline() == b"HELLO\n"
                assert lines.readline() == b"WORLD\n"
        assert _ask(server.path, b"x" * 40 + b"\nnever read\n") == b"too long\n"
        assert stat.S_IMODE(os.stat(server.path).st_mode) == 0o660


def test_a_path_a_live_server_holds_is_refused_and_the_live_one_serves_on(tmp_path):
    path = tmp_path / "held.sock"
    with LocalServer(path, _echo, name="first"):
        with pytest.raises(SocketTaken, match=f"another process already serves on {path}"):
            LocalServer(path, _echo, name="second").open()
        assert _ask(path, b"still\n") == b"STILL\n"
    assert not _threads("second")


def test_a_stale_socket_file_of_a_stopped_process_is_replaced(tmp_path):
    path = tmp_path / "stale.sock"
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(path))
    left.close()  # as a killed process leaves it: the file, and nobody listening
    assert path.exists()
    with LocalServer(path, _echo, name="fresh"):
        assert _ask(path, b"new\n") == b"NEW\n"


def test_a_path_that_is_no_socket_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "notes.sock"
    path.write_text("someone's notes")
    with pytest.raises(SocketTaken, match="is there and is not a socket"):
        listen(path, 1)
    assert path.read_text() == "someone's notes"


def test_a_stop_with_a_silent_client_leaves_no_thread_and_no_file(tmp_path):
    path = tmp_path / "quiet.sock"
    server = LocalServer(path, _echo, name="quiet").open()
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.connect(str(path))  # says nothing: its thread waits in a read
    until(lambda: server.clients() == 1, WAIT_S, "the client taken")
    assert _threads("quiet")
    started = time.monotonic()
    server.close()
    assert time.monotonic() - started < 1.0  # woken at once, not after a poll or a timeout
    assert not _threads("quiet") and not path.exists() and server.clients() == 0
    silent.settimeout(WAIT_S)
    assert silent.recv(10) == b""  # the client hears the end
    silent.close()


def test_a_stop_lets_clients_finish_what_they_were_told_within_the_drain(tmp_path):
    release = threading.Event()

    def late(conn: socket.socket) -> None:
        assert release.wait(WAIT_S)
        conn.sendall(b"the end\n")

    server = LocalServer(tmp_path / "late.sock", late, name="late").open()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(WAIT_S)
        conn.connect(str(server.path))
        until(lambda: server.clients() == 1, WAIT_S, "the client taken")
        threading.Timer(0.1, release.set).start()
        server.close(drain_s=WAIT_S)
        assert conn.recv(100) == b"the end\n"
    assert not _threads("late")


def test_a_stop_leaves_the_socket_file_another_server_made_since(tmp_path):
    path = tmp_path / "shared.sock"
    old = LocalServer(path, _echo, name="old").open()
    path.unlink()  # its file removed by hand, and another server there now
    with LocalServer(path, _echo, name="new"):
        old.close()
        assert _ask(path, b"mine\n") == b"MINE\n"
