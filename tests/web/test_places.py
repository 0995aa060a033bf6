"""Fair places: a guest with a few addresses cannot hold every live page's place, nor every
connection, and a phone signed in with the PIN always gets a live page.

Issue 45: 25 live pages from each of two addresses took the 50 places of ``obelisk web
--max-connections 100``, and a player's page got "too many pages are open" for as long as
the guest liked (busy streams never gave way).
"""

from __future__ import annotations

import contextlib
import socket

import pytest

from firmware.readers.web.fair import Holding, address_range, giver, longest_of_biggest
from firmware.readers.web.places import Places
from tests.support.http import Phone, raw, request
from tests.support.processes import until
from tests.support.web import Web


def test_addresses_are_counted_by_range():
    assert address_range("192.168.1.23") == address_range("192.168.1.200") == "192.168.1.0/24"
    assert address_range("::ffff:192.168.1.5") == "192.168.1.0/24"
    assert address_range("2001:db8:1:2:aaaa::1") == address_range("2001:db8:1:2:ffff::9")
    assert address_range("2001:db8:1:2::1") != address_range("2001:db8:1:3::1")
    assert address_range("?") == "?"


def _fill(places: Places, addresses: dict[str, int]) -> list[Holding]:
    held = []
    for address, count in addresses.items():
        for _ in range(count):
            got, gave = places.take(address, signed_in=False, item=address)
            assert got is not None and gave is None
            held.append(got)
    return held


def _clock():
    ticks = iter(range(10 ** 6))
    return lambda: float(next(ticks))


def test_a_few_addresses_never_hold_every_place():
    for most, guests in ((50, {"10.0.0.1": 25, "10.0.0.2": 25}),  # --max-connections 100
                         (500, {f"10.0.0.{n}": 50 for n in range(1, 11)})):  # the defaults
        places = Places(most, clock=_clock())
        held = _fill(places, guests)
        assert places.take("10.0.0.1", signed_in=False, item="guest")[0] is None
        got, gave = places.take("10.0.9.1", signed_in=False, item="player")  # another network
        assert got is not None and gave is held[0]  # the biggest holder's longest-held
        got, gave = places.take("10.0.0.77", signed_in=False, item="player")  # the same one
        assert got is not None and gave is not None and gave.address in guests
        assert places.take("10.0.0.1", signed_in=False, item="guest again")[0] is None
        assert places.count == most


def test_guests_that_hold_as_much_as_anyone_take_nothing_from_each_other():
    places = Places(4, clock=_clock())
    _fill(places, {"10.0.0.1": 2, "10.0.1.1": 2})
    assert places.take("10.0.0.1", False, "a")[0] is None
    assert places.take("10.0.1.2", False, "b")[0] is not None  # its range's other address
    assert places.take("10.0.1.1", False, "c")[0] is None  # (back: holds as much as anyone)
    assert places.take("10.0.1.3", False, "d")[0] is None  # its range holds the most


def test_one_ipv6_phone_with_many_addresses_is_one_range():
    places = Places(10, clock=_clock())
    _fill(places, {f"2001:db8::{n:x}": 1 for n in range(1, 11)})
    got, gave = places.take("2001:db8:0:1::5", signed_in=False, item="player")
    assert got is not None and gave is not None and gave.address == "2001:db8::1"


def test_a_page_signed_in_with_the_pin_always_gets_a_place_while_a_guest_holds_one():
    places = Places(3, clock=_clock())
    _fill(places, {"10.0.0.1": 1, "10.0.1.1": 1, "10.0.2.1": 1})  # as fair as can be
    assert places.take("10.0.3.1", signed_in=False, item="guest")[0] is None
    for n in range(3):
        got, gave = places.take(f"10.0.0.{50 + n}", signed_in=True, item="player")
        assert got is not None and gave is not None
    assert places.take("10.0.0.60", signed_in=True, item="player")[0] is None  # none left
    place = next(h for h in places.players)
    places.leave(place)
    places.leave(place)  # (twice: nothing more)
    assert places.count == 2


