"""Reaching the club's broker: TLS trust, a deadline for every attempt, and why it refused,
could not be reached or did not answer.

Shared by ``obelisk mqtt`` (``firmware.readers.club.publisher``), ``obelisk remote``
(``firmware.match.link``) and ``obelisk club``
(``firmware.readers.club.viewer``), so all say the same words for the same trouble.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from firmware.readers.club.config import Broker, ClubConfig, ClubError
from firmware.readers.club.trouble import name_words, os_words, refused_words

CONNECT_S = 5.0
"""The most the TCP connection to the broker, and then its TLS handshake, may each take."""
HANDSHAKE_S = 10.0
"""The most a whole attempt to reach the broker may take, from its start to the broker's MQTT
answer (CONNACK): one still unanswered then is said, given up and tried again."""


def club_client(config: ClubConfig, client_id: str, delays: tuple[float, float],
                will: str, most: int | None = None) -> mqtt.Client:
    """A client of the club's broker as the table's readers use one: MQTT 3.1.1, a clean
    session, retrying between ``delays`` (seconds), its credentials and TLS trust, and
    ``offline`` on the topic ``will`` as its last will. ``most``: a client that takes
    messages, which asks the broker never to send it a packet larger (MQTT 5, whose
    CONNECT says so; ``connect`` with the same ``most``)."""
    if most is None:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=MQTTProtocolVersion.MQTTv311, clean_session=True)
    else:  # (MQTT 5's sessions end at the disconnect unless asked: clean as 3.1.1's)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=MQTTProtocolVersion.MQTTv5)
    client.connect_timeout = CONNECT_S
    client.reconnect_delay_set(min_delay=max(1, round(delays[0])),
                               max_delay=max(1, round(delays[1])))
    client.will_set(will, "offline", qos=1, retain=True)
    if config.user is not None:
        client.username_pw_set(config.user, config.password)
    if config.broker.tls:
        trust_ca(client, config.ca_file, f"{config.source}: ca_file =")
    return client


def connect(client: mqtt.Client, broker: Broker, keepalive: int,
            most: int | None = None) -> None:
    """Begin reaching ``broker`` in the background (retrying for ever); ``most``: the
    largest packet the broker may send this client (MQTT 5's maximum packet size: a larger
    message is dropped by the broker, never read into this process's memory)."""
    properties = None
    if most is not None:
        properties = Properties(PacketTypes.CONNECT)
        properties.MaximumPacketSize = most
    client.connect_async(broker.host, broker.port, keepalive=keepalive,
                         properties=properties)
    client.loop_start()


class Handshake:
    """Gives each attempt to reach the broker HANDSHAKE_S to be answered.

    paho waits for the broker's CONNACK as long as the keepalive, then gives up without a
    word and tries again, so a broker that takes the connection and never answers would be
    named nowhere. This watches each attempt (paho's ``on_pre_connect``); one not over by
    its deadline is said (``silent()``) and its socket shut, so that paho tries again after
    its backoff. The owner calls ``over()`` when the broker answers or the attempt fails."""

    def __init__(self, client: mqtt.Client, silent: Callable[[], None]) -> None:
        self.client = client
        self.silent = silent
        self._lock = threading.Lock()
        self._attempt = 0
        self._waiting = False
        self._closed = False
        client.on_pre_connect = self._began

    def _began(self, client: mqtt.Client, userdata: object) -> None:
        with self._lock:
            self._attempt += 1
            self._waiting = True
            attempt = self._attempt
        timer = threading.Timer(HANDSHAKE_S, self._due, (attempt,))
        timer.daemon = True
        timer.start()

    def over(self) -> None:
        """The attempt ended: the broker answered (welcome or not), or it failed and was
        said."""
        with self._lock:
            self._waiting = False

    def close(self) -> None:
        """The owner stops: no attempt is said from now on."""
        with self._lock:
            self._closed = True

    def _due(self, attempt: int) -> None:
        with self._lock:
            if attempt != self._attempt or not self._waiting or self._closed:
                return
            self._waiting = False
        self.silent()
        sock = self.client.socket()
        if isinstance(sock, socket.socket):  # the plain socket's own shutdown, TLS or not:
            with contextlib.suppress(OSError):  # paho's loop reads its end and tries again
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


def silent_words(broker: Broker, broker_key: str) -> str:
    """A broker that took the connection and did not answer, and what to check."""
    return (f"the broker {broker} took the connection but gave no MQTT answer within "
            f"{HANDSHAKE_S:g} s: check that {broker_key} names the club's MQTT broker and its "
            "MQTT port (not another service), and that the broker is not stuck or overloaded")


def refusal_words(reason: object, config: ClubConfig) -> str:
    """Why the broker refused this table, and what to change, in a person's words.

    MQTT 3.1.1 brokers (mosquitto among them) answer a wrong password with "not
    authorised" too, so both are named."""
    who = f"user {config.user!r}" if config.user else "a table without a user"
    if getattr(reason, "value", reason) in (4, 5, 134, 135):  # bad user or password; not
        # authorised (MQTT 3.1.1's codes, and paho's MQTT 5 names of them)
        return (f"the broker {config.broker} refused {who} (a wrong user name or password, "
                f"or no permission there): check user and password_file in {config.source}, "
                "and that the broker's password file and access list let this user in")
    return f"the broker {config.broker} refused this table: {refused_words(reason)}"


def trust_ca(client: mqtt.Client, ca_file: str | None, where: str) -> None:
    """Speak TLS, trusting ``ca_file`` (else this machine's authorities); ClubError starting
    with ``where`` (the setting) if ``ca_file`` holds no certificate."""
    try:
        client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    except (ssl.SSLError, OSError, ValueError):
        raise ClubError(f"{where} {ca_file!r} holds no certificate "
                        "this machine can read: give the PEM file of the club's "
                        "certificate authority (it starts with -----BEGIN CERTIFICATE-----)") \
            from None


_VERIFY = {
    9: "its certificate is not valid yet (is this machine's clock right?)",
    10: "its certificate has expired (or this machine's clock is wrong)",
    18: "its certificate signs itself",
    19: "its certificate comes from an authority that is not trusted here",
    20: "its certificate comes from an authority that is not trusted here",
    21: "its certificate comes from an authority that is not trusted here",
    23: "its certificate was revoked",
}
_WRONG_NAME = (62, 64)  # X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH


def unreachable_words(exc: BaseException | None, broker: Broker, ca_file: str | None,
                      broker_key: str, ca_key: str) -> str:
    """Why the broker could not be reached, and what to change, in a person's words;
    ``broker_key`` and ``ca_key`` say where the broker and the CA are set."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        if exc.verify_code in _WRONG_NAME:
            return (f"the certificate of the broker {broker} is not made out for "
                    f"{broker.host!r}: name the broker ({broker_key}) by the host its "
                    "certificate was made for")
        why = _VERIFY.get(exc.verify_code, "its certificate does not check out")
        if ca_file:
            return (f"the broker {broker} is not vouched for by {ca_file!r} ({why}): set "
                    f"{ca_key} to the certificate of the authority that signed the broker's "
                    "certificate (the club's CA)")
        return (f"the broker {broker} is not vouched for by this machine's certificate "
                f"authorities ({why}): if the club made its own, set {ca_key} to its "
                "certificate")
    if isinstance(exc, ssl.SSLError):
        return (f"the broker {broker} did not speak TLS: is mqtts served on port "
                f"{broker.port}? If the broker is plain MQTT, write mqtt:// in {broker_key}")
    if isinstance(exc, socket.gaierror):
        return f"cannot reach the broker {broker}: {name_words(exc, broker.host)}: check " \
            f"{broker_key}"
    if isinstance(exc, ConnectionRefusedError):
        why = f"nothing answers on port {broker.port} of {broker.host}"
    elif exc is None or isinstance(exc, TimeoutError):
        why = f"no answer within {CONNECT_S:g} s" + (
            ", or it took the connection and did not begin TLS: is mqtts served on port "
            f"{broker.port}?" if broker.tls else "")
    else:
        why = os_words(exc)
    return (f"cannot reach the broker {broker} ({why}): check that it runs and that "
            f"{broker_key} is its address")
