"""The director's web app without a broker, fed real table snapshots by hand: for the broadcast's tests.

The snapshots are the real table's (referee.sim.table.SimulatedTable: engine, clocks, premiums, unseen
tiles), handed to the director as its broker link would (`on_status`, `on_snapshot`). The director's clock is
a `FakeClock` the test steps, so the spectators' delay is tested without waiting."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from referee.sim.table import SimulatedTable, default_setup
from tournament.broadcast.delay import Delay
from tournament.broadcast.routes import BROADCAST, Broadcast
from tournament.director.access import DirectorGuard
from tournament.director.app import create_app
from tournament.director.core import Director
from tournament.director.store import Store
from tournament.payloads import SnapshotMessage, StatusMessage

KEY = "hall-key-2026"
WORDS = ["QI", "AX", "JOE", "WE", "ZA", "OX", "EX", "XI", "JO", "QAT", "RETINAS", "AE", "TOE", "ZOA", "QIS"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CastServer:
    def __init__(self, state_dir: Path, *, delay: Delay | None = None, language: str = "",
                 pages_language: str = "en") -> None:
        self.clock = FakeClock()
        self.loop = asyncio.new_event_loop()
        state_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(state_dir / "director.sqlite3")
        self.director = Director("test-open", self.store, name="Test Open", clock=self.clock)
        self.app = create_app(self.director, DirectorGuard(KEY, language=pages_language), feature=[1], delay=delay,
                              language=language, pages_language=pages_language)
        self.runner = web.AppRunner(self.app)
        self.port = 0
        self.seq: dict[int, int] = {}
        self._thread = threading.Thread(target=self.loop.run_forever, name="cast-director", daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(20)

    async def _start(self) -> None:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = self.runner.addresses[0][1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def broadcast(self) -> Broadcast:
        return self.app[BROADCAST]

    def call(self, fn: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def online(self, table: int, name: str = "") -> None:
        self.call(lambda: self.director.on_status(table, StatusMessage(table, "online", "2026-05-02T10:00:00+00:00",
                                                                       name or f"Table {table}")))

    def show(self, table: int, snapshot: dict[str, Any], game: int = 1) -> None:
        """The table publishes `snapshot` (each one a seq further)."""
        seq = self.seq[table] = self.seq.get(table, 0) + 1
        self.call(lambda: self.director.on_snapshot(SnapshotMessage(table, game, seq, dict(snapshot))))

    def tick(self, seconds: float = 0.0) -> None:
        self.clock.now += seconds
        self.call(self.broadcast.tick)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()
        self.store.close()


def real_table(players: tuple[str, str] = ("Anna Müller", "Ben Okafor"), **setup: Any) -> SimulatedTable:
    return SimulatedTable(default_setup(players=players, **setup), words=WORDS)


def played(table: SimulatedTable, moves: list[str]) -> list[dict[str, Any]]:
    """Start the table's game and play `moves`; the snapshot after each (the first: before any move)."""
    shots = [dict(table.control("start", {}))]
    for move in moves:
        table.play(move)
        shots.append(dict(table.advance(20)))
    return shots