def test_the_longest_held_of_the_biggest_gives_way_first():
    held = [Holding("10.0.0.1", 5.0), Holding("10.0.0.1", 1.0), Holding("10.0.0.2", 0.0),
            Holding("10.0.1.1", 2.0)]
    assert longest_of_biggest(held) is held[1]
    assert giver(held, "10.0.1.1") is held[1]  # the range of 1 place against 3
    assert giver(held, "10.0.0.3") is held[1]  # within the range: its biggest address
    assert giver(held, "10.0.0.2") is None  # 2 against 2: as much as anyone
    assert longest_of_biggest([]) is None and giver([], "10.0.0.1") is None


# ---------------------------------------------------------------- obelisk web itself


def _stream(port: int, source: str, headers: dict | None = None) -> tuple[socket.socket, int]:
    """A live page from ``source``: its connection and its status (200: it follows)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    conn.sendall(request("GET", "/events", port=port,
                         headers={"Connection": "keep-alive", **(headers or {})}))
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = conn.recv(4096)
        if not chunk:
            return conn, 0
        got += chunk
    return conn, int(got.split(b" ", 2)[1])


SAID: dict[socket.socket, bytes] = {}


def _ended(conn: socket.socket) -> bytes | None:
    """What a page's stream said once the server ended it (None: it goes on)."""
    conn.settimeout(0.05)
    with contextlib.suppress(TimeoutError, OSError):
        while chunk := conn.recv(65536):
            SAID[conn] = SAID.get(conn, b"") + chunk
    said = SAID.get(conn, b"")
    return said if said.endswith(b"\r\n0\r\n\r\n") else None  # its last chunk


@pytest.mark.processes
def test_a_guest_with_two_addresses_leaves_room_for_the_players_pages(tmp_path):
    (tmp_path / "pin").write_text("1234\n")
    web = Web(tmp_path, args=("--max-connections", "100")).start()  # 50 live pages
    guest: list[socket.socket] = []
    try:
        for n in range(50):
            conn, status = _stream(web.port, f"127.0.30.{1 + n % 2}")
            guest.append(conn)
            assert status == 200, n
        conn, status = _stream(web.port, "127.0.30.1")
        guest.append(conn)
        assert status == 503  # one more for the guest: none
        for player in ("127.0.31.1", "127.0.30.9"):  # another network, and the guest's own
            conn, status = _stream(web.port, player)
            guest.append(conn)
            assert status == 200, f"the player's page at {player} was refused"
        for gave in guest[:2]:  # the longest-held of each address (each held the most)
            said = until(lambda gave=gave: _ended(gave), 20, "a guest's page to give way")
            assert b"gave its place" in said, said[-300:]
        assert _ended(guest[2]) is None and _ended(guest[3]) is None  # the others stay
        phone = Phone(web.url)
        assert phone.enter("1234")[0] == 200
        cookie = "; ".join(f"{c.name}={c.value}" for c in phone.jar)
        for n in range(3):  # the people at the table, signed in: each gets a place
            conn, status = _stream(web.port, "127.0.30.1", headers={"Cookie": cookie})
            guest.append(conn)
            assert status == 200, n
        answer = raw(web.port, request("GET", "/events", port=web.port), source="127.0.30.2")
        assert answer.status == 503 and b"too many" in answer.body
    finally:
        for conn in guest:
            conn.close()
        web.stop()


@pytest.mark.processes
def test_a_guest_holding_every_connection_busy_leaves_room_for_a_player(tmp_path):
    """Busy connections (a body sent slowly) from two addresses take every connection; a
    player's connection from another address still gets in and is answered."""
    web = Web(tmp_path, args=("--max-connections", "40", "--idle-timeout", "60")).start()
    held: list[socket.socket] = []
    try:
        head = request("POST", "/session", port=web.port,
                       headers={"Content-Length": "4000", "Expect": "100-continue"})
        for n in range(40):  # each sends its headers, then waits: its request under way
            conn = socket.create_connection(("127.0.0.1", web.port), timeout=30,
                                            source_address=(f"127.0.40.{1 + n % 2}", 0))
            conn.sendall(head)
            assert conn.recv(100).startswith(b"HTTP/1.1 100"), n  # the server took it
            conn.sendall(b"{")
            held.append(conn)
        answer = raw(web.port, request("GET", "/session", port=web.port), source="127.0.41.1")
        assert answer.status == 200, "a player's connection was refused: all were busy"
    finally:
        for conn in held:
            conn.close()
        web.stop()
