"""Many tables' publishers on one `PublisherLoop` thread, through a real Mosquitto: each table's events arrive
once and in order, a broker restart is survived by all, and one table's failure does not hold up the others."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tournament import mqtt
from tournament.publisher_loop import PublisherLoop
from tournament.testing.broker import Broker

Director = Any  # conftest.Director
FakeTable = Any  # conftest.FakeTable
TABLES = (1, 2, 3)  # the conftest's ACL


@pytest.fixture
def loop() -> Iterator[PublisherLoop]:
    lp = PublisherLoop(name="test-publishers", seed=7)
    yield lp
    lp.stop()


def expected(table: FakeTable) -> list[tuple[int, int]]:
    return [(table.game, s) for s in range(table.events() + 1)]


def test_tables_share_one_thread_and_each_arrives_once_in_order(
        broker: Broker, director: Director, make_table: Callable[..., FakeTable], loop: PublisherLoop) -> None:
    before = threading.active_count()
    tables = [make_table(n, loop=loop) for n in TABLES]
    assert threading.active_count() - before == 1, "one loop thread for every table (no per-table threads)"
    for t in tables:
        t.play(15)
    director.wait(lambda: len(director.applied) >= 3 * 16, "every table's first 16 events")
    broker.kill()
    for t in tables:
        t.play(10)  # the tables play on while the broker is gone
    broker.start()
    for t in tables:
        t.play(5)
    director.wait(lambda: len(director.applied) >= 3 * 31, "all 93 events after the broker restart")
    for t in tables:
        assert director.keys(t.table) == expected(t)
        assert t.publisher.caught_up.wait(30)
    assert len(director.applied) == len(set(director.applied)), "nothing applied twice"


def test_one_tables_failing_journal_does_not_hold_up_the_others(
        director: Director, make_table: Callable[..., FakeTable], loop: PublisherLoop,
        caplog: pytest.LogCaptureFixture) -> None:
    broken, healthy = make_table(1, start=False), make_table(2, start=False)
    real_pending = broken.publisher.source.pending
    failures = []

    def pending_failing_once(after: Any, limit: int) -> Any:
        if not failures:
            failures.append(after)
            raise OSError("disk I/O error")
        return real_pending(after, limit)

    broken.publisher.source.pending = pending_failing_once
    broken.start(loop)
    healthy.start(loop)
    broken.play(5)
    healthy.play(5)
    director.wait(lambda: director.keys(2) == expected(healthy), "the healthy table's events")
    director.wait(lambda: director.keys(1) == expected(broken), "the failing table's events, on its retry")
    assert failures and "publisher step failed" in caplog.text


def test_a_publisher_started_before_the_broker_connects_when_it_comes(
        broker: Broker, director: Director, make_table: Callable[..., FakeTable], loop: PublisherLoop) -> None:
    broker.kill()
    table = make_table(1, loop=loop)
    table.play(3)
    broker.start()
    director.wait(lambda: director.keys(1) == expected(table), "the events once the broker is up")


def test_reconnect_back_off_is_short_and_spread() -> None:
    lp = PublisherLoop(seed=3)
    try:
        waits = [[lp._backoff(k) for _ in range(200)] for k in range(6)]
    finally:
        lp.stop()
    assert min(waits[0]) >= 0.75 * mqtt.MIN_RECONNECT_S and max(waits[0]) <= 1.25 * mqtt.MIN_RECONNECT_S
    assert max(max(w) for w in waits) <= 1.25 * mqtt.MAX_RECONNECT_S, "never longer than the cap"
    assert max(waits[5]) - min(waits[5]) > 0.3 * mqtt.MAX_RECONNECT_S, "jitter spreads a hall's tables out"


def test_a_stop_does_not_hang_on_a_broker_that_takes_nothing(director: Director,
                                                           make_table: Callable[..., FakeTable]) -> None:
    """A broker that stopped reading: the last "offline" and the DISCONNECT cannot be written. The stop gives
    up after `CLOSE_FLUSH_S`, closes the socket, and the publisher's loop thread ends."""
    table = make_table(1)
    table.play(2)
    director.wait(lambda: director.keys(1) == expected(table), "the events")
    client = table.publisher.client
    client.loop_write = lambda: 0  # "written", yet nothing leaves: the socket takes no more
    loop = table.publisher._loop
    table.stop()
    assert loop is not None and loop._thread is not None and not loop._thread.is_alive()
    assert client.socket() is None or client.socket().fileno() == -1, "the socket is closed anyway"
