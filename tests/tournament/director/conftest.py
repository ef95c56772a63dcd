"""Shared for the tournament tests: a score sheet played by the real table (SimulatedTable), so exported GCG
is checked against what a table really sends, not against a hand-written copy."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from referee.commands.director import DirectorGuard
from referee.sim_table import SimulatedTable
from tournament.director.app import create_app
from tournament.director.core import Director
from tournament.director.link import BrokerConfig, BrokerLink
from tournament.director.store import Store
from tournament.simhall import Mosquitto, SimTable

PLAYS = ["8G QI", "7H AX", "9F JOE", "10E WE"]


def play_game() -> list[dict[str, Any]]:
    """Four plays, a pass and an exchange of three, as the table's snapshot lists them."""
    table = SimulatedTable()
    table.control("start", {})
    for move in PLAYS:
        table.play(move)
        table.advance(20)
    table.control("pass", {})
    table.advance(20)
    snap = table.control("exchange", {"count": 3})
    return [dict(m) for m in snap["moves"]]


@pytest.fixture(scope="session")
def table_moves() -> list[dict[str, Any]]:
    return play_game()


# --- the director on a real broker, with simulated tables ------------------------------------------------


EVENT = "test-open"
KEY = "hall-key-2026"
CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def broker() -> Iterator[Mosquitto]:
    if shutil.which("mosquitto") is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    with Mosquitto() as running:
        yield running


class DirectorServer:
    """The director (store, broker link, web app) on its own event loop in a thread, as `referee director` runs."""

    def __init__(self, broker_url: str, state_dir: Path, credential: str | None = KEY, event: str = EVENT,
                 **backoff: float) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = Store(state_dir / "director.sqlite3")
        self.director = Director(event, self.store, name="Test Open")
        self.link = BrokerLink(self.director, BrokerConfig(broker_url, client_id=f"director-{state_dir.name}"))
        self.guard = DirectorGuard(credential, **backoff)
        self.runner = web.AppRunner(create_app(self.director, self.guard, feature=[1, 2]))
        self.port = 0
        self._thread = threading.Thread(target=self.loop.run_forever, name="director", daemon=True)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the director's loop (where the hall lives) and return its result."""
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(15)

    async def _start(self) -> None:
        self.link.start()
        await asyncio.wait_for(self.link.connected.wait(), 10)
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
        self.link.stop()
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()
        self.store.close()


_EVENTS = iter(range(1, 1_000_000))


@pytest.fixture
def event_id() -> str:
    """An event of its own per test: the broker's retained messages of other tests stay out of its hall."""
    return f"{EVENT}-{next(_EVENTS)}"


@pytest.fixture
def director_server(broker: Mosquitto, tmp_path: Path, event_id: str) -> Iterator[Callable[..., DirectorServer]]:
    servers: list[DirectorServer] = []

    def start(**kwargs: Any) -> DirectorServer:
        kwargs.setdefault("event", event_id)
        server = DirectorServer(broker.url, tmp_path, **kwargs)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def sim_tables(broker: Mosquitto, event_id: str) -> Iterator[Callable[..., list[SimTable]]]:
    made: list[SimTable] = []

    def make(numbers: Iterator[int] | list[int] | range) -> list[SimTable]:
        tables = [SimTable(event_id, n, broker.url, players=(f"P{n}a", f"P{n}b")) for n in numbers]
        for table in tables:
            table.connect()
        for table in tables:
            assert table.connected.wait(10), f"table {table.number} did not connect"
        made.extend(tables)
        return tables

    yield make
    for table in made:
        table.stop()


@pytest.fixture
def wait() -> Callable[..., None]:
    return wait_for


def wait_for(condition: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """Wait on a condition that other threads make true (polling with a bound, never a fixed sleep)."""
    event = threading.Event()
    deadline = timeout
    step = 0.02
    while deadline > 0:
        if condition():
            return
        event.wait(step)
        deadline -= step
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"chromium is not installed ({CHROMIUM})")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1600, "height": 1000}, locale="en-GB")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
