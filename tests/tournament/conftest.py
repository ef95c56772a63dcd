"""A real Mosquitto per test (free loopback port, generated config, temporary persistence), tables that
publish a real journal, and a director that records what it applied. Waits are on conditions with timeouts."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from referee.journal import Event, Journal
from referee.tournament_link import JournalOutbox
from tournament.acl import acl_text, table_user
from tournament.director.link import DirectorLink
from tournament.outbox import TablePublisher
from tournament.payloads import AckMessage, CommandName, EventMessage, StatusMessage
from tournament.publisher_loop import PublisherLoop
from tournament.settings import BrokerSettings, TableLinkSettings
from tournament.testing.broker import Broker, mosquitto_path

EVENT = "test-open"
TABLES = (1, 2, 3)
WAIT_S = 30.0


def password(user: str) -> str:
    return f"pw-{user}"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    users = {u: password(u) for u in ("director", "viewer", *(table_user(n) for n in TABLES))}
    b = Broker(tmp_path / "broker", users, acl_text(EVENT, TABLES))
    b.start()
    try:
        yield b
    finally:
        b.stop()


def settings_for(broker: Broker, user: str) -> BrokerSettings:
    return BrokerSettings(broker.host, broker.port, username=user, password=password(user))


class Director:
    """A DirectorLink, on an asyncio loop of its own in a thread (as the director's service runs it), that
    records, in order, what it applied; tests wait on its condition."""

    def __init__(self, broker: Broker, client_id: str = "test-director", event: str = EVENT) -> None:
        self.cond = threading.Condition()
        self.applied: list[tuple[int, int, int]] = []
        self.events: list[EventMessage] = []
        self.acks: dict[str, AckMessage] = {}  # the latest ack of each command id
        self.acked: dict[str, set[int]] = {}  # command id -> the tables that acknowledged it
        self.status: dict[int, str] = {}
        self.link = DirectorLink(settings_for(broker, "director"), event, on_event=self._event, on_ack=self._ack,
                                 on_status=self._status, client_id=client_id, retry_s=1.0)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=f"director-{client_id}", daemon=True)
        self._started = False
        self._stopped = False

    def _event(self, msg: EventMessage, published_ms: int | None) -> None:
        with self.cond:
            self.applied.append(msg.key)
            self.events.append(msg)
            self.cond.notify_all()

    def _ack(self, ack: AckMessage) -> None:
        with self.cond:
            self.acks[ack.id] = ack
            self.acked.setdefault(ack.id, set()).add(ack.table)
            self.cond.notify_all()

    def _status(self, st: StatusMessage) -> None:
        with self.cond:
            self.status[st.table] = st.state
            self.cond.notify_all()

    def wait(self, predicate: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
        with self.cond:
            assert self.cond.wait_for(predicate, timeout), f"timed out waiting for {what}"

    def keys(self, table: int) -> list[tuple[int, int]]:
        with self.cond:
            return [(g, s) for t, g, s in self.applied if t == table]

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the link's loop (paho's client is the loop's alone) and return its result."""
        if not self._started:
            return fn()

        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(WAIT_S)

    def send(self, table: int | None, cmd: CommandName, args: Mapping[str, Any] | None = None, *,
             command_id: str | None = None) -> str:
        return str(self.call(lambda: self.link.send(table, cmd, args, command_id=command_id)))

    def start(self) -> Director:
        self._thread.start()
        self._started = True
        self.call(self.link.start)
        assert asyncio.run_coroutine_threadsafe(self.link.wait_connected(WAIT_S), self.loop).result(WAIT_S + 5)
        return self

    def stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            if self._started:
                asyncio.run_coroutine_threadsafe(self.link.stop(), self.loop).result(WAIT_S)
                self.loop.call_soon_threadsafe(self.loop.stop)
                self._thread.join(10)
            self.loop.close()


class FakeTable:
    """A table's journal and publisher, without the game: events are appended as a table would."""

    def __init__(self, broker: Broker, journal_path: Path, table: int = 1, user: str | None = None,
                 event: str = EVENT) -> None:
        self.table = table
        self.journal = Journal(journal_path)
        rows = self.journal.games()
        self.game = rows[-1].id if rows else self.journal.new_game(f"Table {table}", "standard", ["Ann", "Bob"], {})
        self.t_ms = self.journal.resume_time(self.game)
        settings = TableLinkSettings(settings_for(broker, user or table_user(table)), event, table)
        self.publisher = TablePublisher(settings, JournalOutbox(self.journal, table), save_every_s=0.0)
        self._stopped = False

    def play(self, n: int, step_ms: int = 5000) -> None:
        for _ in range(n):
            self.t_ms += step_ms
            self.journal.append(self.game, Event("clock", self.t_ms, {"player": self.t_ms % 2}))
            self.publisher.notify()

    def events(self) -> int:
        return self.journal.last_seq(self.game)

    def start(self, loop: PublisherLoop | None = None) -> FakeTable:
        self.publisher.start(loop)
        return self

    def stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            self.publisher.stop()
            self.journal.close()


@pytest.fixture
def make_director(broker: Broker) -> Iterator[Callable[..., Director]]:
    """Directors made by a test are stopped after it (stop() twice is harmless)."""
    made: list[Director] = []

    def make(client_id: str = "test-director", start: bool = True) -> Director:
        d = Director(broker, client_id)
        made.append(d)
        return d.start() if start else d

    yield make
    for d in made:
        d.stop()


@pytest.fixture
def director(make_director: Callable[..., Director]) -> Director:
    return make_director()


@pytest.fixture
def make_table(broker: Broker, tmp_path: Path) -> Iterator[Callable[..., FakeTable]]:
    made: list[FakeTable] = []

    def make(table: int = 1, user: str | None = None, start: bool = True,
             loop: PublisherLoop | None = None) -> FakeTable:
        t = FakeTable(broker, tmp_path / f"table{table}.sqlite3", table, user)
        made.append(t)
        return t.start(loop) if start else t

    yield make
    for t in made:
        t.stop()


@pytest.fixture
def helpers() -> type[Helpers]:
    """The Director and FakeTable classes, for tests that build them on other brokers."""
    return Helpers


class Helpers:
    Director = Director
    FakeTable = FakeTable
