"""Retained messages on a real Mosquitto (issue 24 rows 16 and 13): events and acks are never retained (a
retained one, put there with a table's login, is dropped by the director and cleared by the table when it
connects), and a table's snapshot goes out when it changes, not every second while the table is idle."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as paho

from tests.tournament.conftest import EVENT, WAIT_S, Director, FakeTable, settings_for
from tournament import mqtt, topics
from tournament.acl import table_user
from tournament.payloads import AckMessage, EventMessage
from tournament.testing.broker import Broker


class Watcher:
    """A raw client on a login of the hall: records what it receives, with the retain flag."""

    def __init__(self, broker: Broker, user: str, client_id: str) -> None:
        self.client = mqtt.make_client(settings_for(broker, user), client_id)
        self.cond = threading.Condition()
        self.received: list[tuple[str, bytes, bool]] = []
        self.subscribed: set[int] = set()
        self.client.on_message = self._message
        self.client.on_subscribe = self._subscribed
        ready = threading.Event()
        self.client.on_connect = lambda *a: ready.set()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert ready.wait(WAIT_S)

    def _message(self, c: paho.Client, u: Any, m: paho.MQTTMessage) -> None:
        with self.cond:
            self.received.append((m.topic, bytes(m.payload), bool(m.retain)))
            self.cond.notify_all()

    def _subscribed(self, c: paho.Client, u: Any, mid: int, rc: Any, p: Any) -> None:
        with self.cond:
            self.subscribed.add(mid)
            self.cond.notify_all()

    def subscribe(self, topic: str) -> None:
        _, mid = self.client.subscribe(topic, 1)
        self.wait(lambda: mid in self.subscribed, "the subscription")

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(WAIT_S)

    def wait(self, predicate: Callable[[], bool], what: str) -> None:
        with self.cond:
            assert self.cond.wait_for(predicate, WAIT_S), f"timed out waiting for {what}"

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def poll(condition: Callable[[], bool], what: str) -> None:
    """Wait for a condition another thread makes true without telling anyone (bounded, never a fixed sleep)."""
    pause = threading.Event()
    for _ in range(int(WAIT_S / 0.02)):
        if condition():
            return
        pause.wait(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def forged_event() -> bytes:
    return EventMessage(1, 77, 0, "game", {"players": ["Eve", "Mallory"], "name": "Table 1"}, 0.0,
                        "2026-12-01T21:00:00+00:00").to_bytes()


def test_retained_events_and_acks_are_dropped_and_cleared(broker: Broker,
                                                         make_director: Callable[..., Director],
                                                         make_table: Callable[..., FakeTable]) -> None:
    forger = Watcher(broker, table_user(1), "forger")
    try:
        forger.publish(topics.events(EVENT, 1), forged_event(), retain=True)
        forger.publish(topics.ack(EVENT, 1), AckMessage(1, "x-1", True).to_bytes(), retain=True)
    finally:
        forger.stop()
    director = make_director()
    poll(lambda: director.link.dropped == 2, "the two retained messages dropped")
    assert director.applied == [] and director.acks == {}
    table = make_table(1)
    director.wait(lambda: director.status.get(1) == "online", "table 1 online")
    table.play(1)
    director.wait(lambda: director.keys(1) == [(table.game, 0), (table.game, 1)], "the table's own events")
    assert director.link.dropped == 2  # the table's clearing messages (empty) are not counted as dropped
    # a new subscriber gets nothing retained on the table's events (a sentinel published after the
    # subscription comes after anything retained would have)
    watcher = Watcher(broker, "director", "watcher")
    sender = Watcher(broker, table_user(1), "sender")
    try:
        watcher.subscribe(topics.events(EVENT, 1))
        sender.publish(topics.events(EVENT, 1), b"sentinel")
        watcher.wait(lambda: any(p == b"sentinel" for _, p, _ in watcher.received), "the sentinel")
        assert [r for r in watcher.received if r[2]] == []
    finally:
        watcher.stop()
        sender.stop()


def test_an_idle_tables_snapshot_is_sent_once(broker: Broker, make_table: Callable[..., FakeTable]) -> None:
    watcher = Watcher(broker, "director", "watcher")
    table = make_table(1)
    try:
        watcher.subscribe(topics.snapshot(EVENT, 1))
        body = {"state": "ended", "players": [{"name": "Ann", "score": 40}, {"name": "Bob", "score": 12}]}
        publisher = table.publisher
        for page_seq in range(6):  # the service pushes the same picture every second, its counter moving
            publisher.publish_snapshot(table.game, 0, dict(body, seq=page_seq))
            poll(lambda: publisher._snapshot is None, "the publisher to take the snapshot")
        publisher.publish_snapshot(table.game, 1, dict(body, state="turn", seq=7))  # a change
        watcher.wait(lambda: any(b'"turn"' in p for _, p, _ in watcher.received), "the changed snapshot")
        assert len(watcher.received) == 2
    finally:
        watcher.stop()
