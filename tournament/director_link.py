"""The director's end of the tournament network: every table's events, snapshots, status and acks, and
director commands out.

A thin layer over paho-mqtt and `Receiver`. Its session is persistent (MQTT 5 session expiry, one day): while
the director is away the broker keeps its QoS 1 messages, and whatever the broker could not keep is asked of
the tables again as a replay when the director sees the gap. Callbacks run on paho's network thread, one at
a time; an asyncio service hands them to its loop with ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.subscribeoptions import SubscribeOptions

from tournament import mqtt, topics
from tournament.payloads import (
    AckMessage,
    CommandMessage,
    CommandName,
    EventMessage,
    PayloadError,
    SnapshotMessage,
    StatusMessage,
)
from tournament.receiver import Receiver
from tournament.settings import BrokerSettings

log = logging.getLogger(__name__)


class DirectorLink:
    """Connects as the director of `event`. `on_event` gets each table event once, in order per game;
    `published_ms` is the MQTT user property the table set on sending (None for a replay)."""

    def __init__(self, broker: BrokerSettings, event: str, *,
                 on_event: Callable[[EventMessage, int | None], None],
                 on_snapshot: Callable[[SnapshotMessage], None] | None = None,
                 on_status: Callable[[StatusMessage], None] | None = None,
                 on_ack: Callable[[AckMessage], None] | None = None,
                 on_broker: Callable[[bool], None] | None = None,
                 by: str = "director", client_id: str | None = None, retry_s: float = 2.0,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.broker = broker
        self.event = topics.check_event_id(event)
        self.by = by
        self.on_event = on_event
        self.on_snapshot = on_snapshot
        self.on_status = on_status
        self.on_ack = on_ack
        self.on_broker = on_broker  # True once connected, False when the connection is lost
        self._lock = threading.Lock()
        self.lock = self._lock  # held while the receiver is used (its owner may reach it under this lock)
        self._published: int | None = None
        self.receiver = Receiver(self._apply, self._ask_replay, retry_s=retry_s, monotonic=monotonic)
        self.client = mqtt.make_client(broker, client_id or f"{event}-director")
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.connected = threading.Event()
        self.dropped = 0  # payloads that did not parse
        self._ids = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self._stop = threading.Event()
        self._gaps: threading.Thread | None = None
        self._fresh = True  # this process has not subscribed yet: it knows no table's status or snapshot

    def start(self) -> None:
        mqtt.connect_async(self.client, self.broker, clean_start=False)
        self._gaps = threading.Thread(target=self._gap_loop, name="director-gaps", daemon=True)
        self._gaps.start()

    def stop(self) -> None:
        self._stop.set()
        if self._gaps:
            self._gaps.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    def send(self, table: int | None, cmd: CommandName, args: Mapping[str, Any] | None = None, *,
             command_id: str | None = None) -> str:
        """Publish a command to one table (or to all with None); returns its id, echoed by each ack."""
        cid = command_id or f"{self._prefix}-{next(self._ids)}"
        msg = CommandMessage(cid, self.by, cmd, dict(args or {}))
        topic = topics.all_command(self.event) if table is None else topics.command(self.event, table)
        self.client.publish(topic, msg.to_bytes(), qos=1,
                            properties=mqtt.publish_properties(expiry_s=mqtt.COMMAND_EXPIRY_S))
        return cid

    # --- internals ---------------------------------------------------------------------------------

    def _apply(self, msg: EventMessage) -> None:
        self.on_event(msg, None if msg.replay else self._published)

    def _ask_replay(self, table: int, game: int, first: int, last: int | None) -> None:
        self.send(table, "replay", {"game": game, "from": first, "to": last})

    def _gap_loop(self) -> None:
        while not self._stop.wait(0.5):
            with self._lock:
                self.receiver.check_gaps()

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("director: broker %s refused the connection: %s", self.broker.url, reason_code)
            return
        mqtt.set_nodelay(client)
        kept = bool(getattr(flags, "session_present", False))
        log.info("director: connected to %s (session %s)", self.broker.url, "kept" if kept else "new")
        with self._lock:
            self.receiver.session_started(kept=kept)
        # Retained snapshots and statuses: on this process's first subscription always, even to a session the
        # broker kept (a restarted director, a clean restart too, knows no table's status: without them every
        # tile stayed offline for ever); after a reconnect of the same process only for a subscription the
        # broker did not have (then they are known already, and 500 tables' worth at once only delays the
        # events queued behind them).
        handling = (SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE if self._fresh
                    else SubscribeOptions.RETAIN_SEND_IF_NEW_SUB)
        opts = SubscribeOptions(qos=1, retainHandling=handling)
        client.subscribe([(topics.all_tables(self.event, leaf), opts)
                          for leaf in ("status", "snapshot", "events", "ack")])
        self._fresh = False
        self.connected.set()
        if self.on_broker:
            self.on_broker(True)

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if self.on_broker and not self._stop.is_set():  # a stop of the director is no loss of the broker
            self.on_broker(False)

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        try:
            where = topics.parse(message.topic)
            if where.leaf in ("events", "ack") and (message.retain or not message.payload):
                # never retained (a table clears its own at connect, with an empty message): a retained event
                # or ack was put there by someone, and would be taken as new by every director that subscribes
                if message.payload:
                    self.dropped += 1
                    log.warning("director: dropped a retained message on %s (events and acks are never retained)",
                                message.topic)
                return
            if where.leaf == "events":
                ev = EventMessage.from_bytes(message.payload)
                if ev.table != where.table:
                    raise PayloadError(f"event payload: table {ev.table} on table {where.table}'s topic")
                published = mqtt.user_properties(message).get("published")
                with self._lock:
                    self._published = int(published) if published and published.isdigit() else None
                    self.receiver.feed(ev)
            elif where.leaf == "snapshot":
                snap = SnapshotMessage.from_bytes(message.payload)
                with self._lock:
                    self.receiver.note_snapshot(snap.table, snap.game, snap.seq, retained=bool(message.retain))
                if self.on_snapshot:
                    self.on_snapshot(snap)
            elif where.leaf == "status":
                st = StatusMessage.from_bytes(message.payload)
                if st.game is not None and st.seq is not None:
                    with self._lock:
                        self.receiver.note_snapshot(st.table, st.game, st.seq, retained=bool(message.retain))
                if self.on_status:
                    self.on_status(st)
            elif where.leaf == "ack" and self.on_ack:
                self.on_ack(AckMessage.from_bytes(message.payload))
        except (PayloadError, topics.TopicError) as exc:
            self.dropped += 1
            log.warning("director: dropped a message on %s: %s", message.topic, exc)
