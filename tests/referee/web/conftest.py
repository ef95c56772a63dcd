"""Fixtures for the scoreboard tests: the table, a live server in a thread, and Chromium.

`table` is the real simulated table (`referee.sim.SimulatedTable`, recording the controls that reach it);
`make_recorded_table(**settings)` makes more with other settings (a Scramble table, ...). Every test reaches
its situation with the table's own calls: play words, advance the clock, enter racks, pass to the end.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from aiohttp import web

from referee.journal import Journal
from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.table.api import Snapshot
from referee.table.setup import TableSetup
from referee.web import create_app

# Debian's Chromium; REFEREE_CHROMIUM names another build (or a missing path, to check the clean skip).
CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PIN = "390217"


class TableWithoutRecord:
    """A table that keeps no game record: everything of the simulated table except `gcg()`."""

    def __init__(self, table: SimulatedTable) -> None:
        self._table = table

    def snapshot(self) -> Snapshot:
        return self._table.snapshot()

    def subscribe(self, listener: Callable[[Snapshot], None]) -> Callable[[], None]:
        return self._table.subscribe(listener)

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        return self._table.control(action, params)


def run_in_thread(coro: Any) -> Any:
    """Run a coroutine to the end on a fresh event loop in its own thread, and return its result.

    Playwright's sync API keeps an event loop running on the main thread while the session's browser is
    open, so `asyncio.run` there would refuse; a thread of its own keeps the async tests independent of it.
    """
    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=target, name="async-test")
    thread.start()
    thread.join(120)
    if thread.is_alive():
        raise TimeoutError("the async test did not finish within 120 s")
    if error:
        raise error[0]
    return result[0]


@pytest.fixture
def run_async() -> Callable[[Any], Any]:
    return run_in_thread


class RecordedTable(SimulatedTable):
    """The simulated table, keeping every control that reached it: the page's tests check that a refused
    request never gets to the table, and that what does is cleaned first."""

    def __init__(self, clock: ManualClock, setup: TableSetup | None = None, journal: Journal | None = None) -> None:
        super().__init__(setup, clock=clock, journal=journal)
        self.controls: list[tuple[str, dict[str, Any]]] = []

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        self.controls.append((action, dict(params)))
        return super().control(action, params)


@pytest.fixture
def table(clock: ManualClock) -> RecordedTable:
    """The page's table: the real one on a virtual board (see referee/sim/table.py), waiting to start."""
    return RecordedTable(clock)


@pytest.fixture
def make_recorded_table(clock: ManualClock) -> Callable[..., RecordedTable]:
    """More recorded tables on `clock`, with other settings of `default_setup` (`kind="scramble"`, ...) and
    optionally a `journal`."""
    return lambda journal=None, **changes: RecordedTable(clock, default_setup(**changes), journal)


@pytest.fixture
def table_without_record(table: RecordedTable) -> TableWithoutRecord:
    return TableWithoutRecord(table)


class LiveServer:
    """The scoreboard app served on 127.0.0.1 by its own event loop in a thread, like in the service."""

    def __init__(self, app: web.Application) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.runner = web.AppRunner(app)
        self.port = 0
        self._thread = threading.Thread(target=self.loop.run_forever, name="scoreboard", daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> None:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


@pytest.fixture
def live_server() -> Iterator[Callable[..., LiveServer]]:
    """Start scoreboard servers for a table: `live_server(table, pin=PIN, clock=...)`; all stopped after."""
    servers: list[LiveServer] = []

    def start(table: Any, pin: str | None = PIN, **kwargs: Any) -> LiveServer:
        server = LiveServer(create_app(table, pin, **kwargs))
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


class Scoreboard:
    """What the browser tests check on the page, the same way for every table.

    The page's own clock is Playwright's fake clock, paused at `open`: the page then shows exactly the
    server's clock values, and a test moves the page's time on with `page.clock.run_for` when it checks
    the animation between pushes. `within_ms` is how soon a push must be on the page.
    """

    within_ms = 1000

    def __init__(self, expect: Any) -> None:
        self.expect = expect

    @staticmethod
    def clock_text(ms: int) -> str:
        """The page's clock format: minutes and seconds, rounded up while time is left, minus in overtime."""
        s = -((-ms) // 1000)
        text = f"{abs(s) // 60}:{abs(s) % 60:02d}"
        return f"\u2212{text}" if s < 0 else text

    def open(self, page: Any, url: str) -> None:
        page.clock.install()
        page.goto(url)
        page.clock.pause_at(10_000_000_000)  # the browser's clock stands still unless the test moves it
        self.expect(page.locator("#connection")).to_have_attribute("data-connected", "true", timeout=5000)

    def check_players(self, page: Any, table: Any) -> None:
        """Every score and clock on the page equals the table's, within `within_ms` of the push."""
        for i, player in enumerate(table.snapshot()["players"]):
            card = page.locator(f"#player-{i}")
            self.expect(card.locator(".score")).to_have_text(str(player["score"]), timeout=self.within_ms)
            if player["clock"] is not None:
                self.expect(card.locator(".clock")).to_have_text(self.clock_text(player["clock"]["remaining_ms"]),
                                                                 timeout=self.within_ms)
            on_turn = re.compile(r"\bon-turn\b") if player["on_turn"] else re.compile(r"^player$")
            self.expect(card).to_have_class(on_turn, timeout=self.within_ms)


@pytest.fixture
def ui(browser: Any) -> Scoreboard:
    return Scoreboard(pytest.importorskip("playwright.sync_api").expect)
