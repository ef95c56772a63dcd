"""The director on a real Mosquitto (with the event's ACL and a user per table), simulated tables speaking the
contract, and pages of the run's one Chromium (the `browser` fixture of tests/conftest.py). Waits are on
conditions with timeouts, never fixed sleeps."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tournament.acl import DIRECTOR_USER, acl_text, table_user
from tournament.director.access import DirectorGuard
from tournament.director.app import create_app
from tournament.director.core import Director
from tournament.director.link import hall_link
from tournament.director.rounds import TshWatch
from tournament.director.store import Store
from tournament.settings import BrokerSettings
from tournament.testing.broker import Broker, mosquitto_path
from tournament.testing.simhall import SimReplayer, SimTable

EVENT = "test-open"
KEY = "hall-key-2026"
MAX_TABLE = 60


def password(user: str) -> str:
    return f"pw-{user}"


def settings(broker: Broker, user: str) -> BrokerSettings:
    return BrokerSettings(broker.host, broker.port, username=user, password=password(user))


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto with a password per user and the event's ACL: tables 1 to MAX_TABLE and the director."""
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    users = {u: password(u) for u in (DIRECTOR_USER, *(table_user(n) for n in range(1, MAX_TABLE + 1)))}
    with Broker(tmp_path / "broker", users, acl_text(EVENT, range(1, MAX_TABLE + 1))) as running:
        yield running


class DirectorServer:
    """The director (store, broker link, web app) on its own event loop in a thread, as `referee director` runs."""

    def __init__(self, broker: Broker, state_dir: Path, credential: str | None = KEY, *,
                 tsh_file: Path | None = None, tsh_offsets: dict[str, int] | None = None, **backoff: float) -> None:
        self.loop = asyncio.new_event_loop()
        state_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(state_dir / "director.sqlite3")
        self.director = Director(EVENT, self.store, name="Test Open", replayer=SimReplayer())
        self.link = hall_link(self.director, settings(broker, DIRECTOR_USER))
        self.guard = DirectorGuard(credential, **backoff)
        # with `tsh_file`, tsh's tourney.js is looked at ten times a second (the service: every 3 s)
        self.tsh = TshWatch(self.director, tsh_file, dict(tsh_offsets or {})) if tsh_file is not None else None
        self.runner = web.AppRunner(create_app(self.director, self.guard, feature=[1, 2], tsh=self.tsh,
                                               tsh_poll_s=0.1))
        self.port = 0
        self._thread = threading.Thread(target=self.loop.run_forever, name="director", daemon=True)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the director's loop (where the hall lives) and return its result."""
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(20)

    async def _start(self) -> None:
        self.link.start()
        assert await self.link.wait_connected(15), "the director did not connect to the broker"
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = self.runner.addresses[0][1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.link.stop(), self.loop).result(10)
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()
        self.store.close()


@pytest.fixture
def director_server(broker: Broker, tmp_path: Path) -> Iterator[Callable[..., DirectorServer]]:
    servers: list[DirectorServer] = []

    def start(state: str | None = None, **kwargs: Any) -> DirectorServer:
        """`state`: the name of the state folder, to start a director again on another's store."""
        server = DirectorServer(broker, tmp_path / (state or f"director{len(servers)}"), **kwargs)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def sim_tables(broker: Broker) -> Iterator[Callable[..., list[SimTable]]]:
    made: list[SimTable] = []

    def make(numbers: Iterator[int] | list[int] | range) -> list[SimTable]:
        tables = [SimTable(EVENT, n, settings(broker, table_user(n)), players=(f"P{n}a", f"P{n}b")) for n in numbers]
        for table in tables:
            table.connect()
        for table in tables:
            assert table.connected.wait(15), f"table {table.number} did not connect"
        made.extend(tables)
        return tables

    yield make
    for table in made:
        table.stop()


def wait_for(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Wait on a condition that other threads make true (polling with a bound, never a fixed sleep)."""
    pause = threading.Event()
    left = timeout
    while left > 0:
        if condition():
            return
        pause.wait(0.02)
        left -= 0.02
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture
def wait() -> Callable[..., None]:
    return wait_for


@pytest.fixture(scope="module")
def table_moves() -> list[dict[str, Any]]:
    """A score sheet played by the real table (SimulatedTable), as its snapshot lists it."""
    from referee.sim.table import SimulatedTable

    table = SimulatedTable()
    table.control("start", {})
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        table.advance(20)
    table.control("pass", {})
    table.advance(20)
    return [dict(m) for m in table.control("exchange", {"count": 3})["moves"]]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1600, "height": 1000}, locale="en-GB")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
