"""mqtts with a club's own certificate authority: the table publishes trusting it, and the
club page reads through it; a wrong CA, or a CA file that is no certificate or meets a
plain broker, is named with the fix while the table plays on.

Every broker is a real mosquitto (``tests/support/broker.py``); the certificates are made in
the test with the ``openssl`` command.
"""

from __future__ import annotations

import json
import subprocess
import urllib.request

import pytest

from tests.support.broker import Heard, make_ca
from tests.support.club import ended, games_listed, run_demo, start_publisher
from tests.support.processes import OBELISK, free_port, until

# ---------------------------------------------------------------------- mqtts


@pytest.mark.processes
def test_a_table_publishes_over_mqtts_trusting_the_clubs_own_ca(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    heard = Heard(tls_broker)
    publisher = start_publisher(state, tls_broker, "secure", ca_file=str(tls_broker.tls.ca))
    try:
        until(lambda: "online" in heard.on("obelisk/secure/status"), 30, "online over TLS")
        run_demo(state)
        [game_id] = games_listed(state)
        until(lambda: heard.result("secure", game_id), 30, "the result")
    finally:
        assert ended(publisher) == 0
        heard.close()
    assert heard.on("obelisk/secure/status")[-1] == "offline"
    assert "Traceback" not in (state / "publisher.log").read_text()


@pytest.mark.processes
def test_a_wrong_ca_is_named_with_the_fix_and_the_table_plays_on(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    stranger, _ = make_ca(tmp_path / "other-ca", "Another CA")
    publisher = start_publisher(state, tls_broker, "doubt", ca_file=str(stranger))
    log = state / "publisher.log"
    try:
        until(lambda: "vouched for" in log.read_text(), 30, "the CA trouble in the log")
        demo = run_demo(state)  # the table does not wait for its publisher
        assert demo.lines[-1]["event"] == "game_over"
        assert publisher.poll() is None  # still there, trying again
    finally:
        ended(publisher)
    text = log.read_text()
    line = next(line for line in text.splitlines() if "vouched for" in line)
    assert f"not vouched for by '{stranger}'" in line
    assert f"set ca_file in {state / 'mqtt.toml'}" in line
    assert "the table plays on" in line
    assert text.count("vouched for") == 1  # said once, not at every retry
    assert "Traceback" not in text


@pytest.mark.processes
def test_a_ca_file_that_is_no_certificate_is_refused_at_start(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    wrong = tmp_path / "notes.txt"
    wrong.write_text("the club's wifi password is on the fridge\n")
    (state / "mqtt.toml").write_text(f'broker = "{tls_broker.url}"\ntable = "t1"\n'
                                     f'ca_file = "{wrong}"\n')
    run = subprocess.run([OBELISK, "mqtt", "--state-dir", str(state)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert f"ca_file = '{wrong}' holds no certificate" in run.stderr
    assert "Traceback" not in run.stderr






@pytest.mark.processes
def test_the_club_page_reads_an_mqtts_broker_with_the_clubs_ca(tmp_path, tls_broker):
    state = tmp_path / "table"
    state.mkdir()
    port = free_port()
    ca = str(tls_broker.tls.ca)
    club = subprocess.Popen([OBELISK, "club", "--broker", tls_broker.url, "--address",
                             "127.0.0.1", "--port", str(port), "--ca-file", ca],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    publisher = start_publisher(state, tls_broker, "south", ca_file=ca)
    try:
        assert club.stdout.readline().startswith("obelisk club: open http://127.0.0.1:")
        run_demo(state)
        [game_id] = games_listed(state)

        def listed():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/results", timeout=10) as got:
                return json.loads(got.read())["results"]

        [result] = until(listed, 30, "the result on the club's page")
        assert (result["table"], result["table_game_id"]) == ("south", game_id)
    finally:
        ended(publisher)
        ended(club)
    assert "Traceback" not in club.stderr.read()


@pytest.mark.processes
def test_the_club_page_names_a_wrong_ca(tmp_path, tls_broker):
    stranger, _ = make_ca(tmp_path / "other-ca", "Another CA")
    club = subprocess.Popen([OBELISK, "club", "--broker", tls_broker.url, "--address",
                             "127.0.0.1", "--port", "0", "--ca-file", str(stranger)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = club.stderr.readline()
    finally:
        ended(club)
    assert f"not vouched for by '{stranger}'" in line and "set --ca-file to" in line, line


@pytest.mark.processes
def test_a_club_ca_file_for_a_plain_broker_is_refused():
    run = subprocess.run([OBELISK, "club", "--broker", "mqtt://127.0.0.1:1", "--ca-file",
                          "/etc/hostname", "--port", "0"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2 and "--ca-file is for mqtts:// brokers" in run.stderr
