"""Runs the director: the store, the broker link and the web application, until cancelled."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from tournament.broadcast.delay import Delay
from tournament.director.access import DirectorGuard
from tournament.director.app import create_app
from tournament.director.config import DirectorConfig
from tournament.director.core import Director
from tournament.director.link import hall_link
from tournament.director.rounds import TshWatch
from tournament.director.sheets import Replayer
from tournament.director.store import Store

log = logging.getLogger(__name__)


async def serve(config: DirectorConfig, guard: DirectorGuard, replayer: Replayer, *,
                started: asyncio.Event | None = None, bound: list[int] | None = None) -> None:
    """Serve until cancelled. `replayer` turns a game's journaled events into its score sheet (the results'
    only source: tournament/director/sheets.py). `started` is set once the port is open; `bound` receives the
    port (for port 0)."""
    config.state_dir.mkdir(parents=True, exist_ok=True)
    store = Store(config.state_dir / "director.sqlite3")
    director = Director(config.event, store, name=config.name, replayer=replayer)
    director.tsh_entry, director.bye_spread = config.tsh_entry, config.bye_spread
    link = hall_link(director, config.broker)
    tsh = TshWatch(director, config.tsh_file, dict(config.tsh_offsets)) if config.tsh_file is not None else None
    cast = config.broadcast
    runner = web.AppRunner(create_app(director, guard, feature=config.feature, tsh=tsh,
                                      language=config.broadcast_language, pages_language=config.pages_language,
                                      delay=Delay(cast.delay_moves, cast.delay_seconds)))
    await runner.setup()
    try:
        link.start()
        site = web.TCPSite(runner, config.host, config.port)
        await site.start()
        port = runner.addresses[0][1]
        if bound is not None:
            bound.append(port)
        log.info("director of %s at http://%s:%d/ (commands %s)", config.event, config.host, port,
                 "on" if guard.enabled else "off: no credential configured")
        print(f"director: http://{config.host}:{port}/", flush=True)
        if started is not None:
            started.set()
        await asyncio.Event().wait()
    finally:
        await link.stop()
        await runner.cleanup()
        store.close()
