"""The director's one link, driven on its asyncio loop: every callback runs on the loop's thread, and no thread
of paho's or the link's own (its network thread, `director-gaps`) runs beside it, also across a broker
restart. A real Mosquitto on loopback; waits are on conditions with timeouts."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.acl import DIRECTOR_USER
from tournament.director.core import Director
from tournament.director.link import DirectorLink, hall_link
from tournament.director.store import Store
from tournament.payloads import EventMessage, StatusMessage
from tournament.testing.broker import Broker

from .conftest import EVENT, settings, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop in a thread of its own, as the director's service runs one."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, name="the-directors-loop", daemon=True)
    thread.start()
    try:
        yield running
    finally:
        running.call_soon_threadsafe(running.stop)
        thread.join(5)
        running.close()


def on(loop: asyncio.AbstractEventLoop, fn: Callable[[], Any]) -> Any:
    async def run() -> Any:
        result = fn()
        return await result if asyncio.iscoroutine(result) else result
    return asyncio.run_coroutine_threadsafe(run(), loop).result(30)


def test_every_callback_runs_on_the_directors_loop_and_no_thread_runs_beside_it(
        broker: Broker, sim_tables: Any, loop: asyncio.AbstractEventLoop) -> None:
    (table,) = sim_tables([4])  # a simulated table: paho's own thread, as a Pi's test stand-in
    threads_before = {t.ident for t in threading.enumerate()}
    called_on: set[str] = set()
    events: list[EventMessage] = []
    statuses: list[StatusMessage] = []

    def on_event(message: EventMessage, published_ms: int | None) -> None:
        called_on.add(threading.current_thread().name)
        events.append(message)

    def on_status(message: StatusMessage) -> None:
        called_on.add(threading.current_thread().name)
        statuses.append(message)

    link = DirectorLink(settings(broker, DIRECTOR_USER), EVENT, on_event=on_event, on_status=on_status,
                        on_snapshot=lambda _m: called_on.add(threading.current_thread().name),
                        on_broker=lambda _up: called_on.add(threading.current_thread().name),
                        client_id="loop-test-director")
    on(loop, link.start)
    assert on(loop, lambda: link.wait_connected(15))
    table.play("8D QUIZ", 64, ["D8", "E8", "F8", "G8"])
    wait_for(lambda: [e.seq for e in events] == [0, 1], 15, "the header and the play")

    broker.kill()  # lost, then back: the link reconnects by itself, on the loop
    broker.start()
    wait_for(lambda: link.client.is_connected() and table.connected.is_set(), 20, "the director and the table back")
    table.play("9D OX", 20, ["D9"])
    wait_for(lambda: [e.seq for e in events] == [0, 1, 2], 15, "the play after the broker's restart")

    assert called_on == {"the-directors-loop"}
    assert statuses and {s.table for s in statuses} == {4}
    beside = [t.name for t in threading.enumerate() if t.ident not in threads_before and t.is_alive()
              and not t.name.startswith(("asyncio_", "ThreadPoolExecutor"))]  # the executor: connecting only
    assert beside == []  # paho's network thread (paho-mqtt-client-...) and director-gaps were
    on(loop, link.stop)
    assert not link.client.is_connected()


def test_the_hall_link_feeds_the_director_and_refuses_a_command_without_the_broker(
        broker: Broker, sim_tables: Any, loop: asyncio.AbstractEventLoop, tmp_path: Path) -> None:
    director = Director(EVENT, Store(tmp_path / "d.sqlite3"))
    link = hall_link(director, settings(broker, DIRECTOR_USER), client_id="hall-link-test")
    (table,) = sim_tables([5])
    try:
        on(loop, link.start)
        assert on(loop, lambda: link.wait_connected(15))
        table.play("8D QUIZ", 64, ["D8", "E8", "F8", "G8"])
        wait_for(lambda: on(loop, lambda: director.tables.get(5) is not None and director.tables[5].seq >= 1), 15,
                 "table 5's play in the hall")
        sent = on(loop, lambda: director.send("pause", {}, [5]))
        wait_for(lambda: [c.cmd for c in table.applied] == ["pause"], 15, "the pause at the table")
        wait_for(lambda: 5 in on(loop, lambda: dict(director.commands[sent.id].acks)), 15, "its ack")
        assert on(loop, director.stats)["delivery"]["applied"] >= 2
        broker.stop()
        wait_for(lambda: not on(loop, lambda: director.broker_state()["connected"]), 15, "the broker gone")
        with pytest.raises(RuntimeError, match="lost the broker"):
            on(loop, lambda: link.command(5, "resume", {}, "c-after"))
    finally:
        on(loop, link.stop)
        director.store.close()


def test_a_command_sent_while_connecting_goes_after_the_connect(
        broker: Broker, sim_tables: Any, loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch) -> None:
    """paho's connect runs in the executor, and its socket exists before its CONNECT is queued: a replay request
    the receiver published in between went out first, and the broker closed the connection for it (a
    protocol error), so the link connected twice. It now waits for the connect."""
    (table,) = sim_tables([6])
    link = DirectorLink(settings(broker, DIRECTOR_USER), EVENT, on_event=lambda _m, _p: None,
                        client_id="connecting-director")
    reached, gate = threading.Event(), threading.Event()
    send_connect = link.client._send_connect
    connects: list[float] = []
    reconnect = link.client.reconnect

    def counted() -> Any:
        connects.append(time.monotonic())
        return reconnect()

    def held(keepalive: int) -> Any:  # the socket is open, the CONNECT not yet queued
        reached.set()
        gate.wait(10)
        return send_connect(keepalive)

    monkeypatch.setattr(link.client, "reconnect", counted)
    monkeypatch.setattr(link.client, "_send_connect", held)
    try:
        on(loop, link.start)
        assert reached.wait(10)
        on(loop, lambda: link.send(6, "message", {"text": "sent while the director connects"}))
        gate.set()
        assert on(loop, lambda: link.wait_connected(15))
        wait_for(lambda: [c.cmd for c in table.applied] == ["message"], 15, "the message at table 6")
        assert len(connects) == 1 and link.client.is_connected()
    finally:
        gate.set()
        on(loop, link.stop)
