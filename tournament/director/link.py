"""The director's MQTT connection (paho-mqtt 2, MQTT 5): subscribes to every table, publishes commands.

paho runs its own network thread; each message is handed to the director's asyncio loop with
`call_soon_threadsafe`, so the hall is only ever touched by one thread. paho reconnects by itself (with a
backoff); on every (re)connection the subscriptions are made again and the retained snapshots and statuses
arrive anew, which is how the hall catches up after a broker restart.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tournament import topics
from tournament.director.core import Director

log = logging.getLogger(__name__)

COMMAND_EXPIRY_S = 120


@dataclass(frozen=True)
class BrokerConfig:
    url: str  # mqtt://host:port or mqtts://host:port
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    client_id: str = "director"

    @property
    def host_port(self) -> tuple[str, int, bool]:
        parts = urlsplit(self.url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ValueError(f"broker url {self.url!r}: use mqtt://host:port or mqtts://host:port")
        tls = parts.scheme == "mqtts"
        return parts.hostname, parts.port or (8883 if tls else 1883), tls


class BrokerLink:
    """Connects `director` to the broker; `start()` on the director's loop, `stop()` to disconnect cleanly."""

    def __init__(self, director: Director, config: BrokerConfig) -> None:
        self.director = director
        self.config = config
        self.connected = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=config.client_id,
                                   protocol=mqtt.MQTTv5)
        self._client.max_queued_messages_set(10000)
        self._client.max_inflight_messages_set(200)
        if config.username:
            self._client.username_pw_set(config.username, config.password)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.reconnect_delay_set(1, 5)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        host, port, tls = self.config.host_port
        if tls:
            self._client.tls_set_context(ssl.create_default_context(cafile=self.config.ca_file))
        self.director.publish = self._publish
        self._client.connect_async(host, port, keepalive=15, clean_start=False)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _publish(self, topic: str, payload: bytes) -> None:
        props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        props.MessageExpiryInterval = COMMAND_EXPIRY_S
        self._client.publish(topic, payload, qos=1, properties=props)

    # paho's thread -----------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                    _props: object) -> None:
        if getattr(reason, "is_failure", False):
            log.error("the broker refused the director: %s", reason)
            return
        event = self.director.event
        client.subscribe([(topics.all_tables(event, leaf), 1) for leaf in ("status", "snapshot", "events", "ack")])
        log.info("director connected to %s", self.config.url)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.connected.set)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                       _props: object) -> None:
        log.warning("director lost the broker (%s); reconnecting", reason)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.connected.clear)

    def _on_message(self, _client: mqtt.Client, _userdata: object, message: mqtt.MQTTMessage) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.director.dispatch, message.topic, bytes(message.payload))
