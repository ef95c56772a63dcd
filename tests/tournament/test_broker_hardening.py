"""The shipped hall broker (systemd/mosquitto/tournament.conf, only its paths and port moved) against what a
holder of one table's credentials can do to the others: take over their sessions by client id (#2 of issue
24), or make the broker read a 100 MB packet into memory before refusing it (#11)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from tournament import mqtt, topics
from tournament.acl import acl_text, table_user
from tournament.settings import BrokerSettings
from tournament.testing.broker import Broker, mosquitto_path

EVENT = "test-open"
ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 20.0


def password(user: str) -> str:
    return f"pw-{user}"


def shipped_conf() -> str:
    shipped = (ROOT / "systemd" / "mosquitto" / "tournament.conf").read_text(encoding="utf-8")
    return (shipped.replace("listener 1883", "listener {port} 127.0.0.1")
            .replace("/etc/mosquitto/tournament.passwd", "{passwords}")
            .replace("/etc/mosquitto/tournament.acl", "{acl}")
            + "\nuser {user}\npersistence true\npersistence_location {data}/\nlog_dest stderr\n")


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Broker]:
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    users = {u: password(u) for u in ("director", table_user(1), table_user(2))}
    with Broker(tmp_path / "shipped", users, acl_text(EVENT, [1, 2]), base=shipped_conf()) as broker:
        yield broker


class Watched:
    """A client that records its connects and disconnects (a takeover is a disconnect it did not ask for)."""

    def __init__(self, broker: Broker, user: str, client_id: str) -> None:
        self.client = mqtt.make_client(BrokerSettings(broker.host, broker.port, username=user,
                                                      password=password(user)), client_id)
        self.cond = threading.Condition()
        self.connects: list[Any] = []
        self.disconnects: list[Any] = []
        self.client.on_connect = self._connect
        self.client.on_disconnect = self._disconnect
        self.client.on_publish = self._published
        self.acked: set[int] = set()
        mqtt.connect_async(self.client, BrokerSettings(broker.host, broker.port, username=user,
                                                       password=password(user)))
        with self.cond:
            assert self.cond.wait_for(lambda: self.connects, WAIT_S), f"{user} did not connect"

    def _connect(self, c: paho.Client, u: Any, flags: Any, rc: Any, p: Any) -> None:
        with self.cond:
            self.connects.append(rc)
            self.cond.notify_all()

    def _disconnect(self, c: paho.Client, u: Any, flags: Any, rc: Any, p: Any) -> None:
        with self.cond:
            self.disconnects.append(rc)
            self.cond.notify_all()

    def _published(self, c: paho.Client, u: Any, mid: int, rc: Any, p: Any) -> None:
        with self.cond:
            self.acked.add(mid)
            self.cond.notify_all()

    def round_trip(self, topic: str) -> bool:
        """A QoS 1 publish answered by the broker: the connection is still this client's."""
        info = self.client.publish(topic, b"{}", qos=1)
        return self.wait(lambda: info.mid in self.acked or bool(self.disconnects), 5.0) and not self.disconnects

    def wait(self, predicate: Any, timeout: float = WAIT_S) -> bool:
        with self.cond:
            return bool(self.cond.wait_for(predicate, timeout))

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_tables_credentials_cannot_take_over_the_directors_or_another_tables_session(hall: Broker) -> None:
    director = Watched(hall, "director", f"{EVENT}-director")
    table2 = Watched(hall, table_user(2), f"{EVENT}-table-2")
    try:
        for victim_id in (f"{EVENT}-director", f"{EVENT}-table-2"):
            thief = Watched(hall, table_user(1), victim_id)  # the broker lets table 1's login in ...
            assert not thief.connects[0].is_failure
            thief.stop()
        # ... and the victims stay connected: a publish after the thieves' connects is answered on their own
        # connection (a takeover closes the victim's connection at the thief's CONNECT)
        assert director.round_trip(topics.command(EVENT, 2)), director.disconnects
        assert table2.round_trip(topics.status(EVENT, 2)), table2.disconnects
    finally:
        director.stop()
        table2.stop()


def _connect_packet(user: str, pw: str) -> bytes:
    def field(text: str) -> bytes:
        raw = text.encode()
        return len(raw).to_bytes(2, "big") + raw

    variable = field("MQTT") + bytes([4, 0xC2]) + (15).to_bytes(2, "big")  # MQTT 3.1.1, user+password, clean
    payload = field("big-publisher") + field(user) + field(pw)
    body = variable + payload
    return bytes([0x10, len(body)]) + body


def _remaining_length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def test_a_huge_packet_is_refused_from_its_header_before_the_broker_reads_it(hall: Broker) -> None:
    """A table's login announces a 100 MB publish: the broker closes the connection on the header, so nothing
    of it is read into memory (message_size_limit alone refuses it only after reading it whole)."""
    with socket.create_connection((hall.host, hall.port), timeout=WAIT_S) as sock:
        sock.sendall(_connect_packet(table_user(1), password(table_user(1))))
        assert sock.recv(4)[:1] == b"\x20"  # CONNACK
        topic = topics.events(EVENT, 1).encode()
        size = 100 * 1024 * 1024
        header = bytes([0x30]) + _remaining_length(size) + len(topic).to_bytes(2, "big") + topic
        sock.sendall(header)
        sent = len(header)
        chunk = b"x" * 65536
        closed = False
        try:
            while sent < 8 * 1024 * 1024:  # the broker must have closed long before 8 MB of the 100
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            closed = True
        if not closed:
            sock.settimeout(WAIT_S)
            try:
                closed = sock.recv(1) == b""
            except OSError:
                closed = True
        assert closed and sent < 8 * 1024 * 1024, f"the broker read {sent} bytes of a 100 MB packet"
