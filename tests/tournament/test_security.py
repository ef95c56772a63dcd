"""The broker's ACL: a table writes only under its own topic and reads only its own commands; only the
director publishes commands. Proved against a real Mosquitto with the generated password file and ACL."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from tournament import mqtt, topics
from tournament.acl import acl_text, table_user
from tournament.payloads import CommandMessage, EventMessage
from tournament.settings import BrokerSettings
from tournament.testing.broker import Broker, mosquitto_path

EVENT = "test-open"
ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 30.0


def password(user: str) -> str:
    return f"pw-{user}"


class Raw:
    """A bare MQTT 5 client: what someone holding a table's credentials could do with them."""

    def __init__(self, broker: Broker, user: str, pw: str | None = None) -> None:
        self.client = mqtt.make_client(BrokerSettings(broker.host, broker.port, username=user,
                                                      password=pw if pw is not None else password(user)),
                                       f"raw-{user}")
        self.cond = threading.Condition()
        self.received: list[tuple[str, bytes]] = []
        self.connect_rc: Any = None
        self.acks: dict[int, Any] = {}
        self.client.on_message = self._message
        self.client.on_connect = self._connect
        self.client.on_publish = self._publish

    def _connect(self, c: paho.Client, u: Any, f: Any, rc: Any, p: Any) -> None:
        with self.cond:
            self.connect_rc = rc
            self.cond.notify_all()

    def _publish(self, c: paho.Client, u: Any, mid: int, rc: Any, p: Any) -> None:
        with self.cond:
            self.acks[mid] = rc
            self.cond.notify_all()

    def _message(self, c: paho.Client, u: Any, m: paho.MQTTMessage) -> None:
        with self.cond:
            self.received.append((m.topic, bytes(m.payload)))
            self.cond.notify_all()

    def start(self, broker: Broker) -> Raw:
        self.client.connect_async(broker.host, broker.port, keepalive=15, clean_start=True)
        self.client.loop_start()
        with self.cond:
            assert self.cond.wait_for(lambda: self.connect_rc is not None, WAIT_S)
        return self

    def subscribe(self, topic: str) -> None:
        result, _mid = self.client.subscribe(topic, 1)
        assert result == paho.MQTT_ERR_SUCCESS

    def publish(self, topic: str, payload: bytes) -> Any:
        """Publish at QoS 1 and return the broker's PUBACK reason code."""
        info = self.client.publish(topic, payload, qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: info.mid in self.acks, WAIT_S), f"no PUBACK for {topic}"
            return self.acks[info.mid]

    def wait_for(self, predicate: Callable[[], bool], what: str) -> None:
        with self.cond:
            assert self.cond.wait_for(predicate, WAIT_S), f"timed out waiting for {what}"

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def clients(broker: Broker) -> Iterator[Callable[..., Raw]]:
    made: list[Raw] = []

    def make(user: str, pw: str | None = None) -> Raw:
        raw = Raw(broker, user, pw).start(broker)
        made.append(raw)
        return raw

    yield make
    for raw in made:
        raw.stop()


def event_bytes(table: int, seq: int) -> bytes:
    return EventMessage(table, 1, seq, "clock", {"player": 0}, 1.0, "2026-12-01T21:00:00+00:00").to_bytes()


def command_bytes(cid: str) -> bytes:
    return CommandMessage(cid, "someone", "pause").to_bytes()


def test_a_table_cannot_write_another_tables_topics_or_any_command(clients: Callable[..., Raw]) -> None:
    watcher = clients("director")
    watcher.subscribe(f"scrabble/{EVENT}/#")
    table2 = clients(table_user(2))
    table2.subscribe(topics.command(EVENT, 2))
    table2.subscribe(topics.all_command(EVENT))
    forger = clients(table_user(1))
    assert forger.connect_rc is not None and not forger.connect_rc.is_failure

    forged = {
        topics.events(EVENT, 2): event_bytes(2, 1),
        topics.snapshot(EVENT, 2): b'{"v":1}',
        topics.status(EVENT, 2): b'{"v":1}',
        topics.ack(EVENT, 2): b'{"v":1}',
        topics.command(EVENT, 2): command_bytes("forged-1"),
        topics.command(EVENT, 1): command_bytes("forged-2"),
        topics.all_command(EVENT): command_bytes("forged-3"),
    }
    for topic, payload in forged.items():
        rc = forger.publish(topic, payload)
        assert rc.is_failure, f"the broker accepted table 1's publish to {topic} ({rc})"
    # Its own topic works: and once that arrives, anything forged before it would have arrived too.
    assert not forger.publish(topics.events(EVENT, 1), event_bytes(1, 1)).is_failure
    watcher.wait_for(lambda: any(t == topics.events(EVENT, 1) for t, _ in watcher.received), "table 1's own event")
    # Only the director's command reaches table 2 (published after the forged ones, so it comes after them).
    director = clients("director")
    assert not director.publish(topics.command(EVENT, 2), command_bytes("real")).is_failure
    table2.wait_for(lambda: len(table2.received) >= 1, "the director's command")
    assert [CommandMessage.from_bytes(p).id for _, p in table2.received] == ["real"]
    assert not [t for t, _ in watcher.received if t in forged and t != topics.command(EVENT, 2)]


