"""Reaching the club's broker: TLS trust, and why it refused or could not be reached.

Shared by ``obelisk mqtt`` (``firmware.readers.club.publisher``) and ``obelisk club``
(``firmware.readers.club.viewer``), so both say the same words for the same trouble.
"""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from firmware.readers.club.config import Broker, ClubConfig, ClubError


def club_client(config: ClubConfig, client_id: str, delays: tuple[float, float],
                will: str) -> mqtt.Client:
    """A client of the club's broker as the table's readers use one: MQTT 3.1.1, a clean
    session, retrying between ``delays`` (seconds), its credentials and TLS trust, and
    ``offline`` on the topic ``will`` as its last will."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=MQTTProtocolVersion.MQTTv311, clean_session=True)
    client.reconnect_delay_set(min_delay=max(1, round(delays[0])),
                               max_delay=max(1, round(delays[1])))
    client.will_set(will, "offline", qos=1, retain=True)
    if config.user is not None:
        client.username_pw_set(config.user, config.password)
    if config.broker.tls:
        trust_ca(client, config.ca_file, f"{config.source}: ca_file =")
    return client


def refusal_words(reason: object, config: ClubConfig) -> str:
    """Why the broker refused this table, and what to change, in a person's words.

    MQTT 3.1.1 brokers (mosquitto among them) answer a wrong password with "not
    authorised" too, so both are named."""
    text = str(reason).lower()
    who = f"user {config.user!r}" if config.user else "a table without a user"
    if "password" in text or "user name" in text or "username" in text or "authori" in text:
        return (f"the broker {config.broker} refused {who} (a wrong user name or password, "
                f"or no permission there): check user and password_file in {config.source}, "
                "and that the broker's password file and access list let this user in")
    return f"the broker {config.broker} refused this table ({reason})"


def trust_ca(client: mqtt.Client, ca_file: str | None, where: str) -> None:
    """Speak TLS, trusting ``ca_file`` (else this machine's authorities); ClubError starting
    with ``where`` (the setting) if ``ca_file`` holds no certificate."""
    try:
        client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise ClubError(f"{where} {ca_file!r} holds no certificate "
                        f"this machine can read ({exc}): give the PEM file of the club's "
                        "certificate authority (it starts with -----BEGIN CERTIFICATE-----)") \
            from None


def unreachable_words(exc: BaseException | None, broker: Broker, ca_file: str | None,
                      broker_key: str, ca_key: str) -> str:
    """Why the broker could not be reached, and what to change, in a person's words;
    ``broker_key`` and ``ca_key`` say where the broker and the CA are set."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        detail = exc.verify_message or str(exc)
        if "hostname" in detail.lower() or "ip address mismatch" in detail.lower():
            return (f"the certificate of the broker {broker} is not made out for "
                    f"{broker.host!r} ({detail}): name the broker ({broker_key}) by the host "
                    "its certificate was made for")
        if ca_file:
            return (f"the broker {broker} is not vouched for by {ca_file!r} ({detail}): set "
                    f"{ca_key} to the certificate of the authority that signed the broker's "
                    "certificate (the club's CA)")
        return (f"the broker {broker} is not vouched for by this machine's certificate "
                f"authorities ({detail}): if the club made its own, set {ca_key} to its "
                "certificate")
    if isinstance(exc, ssl.SSLError):
        return (f"the broker {broker} did not speak TLS ({exc.reason or exc}): is mqtts "
                f"served on port {broker.port}? If the broker is plain MQTT, write mqtt:// in "
                f"{broker_key}")
    return (f"cannot reach the broker {broker} ({exc or 'no answer'}): check that it runs "
            f"and that {broker_key} is its address")
