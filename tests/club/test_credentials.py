"""A broker that asks for a user and password: the club page reads it, a bad password file
is said in words."""

from __future__ import annotations

import json
import subprocess
import urllib.request

import pytest

from firmware.readers.club.config import ClubError, config_from
from tests.support.broker import Mosquitto
from tests.support.club import ended, games_listed, run_demo, start_publisher
from tests.support.processes import OBELISK, free_port, until


@pytest.mark.processes
def test_the_club_page_reads_a_broker_that_asks_for_a_password(tmp_path):
    broker = Mosquitto(tmp_path / "broker", users={"north": "table-pw", "club": "page-pw"})
    broker.start()
    state = tmp_path / "table"
    state.mkdir()
    (tmp_path / "table-secret").write_text("table-pw\n")
    (tmp_path / "club-secret").write_text("page-pw\n")
    port = free_port()
    club = subprocess.Popen([OBELISK, "club", "--broker", broker.url, "--address", "127.0.0.1",
                             "--port", str(port), "--user", "club", "--password-file",
                             str(tmp_path / "club-secret")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    publisher = start_publisher(state, broker, "north", 'user = "north"',
                       f'password_file = "{tmp_path / "table-secret"}"')
    try:
        assert club.stdout.readline().startswith("obelisk club: open http://127.0.0.1:")
        run_demo(state)
        [game_id] = games_listed(state)

        def listed():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/results", timeout=10) as got:
                return json.loads(got.read())["results"]

        [result] = until(listed, 30, "the result on the club's page")
        assert (result["table"], result["table_game_id"]) == ("north", game_id)
    finally:
        ended(publisher)
        ended(club)
        broker.stop()
    assert "refused" not in club.stderr.read()


@pytest.mark.processes
@pytest.mark.parametrize(("secret", "words"), [
    (None, "cannot be read (it does not exist): give the file holding the password"),
    ("dir", "is not read (it is a directory, not a regular file)"),
    (b"\xff\xfe\x00", "is not text"),
    (b"\n", "is empty: give the file holding the password"),
])
def test_a_bad_club_password_file_is_said_in_words(tmp_path, secret, words):
    where = tmp_path / "secret"
    if secret == "dir":
        where.mkdir()
    elif secret is not None:
        where.write_bytes(secret)
    run = subprocess.run([OBELISK, "club", "--broker", "mqtt://127.0.0.1:1", "--user", "club",
                          "--password-file", str(where), "--port", "0"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert f"obelisk: --password-file {where} " in run.stderr and words in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_table_password_file_that_is_not_text_is_refused_by_key(tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ClubError, match=r"password_file = .* is not text"):
        config_from({"broker": "mqtt://h", "table": "t", "user": "u",
                     "password_file": str(secret)}, "mqtt.toml")
