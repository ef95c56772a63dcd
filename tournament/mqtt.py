"""One way to make a paho-mqtt client for the tournament: MQTT 5, TLS when asked, reconnecting quickly.

Both ends use it, so a table and the director agree on the protocol version, keepalive and reconnect pace.
Reconnects back off from `MIN_RECONNECT_S` to `MAX_RECONNECT_S`: after a broker restart every table and
the director are back within about a second of its return (the goal is every table caught up within 5 s),
and 500 tables knocking once a second at a broker that is down are no load (one refused SYN each).
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tournament.settings import BrokerSettings

KEEPALIVE_S = 15
MIN_RECONNECT_S = 0.25
MAX_RECONNECT_S = 1.0
CONNECT_TIMEOUT_S = 3.0  # a TCP connect to an unreachable broker gives up after this (then backs off)
SESSION_EXPIRY_S = 24 * 3600  # a table or director away for a day still finds its queued messages
COMMAND_EXPIRY_S = 120  # a command older than this is not applied (a "pause" from yesterday means nothing)


def make_client(settings: BrokerSettings, client_id: str, *, inflight: int = 100) -> paho.Client:
    """A configured, not yet connected client (MQTT 5, persistent session by `client_id`)."""
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=paho.MQTTv5, reconnect_on_failure=True)
    if settings.username:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(ca_certs=str(settings.ca_file) if settings.ca_file else None,
                       certfile=str(settings.cert_file) if settings.cert_file else None,
                       keyfile=str(settings.key_file) if settings.key_file else None,
                       cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(1, 1)  # whole seconds only (paho's loop_forever); the PublisherLoop does finer
    client.max_inflight_messages_set(inflight)
    client.max_queued_messages_set(0)
    return client


def set_nodelay(client: paho.Client) -> None:
    """Send each packet at once (TCP_NODELAY; paho leaves Nagle on). With Nagle, a second small publish waits
    for the broker's delayed ACK of the first: 40 to 200 ms added to about one event in ten."""
    sock = client.socket()
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def connect_properties(session_expiry_s: int = SESSION_EXPIRY_S) -> Properties:
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    props.SessionExpiryInterval = session_expiry_s
    return props


def publish_properties(*, expiry_s: int | None = None, user: dict[str, str] | None = None) -> Properties:
    props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
    if expiry_s is not None:
        props.MessageExpiryInterval = expiry_s
    if user:
        props.UserProperty = list(user.items())
    return props


def user_properties(message: Any) -> dict[str, str]:
    """The MQTT 5 user properties of a received message, as a dict (empty when there are none)."""
    props = getattr(message, "properties", None)
    pairs = getattr(props, "UserProperty", None) if props is not None else None
    return {str(k): str(v) for k, v in pairs} if pairs else {}


def configure_connect(client: paho.Client, settings: BrokerSettings, *, clean_start: bool = False) -> None:
    """Where and how to connect, for a client whose socket its owner drives (a `PublisherLoop`, the director's
    loop): no connection yet."""
    client.connect_timeout = CONNECT_TIMEOUT_S
    client.connect_async(settings.host, settings.port, keepalive=KEEPALIVE_S, clean_start=clean_start,
                         properties=connect_properties())


def connect_async(client: paho.Client, settings: BrokerSettings, *, clean_start: bool = False) -> None:
    """Start connecting in the background on paho's own thread (it retries until the broker answers): for a
    plain client (the simulated tables of tournament/testing, a benchmark's feeder). Tables' clients are driven
    by a `PublisherLoop`, the director's by its asyncio loop (tournament/director/link.py)."""
    configure_connect(client, settings, clean_start=clean_start)
    client.loop_start()
