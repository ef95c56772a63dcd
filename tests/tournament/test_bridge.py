"""Beyond one hall: a venue Mosquitto bridged to a central one (the shipped systemd/mosquitto/bridge.conf,
pointed at loopback). The central broker goes away and comes back: nothing the venue's tables journaled is
lost at the central director, and its replay requests reach the tables back over the bridge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.acl import acl_text, table_user
from tournament.testing.broker import Broker, mosquitto_path

EVENT = "test-open"  # as the conftest's Director and FakeTable use
SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto" / "bridge.conf"


def bridge_config(central_port: int, event: str = EVENT, login: str = "venue") -> str:
    """The shipped bridge file with the central broker on loopback, without TLS, for a venue's event id and
    the login the central broker gave it."""
    lines = []
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if line.startswith("address "):
            line = f"address 127.0.0.1:{central_port}"
        elif line.startswith("bridge_cafile"):
            continue
        elif line.startswith("remote_password"):
            line = f"remote_password pw-{login}"
        elif line.startswith("remote_username"):
            line = f"remote_username {login}"
        elif line.startswith(("remote_clientid", "local_clientid")):
            line = line.replace("venue-hall-a", login)
        lines.append(line.replace("open-2026-hall-a", event))
    return "\n".join(lines) + "\n"


@pytest.fixture
def halls(tmp_path: Path) -> Iterator[tuple[Broker, Broker]]:
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    central = Broker(tmp_path / "central", {"director": "pw-director", "venue": "pw-venue"},
                     acl_text(EVENT, [], viewer=None, bridge="venue"))
    central.start()
    venue = Broker(tmp_path / "venue", {"director": "pw-director", table_user(1): f"pw-{table_user(1)}"},
                   acl_text(EVENT, [1]), extra=bridge_config(central.port))
    try:
        venue.start()
        yield venue, central
    finally:
        venue.stop()
        central.stop()


def test_nothing_is_lost_while_the_bridge_is_down(halls: tuple[Broker, Broker], tmp_path: Path,
                                                  helpers: Any) -> None:
    venue, central = halls
    director = helpers.Director(central, "central-director").start()
    table = helpers.FakeTable(venue, tmp_path / "table1.sqlite3").start()
    try:
        table.play(10)
        director.wait(lambda: len(director.applied) >= 11, "the first events at the central director")
        central.stop()  # the link to the central site is down; the hall plays on
        table.play(40)
        assert table.publisher.caught_up.wait(20), "the venue broker took everything meanwhile"
        central.start()
        table.play(5)
        director.wait(lambda: len(director.applied) >= 56, "all 56 events at the central director", timeout=60)
        assert director.keys(1) == [(table.game, s) for s in range(56)]
        # A central director that joins late asks for the game; the request crosses the bridge inwards.
        late = helpers.Director(central, "late-central-director").start()
        try:
            table.play(1)
            late.wait(lambda: len(late.applied) >= 57, "the whole game, replayed over the bridge", timeout=60)
            assert late.keys(1) == [(table.game, s) for s in range(57)]
        finally:
            late.stop()
    finally:
        table.stop()
        director.stop()


def test_two_venues_on_one_central_broker(tmp_path: Path, helpers: Any) -> None:
    """Two halls, each with its table 1, bridged to one central broker (its ACL from `central_acl_text`): each
    central director gets its own venue's table 1 whole, nothing of the other's, and one venue's bridge login
    cannot write the other venue's topics (issue 24 row 15)."""
    from tournament import mqtt, topics
    from tournament.acl import central_acl_text
    from tournament.payloads import EventMessage
    from tournament.settings import BrokerSettings

    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    venues = {"test-open-a": "venue-a", "test-open-b": "venue-b"}
    central = Broker(tmp_path / "central", {"director": "pw-director", **{v: f"pw-{v}" for v in venues.values()}},
                     central_acl_text(venues, viewer=None))
    halls = [Broker(tmp_path / event, {"director": "pw-director", table_user(1): f"pw-{table_user(1)}"},
                    acl_text(event, [1]), extra=bridge_config(central.port, event, login))
             for event, login in venues.items()]
    made: list[Any] = []
    try:
        central.start()
        for hall in halls:
            hall.start()
        directors = [helpers.Director(central, f"central-{event}", event=event).start() for event in venues]
        tables = [helpers.FakeTable(hall, tmp_path / f"{event}.sqlite3", event=event).start()
                  for hall, event in zip(halls, venues, strict=True)]
        made = [*directors, *tables]
        tables[0].play(7)
        tables[1].play(3)
        directors[0].wait(lambda: len(directors[0].applied) >= 8, "venue A's table 1 at its central director")
        directors[1].wait(lambda: len(directors[1].applied) >= 4, "venue B's table 1 at its central director")
        assert directors[0].keys(1) == [(tables[0].game, s) for s in range(8)]
        assert directors[1].keys(1) == [(tables[1].game, s) for s in range(4)]
        # venue A's bridge login, used by hand, is refused on venue B's topics and allowed on its own
        thief = mqtt.make_client(BrokerSettings(central.host, central.port, username="venue-a", password="pw-venue-a"),
                                 "venue-a-by-hand")
        acks: dict[int, Any] = {}
        thief.on_publish = lambda c, u, mid, rc, p: acks.__setitem__(mid, rc)
        thief.connect(central.host, central.port)
        thief.loop_start()
        try:
            payload = EventMessage(1, 99, 0, "game", {"players": ["X", "Y"]}, 0.0, "t").to_bytes()
            other = thief.publish(topics.events("test-open-b", 1), payload, qos=1)
            own = thief.publish(topics.snapshot("test-open-a", 1), b"", qos=1)
            other.wait_for_publish(20)
            own.wait_for_publish(20)
            assert acks[other.mid].is_failure and not acks[own.mid].is_failure
        finally:
            thief.disconnect()
            thief.loop_stop()
        assert directors[1].keys(1) == [(tables[1].game, s) for s in range(4)]  # nothing forged reached it
    finally:
        for item in made:
            item.stop()
        for hall in halls:
            hall.stop()
        central.stop()