def test_a_table_cannot_read_another_tables_commands(clients: Callable[..., Raw]) -> None:
    snoop = clients(table_user(1))
    snoop.subscribe(topics.command(EVENT, 2))
    snoop.subscribe(topics.command(EVENT, 1))
    director = clients("director")
    director.publish(topics.command(EVENT, 2), command_bytes("for-2"))
    director.publish(topics.command(EVENT, 1), command_bytes("for-1"))
    snoop.wait_for(lambda: len(snoop.received) >= 1, "its own command")
    assert [CommandMessage.from_bytes(p).id for _, p in snoop.received] == ["for-1"]


def test_a_wrong_password_is_refused(clients: Callable[..., Raw]) -> None:
    raw = clients(table_user(1), "not-the-password")
    assert raw.connect_rc.is_failure


def test_the_acl_has_six_rules_per_table_and_no_wildcard_for_tables() -> None:
    text = acl_text(EVENT, [1, 2])
    table_block = text.split(f"user {table_user(2)}\n", 1)[1].strip().splitlines()
    assert table_block == [
        f"topic write scrabble/{EVENT}/table/2/events", f"topic write scrabble/{EVENT}/table/2/snapshot",
        f"topic write scrabble/{EVENT}/table/2/status", f"topic write scrabble/{EVENT}/table/2/ack",
        f"topic read scrabble/{EVENT}/table/2/cmd", f"topic read scrabble/{EVENT}/all/cmd"]


def test_duplicated_and_reordered_deliveries_are_applied_once_in_order(clients: Callable[..., Raw],
                                                                      director: Any) -> None:
    """What the network may do to a stream (QoS 1 redelivery, a replay crossing live events), done on purpose
    with table 1's own credentials: the director still applies 0..30 once each, in order."""
    import random

    table = clients(table_user(1))
    order = [*range(31), 3, 7, 7, 15, 0, 30, 22]
    random.Random(13).shuffle(order)
    for seq in order:
        payload = EventMessage(1, 1, seq, "game" if seq == 0 else "clock", {"player": seq % 2}, seq / 10,
                               "2026-12-01T21:00:00+00:00").to_bytes()
        assert not table.publish(topics.events(EVENT, 1), payload).is_failure
    director.wait(lambda: len(director.applied) >= 31, "31 events")
    assert director.keys(1) == [(1, s) for s in range(31)]
    assert director.link.receiver.stats.duplicates == len(order) - 31


def test_the_shipped_hall_config_enforces_logins_and_the_acl(tmp_path: Path) -> None:
    """systemd/mosquitto/tournament.conf as shipped, with only its paths and port moved to this test's folder
    (and the persistence Debian's main file sets): it starts, and it refuses a table's forged command."""
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    shipped = (ROOT / "systemd" / "mosquitto" / "tournament.conf").read_text(encoding="utf-8")
    conf = (shipped.replace("listener 1883", "listener {port} 127.0.0.1")
            .replace("/etc/mosquitto/tournament.passwd", "{passwords}")
            .replace("/etc/mosquitto/tournament.acl", "{acl}")
            + "\nuser {user}\npersistence true\npersistence_location {data}/\n")
    users = {u: password(u) for u in ("director", table_user(1))}
    with Broker(tmp_path / "shipped", users, acl_text(EVENT, [1]), base=conf) as hall:
        forger = Raw(hall, table_user(1)).start(hall)
        try:
            assert forger.publish(topics.all_command(EVENT), command_bytes("forged")).is_failure
            assert not forger.publish(topics.events(EVENT, 1), event_bytes(1, 1)).is_failure
        finally:
            forger.stop()
        stranger = Raw(hall, table_user(1), "wrong").start(hall)
        try:
            assert stranger.connect_rc.is_failure
        finally:
            stranger.stop()
