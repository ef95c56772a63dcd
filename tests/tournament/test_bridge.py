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


def bridge_config(central_port: int) -> str:
    """The shipped bridge file with the central broker on loopback, without TLS, for this test's event."""
    lines = []
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if line.startswith("address "):
            line = f"address 127.0.0.1:{central_port}"
        elif line.startswith("bridge_cafile"):
            continue
        elif line.startswith("remote_password"):
            line = "remote_password pw-venue"
        elif line.startswith("remote_username"):
            line = "remote_username venue"
        lines.append(line.replace("open-2026", EVENT))
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
