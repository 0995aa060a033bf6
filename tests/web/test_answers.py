"""Every answer of ``obelisk web`` carries the page's safety headers, and bad input is answered in
words: tornado's own errors, the hands and the controls included, never a traceback."""

from __future__ import annotations

import urllib.request

import pytest

from tests.support.http import Phone, raw, request
from tests.support.web import PageInProcess, Web

PIN = "1234"


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """``obelisk web`` on a table with a PIN (no table running), its stderr kept."""
    state = tmp_path_factory.mktemp("answers")
    (state / "pin").write_text(PIN + "\n")
    err = state.parent / "web-stderr.txt"
    page = Web(state, stderr=err).start()
    try:
        yield page, err
    finally:
        page.stop()


def _etag(url: str) -> str:
    with urllib.request.urlopen(url + "/static/app.js", timeout=30) as answer:
        return answer.headers["ETag"]


def _safe(headers: dict[str, str], policy: str, what: str) -> None:
    assert headers.get("content-security-policy") == policy, what
    assert headers.get("x-content-type-options") == "nosniff", what
    assert headers.get("x-frame-options") == "DENY", what


@pytest.mark.processes
def test_every_answer_carries_the_same_safety_headers(web):
    page, err = web
    port = page.port
    with urllib.request.urlopen(page.url + "/", timeout=30) as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    phone = Phone(page.url)
    assert phone.enter(PIN)[0] == 200
    cookie = "; ".join(f"{c.name}={c.value}" for c in phone.jar)
    session = {"Cookie": cookie, "X-Obelisk-Token": phone.token}
    asked = {
        "the page": request("GET", "/", port=port),
        "a script": request("GET", "/static/app.js", port=port),
        "a script not changed": request("GET", "/static/app.js", port=port,
                                        headers={"If-None-Match": _etag(page.url)}),
        "nothing there": request("GET", "/nothing", port=port),
        "a file out of the page": request("GET", "/static/../server.py", port=port),
        "the history": request("GET", "/games", port=port),
        "no such game": request("GET", "/games/zzz.json", port=port),
        "no such replay": request("GET", "/games/zzz/replay", port=port),
        "the icon": request("GET", "/favicon.ico", port=port),
        "a post to the history": request("POST", "/games", b"{}", port=port),
        "the session": request("GET", "/session", port=port),
        "a guest's command": request("POST", "/control/status", b"{}", port=port),
        "a command by GET": request("GET", "/control/status", port=port),
        "the hands, a guest": request("GET", "/hands", port=port),
        "the hands, in session": request("GET", "/hands", port=port, headers=session),
        "an act, in session": request("POST", "/hands", b'{"act": "look"}', port=port,
                                      headers=session),
        "an act as a form": request("POST", "/hands", b"act=look", port=port,
                                    headers={"Content-Type": "text/plain", **session}),
        "another site's host": request("GET", "/session", port=port,
                                       headers={"Host": "evil.example"}),
        "a request line tornado cannot read": b"GARBAGE\r\n\r\n",
        "a host that is no name": b"GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
        "a header line without a colon": b"GET / HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n",
        "a body too long": request("POST", "/session", port=port,
                                   headers={"Content-Length": "100000000"}),
        "a body too long, anywhere": request("POST", "/nothing", port=port,
                                             headers={"Content-Length": "100000000"}),
    }
    statuses = {}
    for what, data in asked.items():
        answer = raw(port, data, timeout=10)
        assert answer.status, f"{what}: no answer at all"
        statuses[what] = answer.status
        _safe(answer.headers, policy, what)
        if answer.status >= 400:
            assert answer.body.strip() and b"Traceback" not in answer.body, what
    assert statuses["a script not changed"] == 304 and statuses["the hands, a guest"] == 403
    assert statuses["a request line tornado cannot read"] == 400
    with urllib.request.urlopen(page.url + "/events", timeout=30) as events:
        _safe({k.lower(): v for k, v in events.headers.items()}, policy, "the live events")
    assert "Traceback" not in err.read_text()


def _words(answer, status: int, what: str) -> str:
    assert answer.status == status, (what, answer.status, answer.body[:300])
    words = answer.json()["error"]
    assert isinstance(words, str) and len(words) > 10, what
    return words


NESTED = b"[" * 2000 + b"]" * 2000
"""Deeper than Python 3.11's recursion limit, yet shorter than any endpoint's longest body."""
DEEP = b"[" * 200 + b"]" * 200
"""Deeper than any message, yet within what every Python reads (3.13 reads NESTED too)."""


@pytest.mark.processes
def test_bad_input_to_every_handler_is_answered_in_words(web):
    page, err = web
    port = page.port
    phone = Phone(page.url)
    assert phone.enter(PIN)[0] == 200
    cookie = "; ".join(f"{c.name}={c.value}" for c in phone.jar)
    session = {"Cookie": cookie, "X-Obelisk-Token": phone.token}
    bad = {
        ("/hands", "nested"): b'{"act": "take", "seat": ' + NESTED + b"}",
        ("/hands", "deep"): b'{"act": "take", "seat": ' + DEEP + b"}",
        ("/hands", "an act that is a list"): b'{"act": ["take"], "seat": "A"}',
        ("/hands", "an act that is a number"): b'{"act": 7}',
        ("/hands", "a press that is a list"): b'{"press": ["A"]}',
        ("/hands", "a hold that is no yes or no"): b'{"press": "A", "hold": {"x": 1}}',
        ("/hands", "not an object"): b'["take"]',
        ("/hands", "not JSON"): b"{act: take",
        ("/hands", "not UTF-8"): b'{"act": "\xff\xfe"}',
        ("/control/status", "nested"): b'{"x": ' + NESTED + b"}",
        ("/control/status", "not an object"): b"[1, 2]",
        ("/session", "nested"): b'{"pin": ' + NESTED + b"}",
        ("/session", "deep"): b'{"pin": ' + DEEP + b"}",
        ("/session", "not an object"): b'"1234"',
    }
    for (path, what), body in bad.items():
        answer = raw(port, request("POST", path, body, port=port, headers=session))
        _words(answer, 400, f"{path}: {what}")
    assert "Traceback" not in err.read_text()


def test_a_pin_that_is_not_text_is_a_wrong_pin(tmp_path):
    (tmp_path / "pin").write_text(PIN + "\n")
    # the page's clocks stand still, so the wait a wrong PIN earns is on at the next try
    with PageInProcess(tmp_path, lambda: 1000.0) as page:
        port = page.port
        for n, pin in enumerate((b'"\\ud800"', b'"12\\udfff"', b'["1234"]', b"1234", b"null")):
            source = f"127.0.2.{n + 1}"
            answer = raw(port, request("POST", "/session", b'{"pin": ' + pin + b"}", port=port),
                         source=source)
            assert "not the table's PIN" in _words(answer, 403, pin.decode()), pin
            again = raw(port, request("POST", "/session", f'{{"pin": "{PIN}"}}'.encode(),
                                      port=port), source=source)
            assert again.status == 429, (pin, "the wrong PIN was not counted")
