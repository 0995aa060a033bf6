"""`obelisk web`: the page and its live events, served from a running table's stream."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

OBELISK = str(Path(sys.executable).parent / "obelisk")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _web(state: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    web = subprocess.Popen([OBELISK, "web", "--address", "127.0.0.1", "--port", str(port),
                            "--state-dir", str(state)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    said = web.stdout.readline()  # printed once it listens
    assert f"http://127.0.0.1:{port}/" in said, (said, web.stderr.read() if web.poll() else "")
    return web, f"http://127.0.0.1:{port}"


def _events(url: str, count: int) -> list[dict]:
    """The first ``count`` Server-Sent Events of /events, as the page's EventSource reads."""
    got = []
    with urllib.request.urlopen(url + "/events", timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        for raw in stream:
            line = raw.decode()
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
                if len(got) == count:
                    break
    return got


def test_the_page_shows_a_running_demo_live(tmp_path):
    demo = subprocess.Popen([OBELISK, "demo", "stones", "--speed", "5", "--json",
                             "--state-dir", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    web = None
    try:
        for line in demo.stdout:
            if '"accepted"' in line:
                break
        web, url = _web(tmp_path)
        page = urllib.request.urlopen(url + "/", timeout=30).read().decode()
        assert "<title>Obelisk Table</title>" in page and "/static/app.js" in page
        script = urllib.request.urlopen(url + "/static/app.js", timeout=30).read().decode()
        assert 'new EventSource("/events")' in script
        first, *later = _events(url, 3)
        assert first["event"] == "table" and first["game"] == "stones"
        assert "a   b   c   d" in first["board"]            # the board, as text
        assert all(e["words"] for e in later)             # every event in words
    finally:
        demo.kill()
        demo.wait(10)
        if web is not None:
            web.kill()
            web.wait(10)


def test_with_no_table_the_page_says_so_and_waits(tmp_path):
    web, url = _web(tmp_path)
    try:
        (absent,) = _events(url, 1)
    finally:
        web.kill()
        web.wait(10)
    assert absent["event"] == "absent" and "no table is running on" in absent["words"]


def test_a_port_in_use_is_said_with_the_fix(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([OBELISK, "web", "--address", "127.0.0.1", "--port", str(port),
                              "--state-dir", str(tmp_path)], capture_output=True, text=True,
                             timeout=30)
    assert run.returncode == 2 and "choose another with --port" in run.stderr
    assert "Traceback" not in run.stderr


def test_only_the_page_is_served_with_safe_headers(tmp_path):
    import urllib.error

    web, url = _web(tmp_path)
    try:
        page = urllib.request.urlopen(url + "/", timeout=30)
        policy = page.headers["Content-Security-Policy"]
        for sneaky in ("/static/../server.py", "/static/%2e%2e/server.py",
                       "/static/..%2f..%2f..%2fpyproject.toml", "/../../etc/passwd"):
            try:
                answer = urllib.request.urlopen(url + sneaky, timeout=30)
                status, body = answer.status, answer.read()
            except urllib.error.HTTPError as exc:
                status, body = exc.code, b""
            assert 400 <= status < 500 and b"import" not in body, (sneaky, status)
    finally:
        web.kill()
        web.wait(10)
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
