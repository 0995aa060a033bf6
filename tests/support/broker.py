"""A real mosquitto for the club's tests, and a subscriber that keeps what it hears.

The broker runs on a free port of 127.0.0.1 with a configuration in a
temporary directory (persistence on, so a broker stopped and started again
keeps the retained messages and the sessions, as a club's would). A missing
mosquitto fails the test loudly: ``setup.sh`` installs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from tests.support.processes import free_port, until

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


class Silent:
    """A "broker" that takes every connection and never answers: a plain TCP server on a
    port of 127.0.0.1 the system chose, which reads what comes and says nothing (a hung
    broker, a firewall that accepts and drops, a service that is no MQTT broker).

    ``accepted`` counts the connections taken: a client that gives one up and tries
    again makes it grow. ``close`` stops it and drops what it holds."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.accepted = 0
        self._held: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, name="silent-broker", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        with contextlib.suppress(OSError):  # closed: the end
            while True:
                conn, _ = self.server.accept()
                with self._lock:
                    self.accepted += 1
                    self._held.append(conn)
                threading.Thread(target=self._swallow, args=(conn,), daemon=True).start()

    @staticmethod
    def _swallow(conn: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while conn.recv(65536):
                pass

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.server.shutdown(socket.SHUT_RDWR)
        self.server.close()
        with self._lock:
            for conn in self._held:
                with contextlib.suppress(OSError):
                    conn.close()
            self._held.clear()


@dataclass(frozen=True)
class Certs:
    """A throwaway certificate authority and a server certificate it signed (PEM files)."""

    ca: Path
    cert: Path
    key: Path


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def make_ca(where: Path, name: str = "Test club CA") -> tuple[Path, Path]:
    """A new certificate authority in ``where``: (its certificate, its key), made with the
    ``openssl`` command (no network, an EC key so it is quick)."""
    where.mkdir(parents=True, exist_ok=True)
    cert, key = where / "ca.pem", where / "ca.key"
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj",
             f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    return cert, key


def make_certs(where: Path, host: str = "127.0.0.1") -> Certs:
    """A CA and a server certificate for ``host`` (an IP address) signed by it."""
    ca, ca_key = make_ca(where / "ca")
    key, request, cert = where / "server.key", where / "server.csr", where / "server.pem"
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", str(key), "-out", str(request), "-subj", f"/CN={host}")
    extensions = where / "server.ext"
    extensions.write_text(f"subjectAltName=IP:{host}\nbasicConstraints=CA:FALSE\n"
                          "keyUsage=critical,digitalSignature,keyEncipherment\n"
                          "extendedKeyUsage=serverAuth\n")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
             "-CAcreateserial", "-out", str(cert), "-days", "2", "-extfile", str(extensions))
    return Certs(ca, cert, key)


class Mosquitto:
    """One broker process in ``home``; ``start``/``stop`` keep its port and its data."""

    def __init__(self, home: Path, users: dict[str, str] | None = None,
                 tls: Certs | None = None, extra: tuple[str, ...] = ()) -> None:
        if not Path(MOSQUITTO).exists():
            raise AssertionError("mosquitto is not installed: run ./setup.sh (it installs "
                                 "Debian's mosquitto for these tests)")
        self.home = home
        self.home.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.tls = tls
        lines = [f"listener {self.port} 127.0.0.1", "persistence true",
                 f"persistence_location {home}/", "log_dest stderr", "log_type error",
                 "log_type warning"]
        if os.geteuid() == 0:  # else mosquitto turns into its own user, who cannot read home
            lines.append("user root")
        if users:
            passwd = home / "passwd"
            passwd.write_text("")
            for user, password in users.items():
                subprocess.run([PASSWD, "-b", str(passwd), user, password], check=True,
                               capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if tls is not None:  # these apply to the listener above
            lines += [f"cafile {tls.ca}", f"certfile {tls.cert}", f"keyfile {tls.key}"]
        lines += extra  # more settings (the bench: $SYS every second)
        self.conf = home / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        log = open(self.home / "mosquitto.log", "ab")  # noqa: SIM115 (closed with the process)
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=log,
                                     stderr=log)
        log.close()

        def listening() -> bool:
            assert self.proc.poll() is None, (self.home / "mosquitto.log").read_text()
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", self.port)) == 0

        until(listening, 20, "mosquitto listening")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(20)
        self.proc = None


class Heard:
    """A subscriber to ``topics``, keeping every message (topic, payload text) in order."""

    def __init__(self, broker: Mosquitto, topics: str = "obelisk/#", client_id: str = "",
                 persistent: bool = False, user: str | None = None,
                 password: str | None = None) -> None:
        self.messages: list[tuple[str, str, bool]] = []
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=MQTTProtocolVersion.MQTTv311,
                                  clean_session=not persistent)
        if user:
            self.client.username_pw_set(user, password)
        if broker.tls is not None:  # a TLS broker: trust its own CA
            self.client.tls_set(ca_certs=str(broker.tls.ca))
        self.client.reconnect_delay_set(1, 1)
        topics_list = topics.split(",")

        def connected(client, userdata, flags, reason, properties) -> None:
            if not reason.is_failure:
                for topic in topics_list:
                    client.subscribe(topic, qos=1)
                self.connected.set()

        def message(client, userdata, msg) -> None:
            with self._lock:
                self.messages.append((msg.topic, msg.payload.decode("utf-8", "replace"),
                                      bool(msg.retain)))  # (bytes a stranger sent too)

        self.client.on_connect = connected
        self.client.on_message = message
        self.client.connect_async("127.0.0.1", broker.port, keepalive=10)
        self.client.loop_start()
        until(self.connected.is_set, 20, "the subscriber connecting")

    def on(self, topic: str) -> list[str]:
        with self._lock:
            return [payload for t, payload, _ in self.messages if t == topic]

    def matching(self, start: str) -> list[tuple[str, str]]:
        with self._lock:
            return [(t, p) for t, p, _ in self.messages if t.startswith(start)]

    def events(self, table: str) -> list[dict]:
        """The table's events, each once (at least once may bring a repeat), in order."""
        seen, out = set(), []
        for payload in self.on(f"obelisk/{table}/events"):
            event = json.loads(payload)
            key = (event["session"], event["n"])
            if key not in seen:
                seen.add(key)
                out.append(event)
        return out

    def result(self, table: str, game_id: str) -> tuple[str, dict] | None:
        """The result of the table's game ``game_id`` (the id ``obelisk games`` lists), as
        (the id it was published under, its payload); None until it is heard."""
        for topic, payload in self.matching(f"obelisk/{table}/results/"):
            data = json.loads(payload)
            if data.get("table_game_id", data.get("id")) == game_id:
                return topic.rsplit("/", 1)[1], data
        return None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()
