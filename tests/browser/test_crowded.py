"""A page refused a place among the live pages (too many are open) says so, and tries again
until it gets one (issue 45: a browser never tries a refused event stream again by itself,
so a page once refused stayed "trying again" for ever, following nothing)."""

from __future__ import annotations

import contextlib
import socket

from tests.support.browser import PHONE
from tests.support.http import request
from tests.support.web import Web

STATUS = "() => document.getElementById('status').textContent"


def _stream(port: int) -> socket.socket:
    """A live page's connection from this machine, once the server took it (200)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=30)
    conn.sendall(request("GET", "/events", port=port, headers={"Connection": "keep-alive"}))
    got = b""
    while b"\r\n\r\n" not in got:
        got += conn.recv(4096)
    assert b" 200 " in got.split(b"\r\n", 1)[0], got[:200]
    return conn


def test_a_page_refused_a_place_tries_again_until_it_gets_one(browser, tmp_path):
    web = Web(tmp_path, args=("--max-connections", "100")).start()  # 50 live pages
    held = [_stream(web.port) for _ in range(50)]  # every place, from the page's own address
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        refused: list[int] = []
        page.on("response", lambda r: refused.append(r.status)
                if r.url.endswith("/events") and r.status == 503 else None)
        page.goto(web.url)
        page.wait_for_function(f"() => /lost its server/.test(({STATUS})())", timeout=30_000)
        assert refused, "the page was not refused: the places were not all taken"
        held.pop().close()  # a place comes free
        page.wait_for_function(f"() => /no table is running/.test(({STATUS})())",
                               timeout=60_000)  # it follows the table (none runs yet)
    finally:
        context.close()
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()
        web.stop()
